import type { Readable } from 'node:stream';
import exifr from 'exifr';
import sharp from 'sharp';
import { stripControl } from '@ops/shared/rules/uploads/upload-types';

/** Largest side of a thumbnail, in pixels. */
export const THUMB_SIZE = 320;

export interface ImageFacts {
  width: number | null;
  height: number | null;
  exif: Record<string, unknown> | null;
  thumbnail: Buffer | null;
}

/** Formats sharp decodes here; other image types are kept without facts. */
const DECODABLE = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
  'image/heif',
  'image/heic',
]);
export const hasImageFacts = (mime: string) => DECODABLE.has(mime);

/** JSON-safe EXIF: text, finite numbers, dates as ISO strings, short number lists; binary blobs dropped. */
function cleanExif(raw: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string') out[k] = stripControl(v).trim();
    else if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    else if (typeof v === 'boolean') out[k] = v;
    else if (v instanceof Date && !Number.isNaN(v.getTime())) out[k] = v.toISOString();
    else if (Array.isArray(v) && v.length <= 16 && v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** EXIF from the leading bytes of a file (the EXIF segment sits at the start of JPEG, TIFF, HEIF). */
export async function readExif(head: Buffer): Promise<Record<string, unknown> | null> {
  try {
    const raw = (await exifr.parse(head, {
      tiff: true,
      exif: true,
      gps: true,
      ifd1: false,
      ihdr: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      makerNote: false,
      userComment: false,
    })) as Record<string, unknown> | undefined;
    return raw ? cleanExif(raw) : null;
  } catch {
    return null;
  }
}

/**
 * Dimensions and a JPEG thumbnail, streaming the image through libvips (JPEG
 * shrink-on-load keeps a 20 MP photo well under a second). Undecodable images
 * give nulls rather than an error: the sniffed type already passed.
 */
export async function imageFacts(stream: Readable, head: Buffer): Promise<ImageFacts> {
  const exif = await readExif(head);
  const img = sharp({ failOn: 'none', limitInputPixels: 268_402_689 });
  stream.on('error', (err) => img.destroy(err));
  stream.pipe(img);
  try {
    const [meta, thumbnail] = await Promise.all([
      img.metadata(),
      img
        .clone()
        .rotate()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 78 })
        .toBuffer(),
    ]);
    // Portrait photos stored landscape with an orientation tag: report what the viewer sees.
    const turned = (meta.orientation ?? 1) >= 5;
    return {
      width: (turned ? meta.height : meta.width) ?? null,
      height: (turned ? meta.width : meta.height) ?? null,
      exif,
      thumbnail,
    };
  } catch {
    stream.destroy();
    return { width: null, height: null, exif, thumbnail: null };
  }
}
