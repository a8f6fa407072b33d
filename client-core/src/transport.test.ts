import { describe, expect, it } from 'vitest';
import { AuthError, OfflineError } from './errors.ts';
import { Transport } from './transport.ts';

const events = () => {
  const log: string[] = [];
  return { log, handlers: { onAnswer: () => log.push('answer'), onOffline: () => log.push('offline'), onSignInNeeded: () => log.push('signin') } };
};

describe('Transport', () => {
  it('sends the bearer token and marks online when the server answers', async () => {
    const seen: string[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      seen.push((init.headers as Record<string, string>).authorization);
      return new Response(JSON.stringify({ ok: 1 }), { status: 200 });
    }) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x/api/v1', { token: 'ses_a' }, e.handlers, fetchImpl);
    expect(await t.post('/p', {})).toEqual({ ok: 1 });
    expect(seen).toEqual(['Bearer ses_a']);
    expect(e.log).toEqual(['answer']);
  });

  it('refreshes the token once on 401 and retries', async () => {
    const tokens: string[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).authorization;
      tokens.push(auth);
      return new Response('{}', { status: auth === 'Bearer ses_new' ? 200 : 401 });
    }) as unknown as typeof fetch;
    const t = new Transport('http://x', { token: 'ses_old', refresh: async () => 'ses_new' }, events().handlers, fetchImpl);
    await t.post('/p', {});
    expect(tokens).toEqual(['Bearer ses_old', 'Bearer ses_new']);
    expect(t.token).toBe('ses_new');
  });

  it('asks for a new sign-in when refresh fails, without dropping anything locally', async () => {
    const fetchImpl = (async () => new Response('{}', { status: 401 })) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x', { token: 'ses_old', refresh: async () => null }, e.handlers, fetchImpl);
    await expect(t.post('/p', {})).rejects.toBeInstanceOf(AuthError);
    expect(e.log).toContain('signin');
  });

  it('reports offline when nothing answers', async () => {
    const fetchImpl = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const e = events();
    const t = new Transport('http://x', { token: 't' }, e.handlers, fetchImpl);
    await expect(t.post('/p', {})).rejects.toBeInstanceOf(OfflineError);
    expect(e.log).toEqual(['offline']);
  });
});
