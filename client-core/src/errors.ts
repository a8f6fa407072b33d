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

/**
 * What a sync failure means for the person, so the app says it in a sentence
 * of their language (the technical message stays in `lastError`): the server
 * did not answer, the sign-in must be renewed, the server is busy or failed,
 * it refused, this app and the server are different versions, or this device
 * could not do its part (its storage, or an answer it could not read).
 */
export type SyncProblemKind = 'offline' | 'signIn' | 'busy' | 'server' | 'refused' | 'version' | 'device';

/** The kind of an HTTP status the server answered a sync request with. */
export function problemOfStatus(status: number | undefined): SyncProblemKind {
  if (status === 401) return 'signIn';
  if (status === 429 || status === 503) return 'busy';
  if (status === undefined || status >= 500) return 'server';
  return 'refused';
}

/** The handler's error inside an RxDB error: its plain JSON copy (`parameters.errors[0]`, a name and a message). */
export function rxdbCause(e: unknown): { name?: string; message?: string } | undefined {
  return (e as { parameters?: { errors?: Array<{ name?: string; message?: string }> } } | null)?.parameters
    ?.errors?.[0];
}

/** The kind of a failure: one of the errors above, or its copy inside an RxDB error (no status field there). */
export function problemOf(e: unknown): SyncProblemKind {
  if (e instanceof HttpError) return problemOfStatus(e.status);
  const cause = rxdbCause(e);
  const name = cause?.name ?? (e instanceof Error ? e.name : undefined);
  if (name === 'AuthError') return 'signIn';
  if (name === 'OfflineError') return 'offline';
  if (name === 'HttpError') {
    const status = /^HTTP (\d{3})/.exec(cause?.message ?? '')?.[1];
    return problemOfStatus(status === undefined ? undefined : Number(status));
  }
  // An answer cut or garbled on its way (a line that does not parse): the server's side, retried.
  if (name === 'SyntaxError') return 'server';
  return 'device';
}
