import { retryAfterMs } from './backoff.ts';
import { AuthError, HttpError, OfflineError, ResetRequired } from './errors.ts';

export interface Credentials {
  token: string;
  /**
   * Called on a 401 (once per rejected token, shared by concurrent requests);
   * returns a new token, or null when the person must sign in again.
   */
  refresh?: () => Promise<string | null>;
}

export interface TransportEvents {
  /** The server answered (any status, in its own format): online. */
  onAnswer(): void;
  /** No answer from the server: offline. */
  onOffline(error: OfflineError): void;
  /** Credentials were refused and could not be refreshed: ask the person to sign in. */
  onSignInNeeded(): void;
  /** A refresh or `setToken` installed a new token (apps may persist it). */
  onToken?(token: string): void;
}

export interface RequestOptions extends RequestInit {
  /** Abort and report offline when the server has not answered in time (default: the transport's). */
  timeoutMs?: number;
}

/**
 * JSON over fetch with the bearer token. Online means the server answered in
 * its own format (JSON or an event stream), not that a network interface is up:
 * a captive portal's HTML page or a proxy's 502 page count as offline.
 *
 * On 401 the token is refreshed once and the request retried. When refreshing
 * fails, every request fails fast with `AuthError` (without bothering the
 * server) until `setToken` installs a new one; nothing local is dropped.
 */
export class Transport {
  private current: string;
  private refreshing: Promise<string | null> | null = null;
  private signInNeeded = false;
  private tokenWaiters: Array<() => void> = [];

  constructor(
    readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly events: TransportEvents,
    private readonly fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a),
    private readonly timeoutMs = 60_000,
  ) {
    this.current = credentials.token;
  }

  get token(): string {
    return this.current;
  }

  /** True after a 401 that refreshing could not fix, until `setToken`. */
  get needsSignIn(): boolean {
    return this.signInNeeded;
  }

  /** Installs a new token (after the person signed in again) and wakes whatever waits for one. */
  setToken(token: string): void {
    this.current = token;
    this.signInNeeded = false;
    this.events.onToken?.(token);
    const waiters = this.tokenWaiters;
    this.tokenWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves at the next `setToken` (or refresh). */
  tokenChanged(): Promise<void> {
    return new Promise((resolve) => this.tokenWaiters.push(resolve));
  }

  /** A fetch with the bearer token that refreshes it once on 401 and classifies failures. */
  async fetch(path: string, init: RequestOptions = {}): Promise<Response> {
    if (this.signInNeeded) throw new AuthError('Sign in again');
    const sent = this.current;
    let res = await this.attempt(path, init, sent);
    if (res.status !== 401) return res;
    await res.body?.cancel().catch(() => {});
    const fresh = await this.refreshedToken(sent);
    if (fresh) {
      res = await this.attempt(path, init, fresh);
      if (res.status !== 401) return res;
      await res.body?.cancel().catch(() => {});
    }
    return this.failAuth();
  }

  async post<T>(path: string, body: unknown, init: RequestOptions = {}): Promise<T> {
    const res = await this.fetch(path, {
      ...init,
      method: 'POST',
      headers: { ...headersOf(init), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return readJson<T>(res, path);
  }

  async get<T>(path: string, init: RequestOptions = {}): Promise<T> {
    return readJson<T>(await this.fetch(path, { ...init, method: 'GET' }), path);
  }

  private async attempt(path: string, init: RequestOptions, token: string): Promise<Response> {
    const { timeoutMs = this.timeoutMs, ...rest } = init;
    const signals = [rest.signal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : null].filter(
      (s): s is AbortSignal => !!s,
    );
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${path}`, {
        ...rest,
        signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
        headers: { accept: 'application/json', ...headersOf(rest), authorization: `Bearer ${token}` },
      });
    } catch (err) {
      // Our own cancellation (stop, destroy) is not a network failure.
      if (rest.signal?.aborted) throw err;
      return this.offline(
        err instanceof Error && err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (err as Error).message,
      );
    }
    const type = res.headers.get('content-type') ?? '';
    if (!/json|event-stream/i.test(type)) {
      await res.body?.cancel().catch(() => {});
      return this.offline(
        `unexpected answer (HTTP ${res.status}${type ? `, ${type.split(';')[0]}` : ''}): not the server (captive portal or proxy?)`,
      );
    }
    this.events.onAnswer();
    return res;
  }

  private offline(message: string): never {
    const error = new OfflineError(message);
    this.events.onOffline(error);
    throw error;
  }

  /** One refresh per rejected token, shared by every request that met the 401. */
  private async refreshedToken(rejected: string): Promise<string | null> {
    if (this.current !== rejected) return this.current;
    if (!this.credentials.refresh) return null;
    if (!this.refreshing) {
      const refresh = this.credentials.refresh;
      this.refreshing = (async () => {
        try {
          const fresh = await refresh();
          if (fresh) this.setToken(fresh);
          return fresh || null;
        } catch {
          return null;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }

  private failAuth(): never {
    if (!this.signInNeeded) {
      this.signInNeeded = true;
      this.events.onSignInNeeded();
    }
    throw new AuthError('Sign in again');
  }
}

function headersOf(init: RequestInit): Record<string, string> {
  const h = init.headers;
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  if (Array.isArray(h)) return Object.fromEntries(h);
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));
}

/** The JSON body of a 2xx answer; 410 → `ResetRequired`, other statuses → `HttpError`. */
export async function readJson<T>(res: Response, path = ''): Promise<T> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // keep the text for the error
  }
  if (res.status === 410) throw new ResetRequired(`${path}: checkpoint too old, start over`);
  if (!res.ok) throw new HttpError(res.status, parsed, retryAfterMs(res.headers.get('retry-after')));
  return parsed as T;
}
