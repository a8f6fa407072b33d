/**
 * Typed failures of the transport. Each sets `name`, because RxDB turns the
 * errors of a pull or push handler into plain JSON (`error$` carries
 * `parameters.errors[].name`), so `instanceof` only works before that.
 */

/** 401 that a token refresh could not fix: the person must sign in again (local writes stay queued). */
export class AuthError extends Error {
  override name = 'AuthError';
}

/** 410: the checkpoint is older than the server's tombstones; that collection starts over from `null`. */
export class ResetRequired extends Error {
  override name = 'ResetRequired';
}

/** No answer from the server (network down, hangar Wi-Fi without a route, server stopped). */
export class OfflineError extends Error {
  override name = 'OfflineError';
}

/** The server answered with another error status; `body` is its JSON (`{ result: false, message }`) or text. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** The server's `Retry-After` in milliseconds (a busy server's 503), or null. */
    readonly retryAfterMs: number | null = null,
  ) {
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : '';
    super(message ? `HTTP ${status}: ${message}` : `HTTP ${status}`);
  }
}
