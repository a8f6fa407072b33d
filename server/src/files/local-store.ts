import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { type FileStore, type PutOptions, type SignedUrl, type StoredObject, TooLargeError } from './store.ts';

/** Path prefix (below the API base) of the URLs the server signs for the local store. */
export const LOCAL_FILE_PATH = '/files/object';

export interface LocalGrant {
  op: 'put' | 'get';
  key: string;
  expires: number;
  filename?: string;
  contentType?: string;
  inline?: boolean;
}

/** Counts bytes through a stream and fails beyond `max`. */
export function byteLimit(max: number): Transform & { bytes: number } {
  let bytes = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      (t as Transform & { bytes: number }).bytes = bytes;
      if (bytes > max) cb(new TooLargeError(max));
      else cb(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

/**
 * Files under `<DATA_DIR>/uploads/<key>`. Direct upload and download URLs point at
 * this server (`/api/v1/files/object/<token>`), the token being the grant (operation,
 * key, expiry) signed with HMAC-SHA256, so they work without the Authorization header.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(
    dataDir: string,
    private readonly secret: () => Promise<Buffer>,
    private readonly apiBase: string,
  ) {
    this.root = path.join(dataDir, 'uploads');
  }

  private file(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error('Invalid storage key');
    return full;
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<StoredObject> {
    const target = this.file(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    // Written under a temporary name and renamed: a reader never sees half a file.
    const tmp = `${target}.${process.pid}.${Date.now()}.part`;
    const limit = byteLimit(opts.maxBytes);
    try {
      await pipeline(body, limit, fs.createWriteStream(tmp));
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return { size: limit.bytes };
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const st = await fsp.stat(this.file(key));
      return st.isFile() ? { size: st.size } : null;
    } catch {
      return null;
    }
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const fh = await fsp.open(this.file(key), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  async read(key: string): Promise<Readable> {
    const file = this.file(key);
    await fsp.access(file);
    return fs.createReadStream(file);
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.file(to);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(this.file(from), target);
    await this.pruneEmpty(path.dirname(this.file(from)));
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fsp.rm(file, { force: true });
    await this.pruneEmpty(path.dirname(file));
  }

  /** Drops the upload's folders (`<company>/<upload>/…`) once they became empty, never the company folder. */
  private async pruneEmpty(dir: string): Promise<void> {
    for (
      let d = dir, i = 0;
      i < 2 && d.startsWith(this.root + path.sep) && path.relative(this.root, d).split(path.sep).length > 1;
      i++, d = path.dirname(d)
    ) {
      if (
        !(await fsp.rmdir(d).then(
          () => true,
          () => false,
        ))
      )
        return;
    }
  }

  async signPut(key: string, seconds: number, origin: string): Promise<SignedUrl> {
    const expires = Math.floor(Date.now() / 1000) + seconds;
    return {
      url: `${origin}${this.apiBase}${LOCAL_FILE_PATH}/${await this.token({ op: 'put', key, expires })}`,
      expires,
    };
  }

  async signGet(
    key: string,
    seconds: number,
    origin: string,
    opts: { filename: string; contentType: string; inline?: boolean },
  ): Promise<SignedUrl> {
    const expires = Math.floor(Date.now() / 1000) + seconds;
    const grant: LocalGrant = {
      op: 'get',
      key,
      expires,
      filename: opts.filename,
      contentType: opts.contentType,
      ...(opts.inline ? { inline: true } : {}),
    };
    return { url: `${origin}${this.apiBase}${LOCAL_FILE_PATH}/${await this.token(grant)}`, expires };
  }

  private async token(grant: LocalGrant): Promise<string> {
    const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
    const mac = createHmac('sha256', await this.secret())
      .update(payload)
      .digest('base64url');
    return `${payload}.${mac}`;
  }

  /** The grant of a token when its signature holds and it has not expired; null otherwise. */
  async verify(token: string, now = Math.floor(Date.now() / 1000)): Promise<LocalGrant | null> {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return null;
    const expected = createHmac('sha256', await this.secret())
      .update(payload)
      .digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LocalGrant;
      if (typeof grant.key !== 'string' || typeof grant.expires !== 'number' || grant.expires < now) return null;
      if (grant.op !== 'put' && grant.op !== 'get') return null;
      return grant;
    } catch {
      return null;
    }
  }
}
