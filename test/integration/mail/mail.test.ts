import net from 'node:net';
import { renderTemplate } from '@ops/server/mail/templates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { startSmtpSink } from './smtp-sink.ts';

const outboxOf = (s: TestServer, to: string) =>
  s.ctx.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created')
    .orderBy('id')
    .execute();

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('mail templates', () => {
  it('fill the data, keep plain text as written and escape it in HTML', () => {
    const m = renderTemplate('welcome', {
      name: '<Ana & "Co">',
      company: 'Skyline',
      email: 'ana@skyline.test',
      appUrl: 'https://ops.example',
    });
    expect(m.subject).toBe('Welcome to Skyline');
    expect(m.text).toContain('Hello <Ana & "Co">,');
    expect(m.html).toContain('Hello &lt;Ana &amp; &quot;Co&quot;&gt;,');
    expect(m.html).not.toContain('<Ana');
    expect(
      renderTemplate('confirm', { name: 'A', email: 'a@b.c', token: 'T0K', appUrl: 'https://ops.example' }).text,
    ).toContain('https://ops.example/confirm/T0K');
  });

  it('name the Part A 6 messages: confirmation, welcome, activation, staff confirmation, reminder, sign-in code', () => {
    const data = {
      name: 'Ana',
      company: 'Skyline',
      email: 'ana@skyline.test',
      token: 'T0K',
      code: '123456',
      appUrl: 'https://ops.example',
    };
    expect(renderTemplate('confirm', data).subject).toBe('Confirm your email address');
    expect(renderTemplate('welcome', data).text).toContain('Sign in at https://ops.example with ana@skyline.test');
    expect(renderTemplate('activation', data)).toMatchObject({
      subject: 'Activate your account at Skyline',
      text: expect.stringContaining('https://ops.example/activate/T0K'),
    });
    expect(renderTemplate('reminder', data).text).toContain('https://ops.example/activate/T0K');
    expect(renderTemplate('two_factor_code', data).text).toContain('Your sign-in code is 123456');
    // The staff confirmation links the confirmation page, or the activation page when the login has no password yet.
    expect(renderTemplate('staff_confirm', data).text).toContain('https://ops.example/confirm/T0K');
    expect(renderTemplate('staff_confirm', { ...data, page: 'activate' }).text).toContain(
      'https://ops.example/activate/T0K',
    );
    // No placeholder is ever left in a rendered mail.
    for (const t of ['confirm', 'welcome', 'activation', 'staff_confirm', 'reminder', 'two_factor_code'] as const) {
      const m = renderTemplate(t, data);
      expect(`${m.subject} ${m.text}`, t).not.toMatch(/\{\w+\}/);
    }
  });
});

describe.each(DIALECTS)('mail delivery on %s', (dialect) => {
  describe('with SMTP_URL', () => {
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
    beforeAll(async () => {
      smtp = await startSmtpSink();
      s = await startTestServer(dialect, { env: { SMTP_URL: smtp.smtpUrl, MAIL_FROM: 'Ops Test <ops@example.test>' } });
    });
    afterAll(async () => {
      await s?.close();
      await smtp?.close();
    });

    it('sends through SMTP and records the mail as sent in the outbox', async () => {
      const r = await s.api('POST', '/login.json', { body: { email: 'auditor@skyline.test', password: 'demo1234' } });
      expect(r.body.two_factor).toBe('EMAIL');
      const mail = await smtp.waitFor((m) => m.to.includes('auditor@skyline.test'));
      expect(mail.from).toBe('ops@example.test');
      expect(mail.subject).toBe('Your sign-in code');
      const code = /code is (\d{6})/.exec(mail.text)![1];
      const [row] = await outboxOf(s, 'auditor@skyline.test');
      expect(row).toMatchObject({
        status: 'sent',
        template: 'two_factor_code',
        subject: 'Your sign-in code',
        company_id: s.refs.companies.skyline,
      });
      expect(row.sent_at).toBeGreaterThan(0);
      expect((await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } })).status).toBe(
        200,
      );
    });
  });

  describe('without SMTP_URL', () => {
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
    beforeAll(async () => {
      smtp = await startSmtpSink();
      s = await startTestServer(dialect);
    });
    afterAll(async () => {
      await s?.close();
      await smtp?.close();
    });

    it('keeps mail in the database outbox and sends nothing', async () => {
      const r = await s.api('POST', '/pilots/reminder.json', {
        token: await s.login('admin@skyline.test'),
        body: { user: s.userId('pilot@skyline.test') },
      });
      expect(r.status).toBe(200);
      const rows = await outboxOf(s, 'pilot@skyline.test');
      expect(rows.map((x) => [x.status, x.template])).toEqual([['outbox', 'welcome']]);
      expect(rows[0].body_text).toContain('Skyline Flight Academy');
      expect(rows[0].body_html).toContain('<p>Hello Paula,</p>');
      await new Promise((res) => setTimeout(res, 200));
      expect(smtp.messages).toEqual([]);
    });
  });

  describe('with an unreachable SMTP server', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(dialect, { env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
    });
    afterAll(() => s?.close());

    it('records the failure; the request itself still succeeds', async () => {
      const r = await s.api('POST', '/pilots/reminder.json', {
        token: await s.login('admin@skyline.test'),
        body: { user: s.userId('pilot@skyline.test') },
      });
      expect(r.status).toBe(200);
      const [row] = await outboxOf(s, 'pilot@skyline.test');
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    });
  });
});
