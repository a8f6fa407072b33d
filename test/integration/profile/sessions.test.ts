import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('own sessions and password on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const loginFull = async (email: string, password = 'demo1234', headers: Record<string, string> = {}) => {
    const r = await s.api('POST', '/login.json', { body: { email, password }, headers });
    expect(r.status).toBe(200);
    return r.body.token as string;
  };

  it('logins lists sign-ins, open sessions and the presenting one', async () => {
    const laptop = await loginFull('instructor@skyline.test', 'demo1234', { 'user-agent': 'laptop' });
    const phone = await loginFull('instructor@skyline.test', 'demo1234', { 'user-agent': 'phone' });
    const r = await s.api('GET', '/users/logins.json', { token: phone });
    expect(r.status).toBe(200);
    expect(r.body.sessions.length).toBe(2);
    expect(r.body.logins.length).toBe(2);
    expect(r.body.logins[0]).toMatchObject({
      method: 'password',
      user_agent: expect.any(String),
      created: expect.any(Number),
    });
    const current = r.body.sessions.find((x: any) => x.current);
    expect(current.id).toBe(r.body.currentSession);
    expect(current.user_agent).toBe('phone');
    const other = r.body.sessions.find((x: any) => !x.current);
    expect(other.user_agent).toBe('laptop');
    expect((await s.api('GET', '/users/logins.json', { token: laptop })).body.currentSession).toBe(other.id);
    // Another person's history is not there.
    const mine = await s.api('GET', '/users/logins.json', { token: await loginFull('admin@harbor.test') });
    expect(mine.body.sessions.map((x: any) => x.id)).not.toContain(other.id);
  });

  it('closesession ends one of the caller’s sessions; others are 404', async () => {
    const a = await loginFull('headtraining@skyline.test');
    const b = await loginFull('headtraining@skyline.test');
    const sessions = (await s.api('GET', '/users/logins.json', { token: a })).body;
    const bId = sessions.sessions.find((x: any) => !x.current).id;
    const foreign = await loginFull('admin@harbor.test');
    expect((await s.api('POST', `/users/closesession/${bId}.json`, { token: foreign })).status).toBe(404);
    expect((await s.api('GET', '/users/view.json', { token: b })).status).toBe(200);
    const r = await s.api('POST', `/users/closesession/${bId}.json`, { token: a });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, id: bId, current: false });
    expect((await s.api('GET', '/users/view.json', { token: b })).status).toBe(401);
    expect((await s.api('POST', `/users/closesession/${bId}.json`, { token: a })).status).toBe(404);
    expect((await s.api('POST', '/users/closesession/unknown.json', { token: a })).status).toBe(404);
    const own = await s.api('POST', `/users/closesession/${sessions.currentSession}.json`, { token: a });
    expect(own.body).toMatchObject({ result: true, current: true });
    expect((await s.api('GET', '/users/view.json', { token: a })).status).toBe(401);
  });

  describe('password change', () => {
    const change = (token: string, body: unknown) => s.api('POST', '/users/password.json', { token, body });

    it('validates every field; a wrong current password is refused; nothing changes', async () => {
      const t = await loginFull('dispatch@skyline.test');
      const hash = async () =>
        (
          await s.ctx.db
            .selectFrom('identities')
            .select('password_hash')
            .where('email', '=', 'dispatch@skyline.test')
            .executeTakeFirstOrThrow()
        ).password_hash;
      const before = await hash();
      const cases: Array<[unknown, string]> = [
        [{ newpassword: 'longenough1', newpasswordrepeat: 'longenough1' }, 'password'],
        [{ password: 'demo1234', newpasswordrepeat: 'longenough1' }, 'newpassword'],
        [{ password: 'demo1234', newpassword: 'longenough1' }, 'newpasswordrepeat'],
        [{ password: 'demo1234', newpassword: 'short', newpasswordrepeat: 'short' }, 'newpassword'],
        [{ password: 'demo1234', newpassword: 'longenough1', newpasswordrepeat: 'longenough2' }, 'newpasswordrepeat'],
        [{ password: 'demo1234', newpassword: 'demo1234', newpasswordrepeat: 'demo1234' }, 'newpassword'],
      ];
      for (const [body, field] of cases) {
        const r = await change(t, body);
        expect(r.status, field).toBe(400);
        expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
      }
      const wrong = await change(t, {
        password: 'not-it',
        newpassword: 'longenough1',
        newpasswordrepeat: 'longenough1',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors.password).toEqual(['Wrong current password']);
      expect(await hash()).toBe(before);
    });

    it('stores an argon2id hash and ends the other sessions of the login', async () => {
      const keep = await loginFull('dispatch@skyline.test');
      const other = await loginFull('dispatch@skyline.test');
      const r = await change(keep, {
        password: 'demo1234',
        newpassword: 'correct horse battery',
        newpasswordrepeat: 'correct horse battery',
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: true, message: 'Password changed', sessions_closed: expect.any(Number) });
      expect(r.body.sessions_closed).toBeGreaterThanOrEqual(1);
      const hash = (
        await s.ctx.db
          .selectFrom('identities')
          .select('password_hash')
          .where('email', '=', 'dispatch@skyline.test')
          .executeTakeFirstOrThrow()
      ).password_hash;
      expect(hash.startsWith('$argon2id$')).toBe(true);
      expect((await s.api('GET', '/users/view.json', { token: keep })).status).toBe(200);
      expect((await s.api('GET', '/users/view.json', { token: other })).status).toBe(401);
      expect(
        (await s.api('POST', '/login.json', { body: { email: 'dispatch@skyline.test', password: 'demo1234' } })).status,
      ).toBe(401);
      expect(
        (
          await s.api('POST', '/login.json', {
            body: { email: 'dispatch@skyline.test', password: 'correct horse battery' },
          })
        ).status,
      ).toBe(200);
    });
  });
});
