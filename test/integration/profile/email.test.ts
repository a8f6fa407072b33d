import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { startSmtpSink } from '../mail/smtp-sink.ts';

describe.each(DIALECTS)('POST /users/email.json on %s', (dialect) => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const change = (token: string, body: unknown) => s.api('POST', '/users/email.json', { token, body });
  const account = (id: string) =>
    s.ctx.db
      .selectFrom('users')
      .select(['email', 'email_status', 'identity_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const tokenOf = (text: string) => /\/confirm\/([\w-]+)/.exec(text)![1];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    s = await startTestServer(dialect, { env: { SMTP_URL: smtp.smtpUrl } });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('400 for a missing field, an invalid, unchanged or mismatched address; 404 for a wrong password; nothing changes', async () => {
    const t = await s.login('pilot@skyline.test');
    const ok = { new_email: 'paula@new.test', new_email_repeat: 'paula@new.test', password: 'demo1234' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...ok, new_email: undefined }, 'new_email'],
      [{ ...ok, new_email_repeat: undefined }, 'new_email_repeat'],
      [{ ...ok, password: undefined }, 'password'],
      [{ ...ok, password: '' }, 'password'],
      [{ ...ok, new_email: 'not an address', new_email_repeat: 'not an address' }, 'new_email'],
      [{ ...ok, new_email: 'PILOT@skyline.test', new_email_repeat: 'pilot@skyline.test' }, 'new_email'],
      [{ ...ok, new_email_repeat: 'paula@other.test' }, 'new_email_repeat'],
      [{ ...ok, new_email: 'admin@harbor.test', new_email_repeat: 'admin@harbor.test' }, 'new_email'],
    ];
    for (const [body, field] of cases) {
      const r = await change(t, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.result).toBe(false);
      expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
    }
    const wrong = await change(t, { ...ok, password: 'nope' });
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ result: false, message: 'Wrong password' });
    expect(await account(s.userId('pilot@skyline.test'))).toMatchObject({
      email: 'pilot@skyline.test',
      email_status: 'confirmed',
    });
    expect(smtp.to('paula@new.test')).toEqual([]);
    expect((await s.api('POST', '/users/email.json', { body: ok })).status).toBe(401);
  });

  it('sets the address unconfirmed and mails a confirmation link to it over SMTP', async () => {
    const t = await s.login('pilot@skyline.test');
    const r = await change(t, {
      new_email: 'Paula.Pilot@New.test',
      new_email_repeat: 'paula.pilot@new.test',
      password: 'demo1234',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, email: 'paula.pilot@new.test', email_status: 'unconfirmed' });
    expect(await account(s.userId('pilot@skyline.test'))).toMatchObject({
      email: 'paula.pilot@new.test',
      email_status: 'unconfirmed',
    });
    const mail = await smtp.waitFor((m) => m.to.includes('paula.pilot@new.test'));
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain('paula.pilot@new.test');
    expect(smtp.to('pilot@skyline.test')).toEqual([]);
    // Until confirmed, the login still signs in with the old address.
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'pilot@skyline.test', password: 'demo1234' } })).status,
    ).toBe(200);
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'paula.pilot@new.test', password: 'demo1234' } })).status,
    ).toBe(401);
    const view = await s.api('GET', '/users/view.json', { token: t });
    expect(view.body.User).toMatchObject({ email: 'paula.pilot@new.test', email_status: 'unconfirmed' });
  });

  it('the mailed link confirms the address and moves the login to it, once', async () => {
    const t = await s.login('pilot@skyline.test');
    const mail = smtp.to('paula.pilot@new.test')[0];
    const token = tokenOf(mail.text);
    const stranger = await s.login('mechanic@skyline.test');
    expect((await s.api('POST', '/users/confirm_email.json', { token: stranger, body: { token } })).status).toBe(404);
    expect(
      (await s.api('POST', '/users/confirm_email.json', { token: t, body: { token: 'x'.repeat(43) } })).status,
    ).toBe(404);
    const r = await s.api('POST', '/users/confirm_email.json', { token: t, body: { token } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, email_status: 'confirmed' });
    expect(await account(s.userId('pilot@skyline.test'))).toMatchObject({
      email: 'paula.pilot@new.test',
      email_status: 'confirmed',
    });
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'paula.pilot@new.test', password: 'demo1234' } })).status,
    ).toBe(200);
    expect(
      (await s.api('POST', '/login.json', { body: { email: 'pilot@skyline.test', password: 'demo1234' } })).status,
    ).toBe(401);
    expect((await s.api('POST', '/users/confirm_email.json', { token: t, body: { token } })).status).toBe(400);
  });

  it('a login shared with another company: only this company’s account changes', async () => {
    const sky = (
      await s.api('POST', '/login.json', {
        body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.skyline },
      })
    ).body.token;
    const r = await change(sky, {
      new_email: 'dana@new.test',
      new_email_repeat: 'dana@new.test',
      password: 'demo1234',
    });
    expect(r.status).toBe(200);
    expect(await account(s.userId('dual@demo.test', 'harbor'))).toMatchObject({
      email: 'dual@demo.test',
      email_status: 'confirmed',
    });
    const token = tokenOf((await smtp.waitFor((m) => m.to.includes('dana@new.test'))).text);
    expect((await s.api('POST', '/users/confirm_email.json', { token: sky, body: { token } })).status).toBe(200);
    // The Skyline account now has its own login; the Harbor one keeps the old address and login.
    const skyAccount = await account(s.userId('dual@demo.test'));
    const harborAccount = await account(s.userId('dual@demo.test', 'harbor'));
    expect(skyAccount.identity_id).not.toBe(harborAccount.identity_id);
    const newLogin = await s.api('POST', '/login.json', { body: { email: 'dana@new.test', password: 'demo1234' } });
    expect(newLogin.body.user.company_id).toBe(s.refs.companies.skyline);
    const oldLogin = await s.api('POST', '/login.json', { body: { email: 'dual@demo.test', password: 'demo1234' } });
    expect(oldLogin.body.user.company_id).toBe(s.refs.companies.harbor);
  });

  it('500 when the new address cannot be saved; the account keeps its address and no mail goes', async () => {
    const t = await s.login('instructor@skyline.test');
    // Break the write: the confirmation token cannot be stored, so the transaction fails.
    await sql`alter table email_tokens rename to email_tokens_off`.execute(s.ctx.db);
    try {
      const r = await change(t, {
        new_email: 'ivan@new.test',
        new_email_repeat: 'ivan@new.test',
        password: 'demo1234',
      });
      expect(r.status).toBe(500);
      expect(r.body).toMatchObject({ result: false, message: expect.any(String) });
    } finally {
      await sql`alter table email_tokens_off rename to email_tokens`.execute(s.ctx.db);
    }
    expect(await account(s.userId('instructor@skyline.test'))).toMatchObject({
      email: 'instructor@skyline.test',
      email_status: 'confirmed',
    });
    await new Promise((res) => setTimeout(res, 200));
    expect(smtp.to('ivan@new.test')).toEqual([]);
  });
});
