import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { startSmtpSink } from '../mail/smtp-sink.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe.each(DIALECTS)('POST /pilots/reminder.json on %s', (dialect) => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: string;
  const remind = (user: unknown, token: string | null = admin) =>
    s.api('POST', '/pilots/reminder.json', { token, body: user === undefined ? {} : { user } });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    s = await startTestServer(dialect, { env: { SMTP_URL: smtp.smtpUrl } });
    admin = await s.login('admin@skyline.test');
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('needs credentials and a pilot administrator (1, 100, 105, 110, 120, 150)', async () => {
    expect((await remind(s.userId('pilot@skyline.test'), null)).status).toBe(401);
    for (const t of [
      await s.login('pilot@skyline.test'),
      await s.login('ground@skyline.test'),
      await s.login('auditor@skyline.test'),
    ]) {
      expect((await remind(s.userId('pilot@skyline.test'), t)).status).toBe(403);
    }
    expect(smtp.to('pilot@skyline.test')).toEqual([]);
  });

  it('400 without a user, without an email or for an inactive account; 404 for another company', async () => {
    expect((await remind(undefined)).status).toBe(400);
    expect((await remind('')).status).toBe(400);
    const noEmail = await s.api('POST', '/manager/users/create.json', {
      token: admin,
      body: { UserDetail: { name: 'No', surname: 'Mail' } },
    });
    const r = await remind(noEmail.body.id);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/no email/);
    const inactive = await s.api('POST', '/manager/users/create.json', {
      token: admin,
      body: { User: { email: 'sleepy@skyline.test', active: 0 }, UserDetail: { name: 'Sleepy', surname: 'Pilot' } },
    });
    expect((await remind(inactive.body.id)).status).toBe(400);
    expect((await remind(s.userId('pilot@harbor.test', 'harbor'))).status).toBe(404);
    expect((await remind('no-such-user')).status).toBe(404);
    expect(smtp.to('sleepy@skyline.test')).toEqual([]);
  });

  it('resends the activation mail with a fresh link while the login has no password', async () => {
    const created = await s.api('POST', '/manager/users/create.json', {
      token: admin,
      body: {
        User: { email: 'rookie@skyline.test', user_group_id: 200 },
        UserDetail: { name: 'Rob', surname: 'Rookie' },
      },
    });
    expect(created.status).toBe(200);
    const first = await smtp.waitFor((m) => m.to.includes('rookie@skyline.test'));
    const firstToken = /\/activate\/([\w-]+)/.exec(first.text)![1];
    const r = await remind(created.body.id, await s.login('instructor@skyline.test'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, mail: 'activation' });
    const again = await smtp.waitFor((m) => m.to.includes('rookie@skyline.test') && m.subject.startsWith('Reminder'));
    expect(again.subject).toBe('Reminder: activate your account at Skyline Flight Academy');
    const secondToken = /\/activate\/([\w-]+)/.exec(again.text)![1];
    expect(secondToken).not.toBe(firstToken);
    const tokens = await s.ctx.db
      .selectFrom('email_tokens')
      .selectAll()
      .where('token_hash', 'in', [sha256(firstToken), sha256(secondToken)])
      .execute();
    const now = Math.floor(Date.now() / 1000);
    expect(tokens.find((t) => t.token_hash === sha256(firstToken))!.expires).toBeLessThanOrEqual(now);
    expect(tokens.find((t) => t.token_hash === sha256(secondToken))!.expires).toBeGreaterThan(now + 6 * 86400);
  });

  it('sends a welcome mail to a login that is already active', async () => {
    const r = await remind(s.userId('pilot@skyline.test'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, mail: 'welcome' });
    const mail = await smtp.waitFor((m) => m.to.includes('pilot@skyline.test'));
    expect(mail.subject).toBe('Welcome to Skyline Flight Academy');
    expect(mail.text).toContain('Hello Paula');
    const outbox = await s.ctx.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'pilot@skyline.test')
      .executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ status: 'sent', template: 'welcome', company_id: s.refs.companies.skyline });
  });
});
