import sharp from 'sharp';

/**
 * Real files of each class, generated at test time (no binary fixtures in the repo):
 * their leading bytes are what a sniffer sees in the wild.
 */

/** A one-page PDF 1.4 with a correct cross-reference table. */
export function pdfSample(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
  ];
  const stream = 'BT /F1 12 Tf 20 100 Td (Tech log) Tj ET';
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export async function pngSample(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A JPEG carrying EXIF (camera make and model, a capture date). */
export async function jpegWithExifSample(width = 120, height = 80): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'HangarCam', Model: 'HC-20', Software: 'ops-test' },
      IFD2: { DateTimeOriginal: '2026:11:20 09:15:00' },
    })
    .toBuffer();
}

/** MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz): frame sync 0xFFFB, 417-byte frames of silence. */
export function mp3Sample(frames = 8): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** An ISO base media file: `ftyp` (isom, mp41) then a small `mdat` box. */
export function mp4Sample(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isommp41', 16, 'latin1');
  const payload = Buffer.alloc(256, 7);
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8 + payload.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat, payload]);
}
