import type { z } from 'zod';

/** An error that becomes a JSON response with the spec's envelope (`result: false`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    /** Response headers that go with it (e.g. `Retry-After` on a 503). */
    readonly headers: Record<string, string> = {},
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
export function validationFailed(
  errors: FieldErrors,
  key: 'errors' | 'validation' = 'errors',
  message = 'Validation failed',
) {
  return new HttpError(400, { result: false, message, [key]: errors });
}

/** One line naming each field error: the spec's `message` holding field errors. */
export function errorsMessage(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([k, v]) => `${k}: ${v.join(', ')}`)
    .join('; ');
}

/** 400 `{result: false, message: "<field errors>", errors}`. */
export function invalid(errors: FieldErrors): HttpError {
  return new HttpError(400, { result: false, message: errorsMessage(errors), errors });
}

export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(zodFieldErrors(r.error));
  return r.data;
}

/** Adds a message to a field's error list. */
export function addError(errors: FieldErrors, key: string, message: string): void {
  const list = errors[key] ?? [];
  list.push(message);
  errors[key] = list;
}

/** Merges field errors under a key prefix (`MelItem.`, `InventoryUnit.`...). */
export function mergeErrors(errors: FieldErrors, prefix: string, more: FieldErrors): void {
  for (const [k, v] of Object.entries(more)) for (const m of v) addError(errors, prefix + k, m);
}
