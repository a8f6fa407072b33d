import type { Readable } from 'node:stream';

/**
 * File storage behind one interface (docs/areas/uploads.md). Two implementations:
 * local disk under DATA_DIR (the server itself serves HMAC-signed, expiring URLs)
 * and S3 (presigned URLs). Keys are `<company>/<upload id>/<file name>`; a key is
 * never shared between companies.
 */
export interface StoredObject {
  size: number;
}

export interface PutOptions {
  contentType: string;
  /** Bytes the stream may carry; beyond it the write fails with `TooLargeError` and nothing is kept. */
  maxBytes: number;
}

export interface SignedUrl {
  url: string;
  /** Unix seconds. */
  expires: number;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Streams `body` into `key`; returns the size written. */
  put(key: string, body: Readable, opts: PutOptions): Promise<StoredObject>;
  /** Size of the object, null when it does not exist. */
  head(key: string): Promise<StoredObject | null>;
  /** The first `bytes` bytes (fewer when the object is shorter). */
  readStart(key: string, bytes: number): Promise<Buffer>;
  /** The whole object as a stream. */
  read(key: string): Promise<Readable>;
  /** Moves an object to another key (the direct upload's staging key to its final place). */
  move(from: string, to: string): Promise<void>;
  /** Removes the object; missing objects are fine. */
  delete(key: string): Promise<void>;
  /** A URL to PUT the raw bytes to, without Authorization and without other headers. */
  signPut(key: string, seconds: number, origin: string): Promise<SignedUrl>;
  /** A short-lived URL to GET the object with, sent as an attachment named `filename`. */
  signGet(
    key: string,
    seconds: number,
    origin: string,
    opts: { filename: string; contentType: string; inline?: boolean },
  ): Promise<SignedUrl>;
}

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`File is larger than ${limit} bytes`);
  }
}

/** Content-Disposition with an ASCII fallback and the RFC 5987 UTF-8 name. */
export function contentDisposition(filename: string, inline = false): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
