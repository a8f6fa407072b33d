import type { z } from 'zod';

/** An error that becomes a JSON response with the spec's envelope (`result: false`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export const badRequest = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, { result: false, message, ...extra });
export const unauthorized = (message = 'Authentication required') => new HttpError(401, { result: false, message });
export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, { result: false, message });
export const notFound = (message = 'Not found') => new HttpError(404, { result: false, message });
export const tooManyRequests = (message: string, retryAfter: number) =>
  new HttpError(429, { result: false, message, retry_after: retryAfter });

/** Field errors keyed by dotted path, each a list of messages (the spec's `errors`/`validation`). */
export type FieldErrors = Record<string, string[]>;

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const list = out[key] ?? [];
    list.push(issue.message);
    out[key] = list;
  }
  return out;
}

/** Validation failure: 400 with `result: false`, a message and the field errors under `key`. */
export function validationFailed(errors: FieldErrors, key: 'errors' | 'validation' = 'errors', message = 'Validation failed') {
  return new HttpError(400, { result: false, message, [key]: errors });
}
