import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('authentication on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const lastCode = async (to: string) => {
    const mail = await s.ctx.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return /code is (\d{6})/.exec(mail.body_text)![1];
  };

  it('signs in with JSON and answers the CONTRACT body', async () => {
    const r = await s.api('POST', '/login.json', { body: { email: 'pilot@skyline.test', password: 'demo1234' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: true,
      user: { email: 'pilot@skyline.test', user_group_id: 190, company_id: s.refs.companies.skyline },
    });
    expect(r.body.token).toMatch(/^ses_/);
    expect(r.body.expires - Math.floor(Date.now() / 1000)).toBeGreaterThan(14 * 86400 - 60);
  });

  it('signs in with the form fields data[User][email] and data[User][password]', async () => {
    const r = await s.api('POST', '/login.json', {
      form: { 'data[User][email]': 'admin@harbor.test', 'data[User][password]': 'demo1234' },
    });
    expect(r.status).toBe(200);
    expect(r.body.user.company_id).toBe(s.refs.companies.harbor);
  });

  it('refuses a wrong password or unknown email with 401 and the spec envelope', async () => {
    const wrong = await s.api('POST', '/login.json', { body: { email: 'ops@skyline.test', password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ result: false, message: 'Invalid email or password' });
    const unknown = await s.api('POST', '/login.json', { body: { email: 'ghost@skyline.test', password: 'demo1234' } });
    expect(unknown.status).toBe(401);
  });

  it('answers 400 with field errors when email or password is missing', async () => {
    const r = await s.api('POST', '/login.json', { body: { email: 'ops@skyline.test' } });
    expect(r.status).toBe(400);
    expect(r.body.result).toBe(false);
    expect(r.body.errors.password).toBeDefined();
  });

  it('throttles repeated failures per email with 429, even with the right password then', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await s.api('POST', '/login.json', {
        body: { email: 'ground@skyline.test', password: `bad${i}` },
        headers: { 'x-forwarded-for': `10.9.0.${i}` },
      });
      expect(r.status).toBe(401);
    }
    const blocked = await s.api('POST', '/login.json', {
      body: { email: 'ground@skyline.test', password: 'demo1234' },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.result).toBe(false);
    // Another account is not affected by that email's counter.
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'headtraining@skyline.test', password: 'demo1234' } }))
        .status,
    ).toBe(200);
  });

  it('throttles repeated failures per client address across emails', async () => {
    const db = s.ctx.db;
    // 20 failures from this address (127.0.0.1) in the window: seed the counter as the login would.
    await db.deleteFrom('auth_failures').execute();
    await db
      .insertInto('auth_failures')
      .values({ key: 'ip:127.0.0.1', window_start: Math.floor(Date.now() / 1000), count: 20 })
      .execute();
    const r = await s.api('POST', '/login.json', { body: { email: 'safety@skyline.test', password: 'demo1234' } });
    expect(r.status).toBe(429);
    await db.deleteFrom('auth_failures').execute();
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'safety@skyline.test', password: 'demo1234' } })).status,
    ).toBe(200);
  });

  it('two-factor EMAIL: the auditor gets a challenge, the mailed code signs in once', async () => {
    const r = await s.api('POST', '/login.json', { body: { email: 'auditor@skyline.test', password: 'demo1234' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: false, two_factor: 'EMAIL' });
    const code = await lastCode('auditor@skyline.test');
    const wrong = await s.api('POST', '/login/verify.json', {
      body: { challenge: r.body.challenge, code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(401);
    const ok = await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ result: true, user: { user_group_id: 250 } });
    const again = await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } });
    expect(again.status).toBe(401);
  });

  it('the auditor can never leave EMAIL codes: TOTP enrolment is refused, a stored OFF or TOTP still asks for the mailed code', async () => {
    const r = await s.api('POST', '/login.json', { body: { email: 'auditor@skyline.test', password: 'demo1234' } });
    const ok = await s.api('POST', '/login/verify.json', {
      body: { challenge: r.body.challenge, code: await lastCode('auditor@skyline.test') },
    });
    const token = ok.body.token as string;
    const setup = await s.api('POST', '/users/two_factor/totp/setup.json', { token });
    expect(setup.status).toBe(400);
    expect(setup.body.result).toBe(false);
    const enable = await s.api('POST', '/users/two_factor/totp/enable.json', { token, body: { code: '123456' } });
    expect(enable.status).toBe(400);
    const id = s.userId('auditor@skyline.test');
    expect(
      (
        await s.ctx.db
          .selectFrom('users')
          .select(['two_factor', 'totp_secret'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).totp_secret,
    ).toBeNull();
    for (const stored of ['OFF', 'TOTP'] as const) {
      await s.ctx.db
        .updateTable('users')
        .set({ two_factor: stored, totp_secret: authenticator.generateSecret() })
        .where('id', '=', id)
        .execute();
      const again = await s.api('POST', '/login.json', {
        body: { email: 'auditor@skyline.test', password: 'demo1234' },
      });
      expect(again.body, stored).toMatchObject({ result: false, two_factor: 'EMAIL' });
    }
    await s.ctx.db.updateTable('users').set({ two_factor: 'EMAIL', totp_secret: null }).where('id', '=', id).execute();
  });

  it('two-factor TOTP (RFC 6238): enrol, then sign in with an authenticator code', async () => {
    const token = await s.login('instructor@skyline.test');
    const setup = await s.api('POST', '/users/two_factor/totp/setup.json', { token });
    expect(setup.status).toBe(200);
    const enable = await s.api('POST', '/users/two_factor/totp/enable.json', {
      token,
      body: { code: authenticator.generate(setup.body.secret) },
    });
    expect(enable.body).toMatchObject({ result: true, two_factor: 'TOTP' });
    const r = await s.api('POST', '/login.json', { body: { email: 'instructor@skyline.test', password: 'demo1234' } });
    expect(r.body).toMatchObject({ result: false, two_factor: 'TOTP' });
    expect(
      (await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code: '123456' } })).status,
    ).toBe(401);
    const ok = await s.api('POST', '/login/verify.json', {
      body: { challenge: r.body.challenge, code: authenticator.generate(setup.body.secret) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toMatch(/^ses_/);
  });

  it('rejects missing, unknown, expired and logged-out tokens with 401', async () => {
    expect((await s.api('GET', '/aircraft/index.json')).status).toBe(401);
    expect((await s.api('GET', '/aircraft/index.json', { token: 'ses_nope' })).body).toMatchObject({ result: false });
    const token = await s.login('dispatch@skyline.test');
    expect((await s.api('GET', '/aircraft/index.json', { token })).status).toBe(200);
    const out = await s.api('POST', '/logout.json', { token });
    expect(out.body.result).toBe(true);
    expect((await s.api('GET', '/aircraft/index.json', { token })).status).toBe(401);

    const t2 = await s.login('dispatch@skyline.test');
    await s.ctx.db
      .updateTable('sessions')
      .set({ expires: Math.floor(Date.now() / 1000) - 1 })
      .where('user_id', '=', s.userId('dispatch@skyline.test'))
      .execute();
    const expired = await s.api('GET', '/aircraft/index.json', { token: t2 });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/i);
  });

  it('switch gives a token for the other company and kills the old one', async () => {
    const token = await s.login('dual@demo.test');
    const orgs = await s.api('GET', '/users/organizations.json', { token });
    expect(Object.keys(orgs.body).sort()).toEqual([s.refs.companies.skyline, s.refs.companies.harbor].sort());
    expect(orgs.body[s.refs.companies.skyline].current).toBe(true);
    const sw = await s.api('GET', `/users/switch/${s.refs.companies.harbor}.json`, { token });
    expect(sw.status).toBe(200);
    expect(sw.body.user.company_id).toBe(s.refs.companies.harbor);
    expect((await s.api('GET', '/aircraft/index.json', { token })).status).toBe(401);
    const list = await s.api('GET', '/aircraft/index.json', { token: sw.body.token });
    expect(list.body.aircraft.map((a: any) => a.Aircraft.registration)).toEqual(['N123HA']);
    expect((await s.api('GET', '/users/switch/not-a-company.json', { token: sw.body.token })).status).toBe(404);
  });

  it('company_id at login picks one company of a multi-company login', async () => {
    const r = await s.api('POST', '/login.json', {
      body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.harbor },
    });
    expect(r.body.user.company_id).toBe(s.refs.companies.harbor);
  });

  it('a Harbor Aero Club user gets 404 for a Skyline record', async () => {
    const token = await s.login('admin@harbor.test');
    const r = await s.api('GET', `/aircraft/view/${s.refs.aircraft['EC-ABC']}.json`, { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ result: false, message: 'Aircraft not found' });
    const own = await s.api('GET', `/aircraft/view/${s.refs.aircraft.N123HA}.json`, { token });
    expect(own.status).toBe(200);
    expect(own.body.Aircraft.registration).toBe('N123HA');
    expect(own.body.Base.name).toBe('Republic');
  });
});
