import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { byteLimit } from './local-store.ts';
import { contentDisposition, type FileStore, type PutOptions, type SignedUrl, type StoredObject } from './store.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * S3 or an S3-compatible server (MinIO, s3rver...; `S3_FORCE_PATH_STYLE` for those
 * that do not serve bucket subdomains). Direct uploads and downloads are presigned.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(
    private readonly s3: S3Settings,
    private readonly tmpDir: string,
  ) {
    this.client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: s3.forcePathStyle,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      // No flexible checksums: a presigned PUT must accept the bare bytes with no other header.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<StoredObject> {
    // PutObject needs the length up front: the stream is spooled to a temporary file
    // (constant memory whatever the size), then sent with its length.
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `put-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    try {
      const limit = byteLimit(opts.maxBytes);
      await pipeline(body, limit, fs.createWriteStream(tmp));
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.s3.bucket,
          Key: key,
          Body: fs.createReadStream(tmp),
          ContentLength: limit.bytes,
          ContentType: opts.contentType,
        }),
      );
      return { size: limit.bytes };
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return { size: Number(r.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const head = await this.head(key);
    if (!head || head.size === 0) return Buffer.alloc(0);
    const r = await this.client.send(
      new GetObjectCommand({ Bucket: this.s3.bucket, Key: key, Range: `bytes=0-${Math.min(bytes, head.size) - 1}` }),
    );
    const buf = Buffer.from(await (r.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    return buf.subarray(0, bytes);
  }

  async read(key: string): Promise<Readable> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key }));
    return r.Body as Readable;
  }

  async move(from: string, to: string): Promise<void> {
    // Server-side copy (no bytes through this process), then the staging object goes.
    const source = `${this.s3.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new CopyObjectCommand({ Bucket: this.s3.bucket, Key: to, CopySource: source }));
    await this.delete(from);
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async signPut(key: string, seconds: number): Promise<SignedUrl> {
    const url = await getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.s3.bucket, Key: key }), {
      expiresIn: seconds,
    });
    return { url, expires: Math.floor(Date.now() / 1000) + seconds };
  }

  async signGet(
    key: string,
    seconds: number,
    _origin: string,
    opts: { filename: string; contentType: string; inline?: boolean },
  ): Promise<SignedUrl> {
    const cmd = new GetObjectCommand({
      Bucket: this.s3.bucket,
      Key: key,
      ResponseContentType: opts.contentType,
      ResponseContentDisposition: contentDisposition(opts.filename, opts.inline),
    });
    const url = await getSignedUrl(this.client, cmd, { expiresIn: seconds });
    return { url, expires: Math.floor(Date.now() / 1000) + seconds };
  }
}
