import { AuthError, HttpError, OfflineError, ResetRequired } from './errors.ts';

export interface Credentials {
  token: string;
  /** Called once on a 401; returns a new token, or null when the person must sign in again. */
  refresh?: () => Promise<string | null>;
}

export interface TransportEvents {
  /** The server answered (any HTTP status): online. */
  onAnswer(): void;
  /** No answer: offline. */
  onOffline(error: Error): void;
  /** Credentials were refused and could not be refreshed. */
  onSignInNeeded(): void;
}

/**
 * JSON over fetch with the bearer token. Online means the server answered, not
 * that a network interface is up.
 */
export class Transport {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly events: TransportEvents,
    private readonly fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a),
  ) {}

  get token(): string {
    return this.credentials.token;
  }

  /** A fetch that refreshes the token once on 401 and classifies failures. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const attempt = async () => {
      try {
        const res = await this.fetchImpl(`${this.baseUrl}${path}`, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${this.credentials.token}` },
        });
        this.events.onAnswer();
        return res;
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        const offline = new OfflineError((err as Error).message);
        this.events.onOffline(offline);
        throw offline;
      }
    };
    let res = await attempt();
    if (res.status === 401) {
      const fresh = this.credentials.refresh ? await this.credentials.refresh().catch(() => null) : null;
      if (!fresh) {
        this.events.onSignInNeeded();
        throw new AuthError('Sign in again');
      }
      this.credentials.token = fresh;
      res = await attempt();
      if (res.status === 401) {
        this.events.onSignInNeeded();
        throw new AuthError('Sign in again');
      }
    }
    return res;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const res = await this.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const parsed: unknown = await res.json().catch(() => null);
    if (res.status === 410) throw new ResetRequired(path);
    if (!res.ok) throw new HttpError(res.status, parsed);
    return parsed as T;
  }
}
