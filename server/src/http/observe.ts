import type { NextFunction, Request, Response } from 'express';

/** One finished API response, as the contract test sees it. */
export interface ObservedResponse {
  dialect: string;
  method: string;
  /** The matched route's path (`req.routePattern`), null when no route matched. */
  pattern: string | null;
  path: string;
  status: number;
  contentType: string | null;
  location: string | null;
  /** Parsed JSON body; undefined when the answer is not JSON (files, streams) or too large to keep. */
  body: unknown;
}

type Observer = (r: ObservedResponse) => void;
let observer: Observer | null = null;

/**
 * Installs a process-wide observer of API responses (test servers only: test/setup/contract.ts).
 * Apps created afterwards report every response under the API base to it; production never sets one.
 */
export function observeResponses(fn: Observer | null): void {
  observer = fn;
}

const MAX_CAPTURE = 16 * 1024 * 1024;

/** Middleware that copies JSON bodies as they are written and reports each response when it finishes. */
export function observerMiddleware(
  dialect: string,
): ((req: Request, res: Response, next: NextFunction) => void) | null {
  const fn = observer;
  if (!fn) return null;
  return (req, res, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const isJson = () => /\bjson\b/i.test(String(res.getHeader('content-type') ?? ''));
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === 'function' || size > MAX_CAPTURE || !isJson()) return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buf.length;
      chunks.push(buf);
    };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => Response;
    res.write = ((...a: unknown[]) => {
      keep(a[0], a[1]);
      return write(...a);
    }) as Response['write'];
    res.end = ((...a: unknown[]) => {
      keep(a[0], a[1]);
      return end(...a);
    }) as Response['end'];
    res.on('finish', () => {
      let body: unknown;
      if (isJson() && size <= MAX_CAPTURE && req.method !== 'HEAD') {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = Symbol.for('unparsable');
        }
      }
      fn({
        dialect,
        method: req.method,
        pattern: req.routePattern ?? null,
        path: req.originalUrl.split('?')[0] ?? '',
        status: res.statusCode,
        contentType: (res.getHeader('content-type') as string | undefined) ?? null,
        location: (res.getHeader('location') as string | undefined) ?? null,
        body,
      });
    });
    next();
  };
}
