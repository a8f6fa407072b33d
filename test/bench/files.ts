/**
 * `npm run bench:files`: the server (a child process, SQLite, local disk store)
 * receives a 100 MB file through multipart `create` and through the direct flow
 * (sign, PUT, complete), while its resident memory is sampled from /proc every
 * 25 ms: the growth over the idle server must stay under 64 MB (streaming, no
 * whole-file buffer). Then a 20 MP JPEG with EXIF is completed (sniff, size,
 * dimensions, EXIF, thumbnail): target under 1 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { spawnServer } from '../setup/process.ts';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_FILE_MB ?? 100) * MB;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-files-'));
const server = await spawnServer('sqlite', { dataDir }, { SEED: 'fixtures', LOG_LEVEL: 'silent' });
const pid = server.child.pid!;

const rss = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

/** Samples the server's RSS while `fn` runs; returns the peak. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 25);
  try {
    const result = await fn();
    peak = Math.max(peak, rss());
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** An MP4-looking stream of `size` bytes (ftyp box, then filler), generated on the fly. */
function mp4Stream(size: number): Readable {
  const head = Buffer.alloc(24);
  head.writeUInt32BE(24, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(0x200, 12);
  head.write('isommp41', 16, 'latin1');
  const chunk = Buffer.alloc(256 * 1024, 0x5a);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const piece = sent === 0 ? Buffer.concat([head, chunk.subarray(head.length)]) : chunk;
      const n = Math.min(piece.length, size - sent);
      sent += n;
      this.push(piece.subarray(0, n));
    },
  });
}

async function api(method: string, p: string, token: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

try {
  const login = await fetch(`${server.baseUrl}/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'mechanic@skyline.test', password: 'demo1234' }),
  });
  const token = ((await login.json()) as { token: string }).token;
  const aircraft = (await api('GET', '/aircraft/index.json', token)).body;
  const aircraftId: string = (aircraft.aircraft ?? aircraft.Aircraft ?? [])[0]?.Aircraft?.id ?? 'bench';

  // Warm up both paths with a small file so code and pools are loaded before the baseline.
  const small = async () => {
    const sign = await api('POST', '/uploads/sign.json', token, {
      filename: 'w.mp4',
      mime: 'video/mp4',
      size: MB,
      model: 'Bench',
      foreign_key: 'warm',
    });
    await fetch(sign.body.url, {
      method: 'PUT',
      body: Readable.toWeb(mp4Stream(MB)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    await api('POST', `/uploads/complete/${sign.body.upload_id}.json`, token);
  };
  await small();
  await small();
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rss();

  // 1. Multipart create: the body is assembled as a stream (preamble, file, epilogue).
  const boundary = `----bench${Date.now()}`;
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const multipart = Readable.from(
    (async function* () {
      yield pre;
      for await (const c of mp4Stream(SIZE)) yield c as Buffer;
      yield post;
    })(),
  );
  const t1 = performance.now();
  const create = await peakRss(async () => {
    const res = await fetch(`${server.baseUrl}/uploads/create.json`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(pre.length + SIZE + post.length),
      },
      body: Readable.toWeb(multipart) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, body: (await res.json()) as any };
  });
  const createMs = performance.now() - t1;
  if (create.result.status !== 200 || create.result.body.file.size !== String(SIZE))
    throw new Error(`create failed: ${JSON.stringify(create.result)}`);

  // 2. Direct flow: sign, PUT the raw bytes without Authorization, complete.
  const t2 = performance.now();
  const direct = await peakRss(async () => {
    const sign = await api('POST', '/uploads/sign.json', token, {
      filename: 'big2.mp4',
      mime: 'video/mp4',
      size: SIZE,
      model: 'Aircraft',
      foreign_key: aircraftId,
    });
    const put = await fetch(sign.body.url, {
      method: 'PUT',
      body: Readable.toWeb(mp4Stream(SIZE)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    await put.arrayBuffer();
    return api('POST', `/uploads/complete/${sign.body.upload_id}.json`, token);
  });
  const directMs = performance.now() - t2;
  if (direct.result.status !== 200 || direct.result.body.file.size !== String(SIZE))
    throw new Error(`direct flow failed: ${JSON.stringify(direct.result)}`);

  // 3. A 20 MP camera JPEG with EXIF (noise, so it weighs like a photo), completed.
  const jpeg = await sharp({
    create: {
      width: 5472,
      height: 3648,
      channels: 3,
      background: { r: 120, g: 130, b: 140 },
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 88 })
    .withExif({ IFD0: { Make: 'BenchCam', Model: 'B20' } })
    .toBuffer();
  const times: number[] = [];
  let last: any = null;
  for (let i = 0; i < 3; i++) {
    const sign = await api('POST', '/uploads/sign.json', token, {
      filename: `photo${i}.jpg`,
      mime: 'image/jpeg',
      size: jpeg.length,
      model: 'Aircraft',
      foreign_key: aircraftId,
    });
    await (await fetch(sign.body.url, { method: 'PUT', body: new Uint8Array(jpeg) })).arrayBuffer();
    const t = performance.now();
    last = await api('POST', `/uploads/complete/${sign.body.upload_id}.json`, token);
    times.push(performance.now() - t);
    if (last.status !== 200) throw new Error(`jpeg complete failed: ${JSON.stringify(last.body)}`);
  }
  const view = await api('GET', `/uploads/view/${last.body.file.id}.json`, token);

  const mb = (n: number) => (n / MB).toFixed(1);
  const growthCreate = create.peak - baseline;
  const growthDirect = direct.peak - baseline;
  const best = Math.min(...times);
  const median = [...times].sort((a, b) => a - b)[1]!;
  console.log(`server RSS idle after warm-up: ${mb(baseline)} MB`);
  console.log(
    `create 100 MB multipart: ${(createMs / 1000).toFixed(2)} s, peak RSS +${mb(growthCreate)} MB (target < +64 MB) ${growthCreate < 64 * MB ? 'OK' : 'FAIL'}`,
  );
  console.log(
    `direct 100 MB sign+PUT+complete: ${(directMs / 1000).toFixed(2)} s, peak RSS +${mb(growthDirect)} MB (target < +64 MB) ${growthDirect < 64 * MB ? 'OK' : 'FAIL'}`,
  );
  console.log(
    `complete of a 20 MP JPEG (${mb(jpeg.length)} MB, ${view.body.upload.width}x${view.body.upload.height}, EXIF Make ${view.body.upload.exif?.Make}): median ${median.toFixed(0)} ms, best ${best.toFixed(0)} ms (target < 1000 ms) ${median < 1000 ? 'OK' : 'FAIL'}`,
  );
  if (growthCreate >= 64 * MB || growthDirect >= 64 * MB || median >= 1000) process.exitCode = 1;
} finally {
  await server.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
