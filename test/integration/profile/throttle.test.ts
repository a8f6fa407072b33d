import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** Password checks of signed-in calls (password and email change, news signing) count against the sign-in throttle. */
describe.each(DIALECTS)('own-password checks share the sign-in throttle on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('five wrong passwords across endpoints lock the login out with 429, even with the right one next', async () => {
    const token = await s.login('pilot@skyline.test');
    const ops = await s.login('ops@skyline.test');
    const article = await s.api('POST', '/manager/news/news/edit.json', {
      token: ops,
      body: { News: { name: 'Read me', sign: true } },
    });
    expect(article.status).toBe(200);
    const password = (current: string) =>
      s.api('POST', '/users/password.json', {
        token,
        body: { password: current, newpassword: 'brand-new-pass', newpasswordrepeat: 'brand-new-pass' },
      });
    const email = (current: string) =>
      s.api('POST', '/users/email.json', {
        token,
        body: { new_email: 'paula@else.test', new_email_repeat: 'paula@else.test', password: current },
      });
    const sign = (current: string) =>
      s.api('POST', `/news/news/sign/${article.body.id}.json`, { token, body: { password: current } });

    expect((await password('wrong-1')).status).toBe(400);
    expect((await password('wrong-2')).status).toBe(400);
    expect((await email('wrong-3')).status).toBe(404);
    expect((await email('wrong-4')).status).toBe(404);
    expect((await sign('wrong-5')).status).toBe(400);

    for (const r of [await password('demo1234'), await email('demo1234'), await sign('demo1234')]) {
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ result: false, retry_after: expect.any(Number) });
    }
    // Nothing changed, and signing in with the right password is refused too.
    expect(
      await s.ctx.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', s.userId('pilot@skyline.test'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ email: 'pilot@skyline.test' });
    expect(await s.ctx.db.selectFrom('news_signatures').select('id').execute()).toEqual([]);
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'pilot@skyline.test', password: 'demo1234' } })).status,
    ).toBe(429);
    // Another login is not affected.
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'mechanic@skyline.test', password: 'demo1234' } })).status,
    ).toBe(200);
  });
});
