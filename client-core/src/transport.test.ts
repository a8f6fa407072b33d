import { describe, expect, it } from 'vitest';
import { AuthError, HttpError, OfflineError, ResetRequired } from './errors.ts';
import { Transport } from './transport.ts';

const json = (status: number, body: unknown = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
const authOf = (init: RequestInit) => (init.headers as Record<string, string>).authorization;

const events = () => {
  const log: string[] = [];
  return {
    log,
    handlers: {
      onAnswer: () => log.push('answer'),
      onOffline: () => log.push('offline'),
      onSignInNeeded: () => log.push('signin'),
      onToken: (t: string) => log.push(`token ${t}`),
    },
  };
};

describe('Transport', () => {
  it('sends the bearer token and JSON, and marks online when the server answers', async () => {
    const seen: RequestInit[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return json(200, { ok: 1 });
    }) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x/api/v1', { token: 'ses_a' }, e.handlers, fetchImpl);
    expect(await t.post('/p', { a: 1 })).toEqual({ ok: 1 });
    expect(authOf(seen[0])).toBe('Bearer ses_a');
    expect((seen[0].headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(seen[0].body).toBe('{"a":1}');
    expect(e.log).toEqual(['answer']);
  });

  it('refreshes the token once on 401 and retries', async () => {
    const tokens: string[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      tokens.push(authOf(init));
      return json(authOf(init) === 'Bearer ses_new' ? 200 : 401, { result: false });
    }) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x', { token: 'ses_old', refresh: async () => 'ses_new' }, e.handlers, fetchImpl);
    await t.post('/p', {});
    expect(tokens).toEqual(['Bearer ses_old', 'Bearer ses_new']);
    expect(t.token).toBe('ses_new');
    expect(e.log).toContain('token ses_new');
  });

  it('shares one refresh between concurrent requests that met the same 401', async () => {
    let refreshes = 0;
    const fetchImpl = (async (_url: string, init: RequestInit) =>
      json(authOf(init) === 'Bearer ses_new' ? 200 : 401)) as unknown as typeof fetch;
    const t = new Transport(
      'http://x',
      {
        token: 'ses_old',
        refresh: async () => {
          refreshes++;
          await new Promise((r) => setTimeout(r, 10));
          return 'ses_new';
        },
      },
      events().handlers,
      fetchImpl,
    );
    await Promise.all([t.post('/a', {}), t.post('/b', {}), t.post('/c', {})]);
    expect(refreshes).toBe(1);
  });

  it('asks for a new sign-in when refresh fails, then fails fast until a new token is set', async () => {
    let calls = 0;
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      calls++;
      return json(authOf(init) === 'Bearer ses_again' ? 200 : 401, { result: false, message: 'Session expired' });
    }) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x', { token: 'ses_old', refresh: async () => null }, e.handlers, fetchImpl);
    await expect(t.post('/p', {})).rejects.toBeInstanceOf(AuthError);
    expect(e.log).toEqual(['answer', 'signin']);
    expect(t.needsSignIn).toBe(true);
    await expect(t.post('/p', {})).rejects.toBeInstanceOf(AuthError);
    expect(calls).toBe(1);
    const woken = t.tokenChanged();
    t.setToken('ses_again');
    await woken;
    expect(t.needsSignIn).toBe(false);
    expect(await t.post('/p', {})).toMatchObject({ result: false });
  });

  it('reports offline when nothing answers, or when something else answers (captive portal)', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const e = events();
    await expect(new Transport('http://x', { token: 't' }, e.handlers, down).post('/p', {})).rejects.toBeInstanceOf(
      OfflineError,
    );
    expect(e.log).toEqual(['offline']);

    const portal = (async () =>
      new Response('<html>Welcome to Hangar Wi-Fi</html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      })) as unknown as typeof fetch;
    const p = events();
    await expect(new Transport('http://x', { token: 't' }, p.handlers, portal).post('/p', {})).rejects.toThrow(
      /captive portal/,
    );
    expect(p.log).toEqual(['offline']);
  });

  it('reports offline when the server does not answer in time', async () => {
    const hang = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x', { token: 't' }, e.handlers, hang, 30);
    await expect(t.post('/p', {})).rejects.toThrow(/no answer within 30 ms/);
    expect(e.log).toEqual(['offline']);
  });

  it('types 410 as ResetRequired and other statuses as HttpError with the body', async () => {
    let status = 410;
    const fetchImpl = (async () => json(status, { result: false, message: 'Nope' })) as unknown as typeof fetch;
    const t = new Transport('http://x', { token: 't' }, events().handlers, fetchImpl);
    await expect(t.post('/p', {})).rejects.toBeInstanceOf(ResetRequired);
    status = 404;
    const err = await t.post('/p', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 404, body: { message: 'Nope' }, name: 'HttpError' });
  });
});
