import { setMessageProvider } from '@ops/server/mail/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

/** POST /users/whatsapp.json (Part A 4.8 items 5 and 8): WhatsApp is switched on with a verification code. */
describe.each(DIALECTS)('WhatsApp verification on %s', (dialect) => {
  let s: TestServer;
  const wa = (token: string | null, body: unknown) => s.api('POST', '/users/whatsapp.json', { token, body });
  const view = async (token: string) => (await s.api('GET', '/users/view.json', { token })).body.User;
  const messagesTo = (phone: string) =>
    s.ctx.db
      .selectFrom('message_outbox')
      .selectAll()
      .where('to_address', '=', phone)
      .orderBy('created')
      .orderBy('id')
      .execute();
  const lastCode = async (phone: string) => {
    const rows = await messagesTo(phone);
    return /code is (\d{6})/.exec(rows.at(-1)!.body_text)![1];
  };
  /** Lets the next code be asked for at once (the one-a-minute limit). */
  const age = (userId: string, seconds = 120) =>
    s.ctx.db
      .selectFrom('whatsapp_verifications')
      .select(['id', 'created', 'expires'])
      .where('user_id', '=', userId)
      .execute()
      .then((rows) =>
        Promise.all(
          rows.map((r) =>
            s.ctx.db
              .updateTable('whatsapp_verifications')
              .set({ created: Number(r.created) - seconds, expires: Number(r.expires) - seconds })
              .where('id', '=', r.id)
              .execute(),
          ),
        ),
      );
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await wa(null, { phone: '+34600112233' })).status).toBe(401);
  });

  it('sends a hashed, single-use code to an E.164 number and switches the login’s preference on', async () => {
    const token = await s.login('pilot@skyline.test');
    const r = await wa(token, { phone: '+34 600 11-22 33' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, phone: '+34600112233' });
    expect(r.body.expires - Math.floor(Date.now() / 1000)).toBeGreaterThan(590);
    const [msg] = await messagesTo('+34600112233');
    // No WhatsApp provider configured: the message is kept in the outbox.
    expect(msg).toMatchObject({
      channel: 'whatsapp',
      status: 'outbox',
      template: 'whatsapp_code',
      company_id: s.refs.companies.skyline,
    });
    expect(msg.body_text).toContain('Skyline');
    const code = await lastCode('+34600112233');
    const row = await s.ctx.db
      .selectFrom('whatsapp_verifications')
      .selectAll()
      .where('user_id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await view(token)).whatsapp).toBe(false);

    const ok = await wa(token, { code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ result: true, whatsapp: true, phone: '+34600112233' });
    expect((await view(token)).whatsapp).toBe(true);
    // Single use.
    const again = await wa(token, { code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      result: false,
      errors: { code: [expect.stringMatching(/No code is pending/)] },
    });
    // Switching off stays with /users/edit.json.
    expect(
      (await s.api('POST', '/users/edit.json', { token, body: { User: { whatsapp: false } } })).body.User.whatsapp,
    ).toBe(false);
  });

  it('uses the profile phone when no number is posted; form bodies work too', async () => {
    const token = await s.login('instructor@skyline.test');
    const id = s.userId('instructor@skyline.test');
    // No phone in the profile and none posted: 400.
    await s.ctx.db.updateTable('users').set({ phone: null, phonecode: null }).where('id', '=', id).execute();
    const none = await wa(token, {});
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ result: false, errors: { phone: [expect.any(String)] } });
    await s.ctx.db.updateTable('users').set({ phone: '0612 345 678', phonecode: '+31' }).where('id', '=', id).execute();
    const r = await s.api('POST', '/users/whatsapp.json', { token, form: {} });
    expect(r.status).toBe(200);
    expect(r.body.phone).toBe('+31612345678');
    const code = await lastCode('+31612345678');
    const ok = await s.api('POST', '/users/whatsapp.json', { token, form: { 'data[code]': code } });
    expect(ok.status).toBe(200);
    expect((await view(token)).whatsapp).toBe(true);
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const token = await s.login('dispatch@skyline.test');
    const before = await s.ctx.db.selectFrom('message_outbox').select('id').execute();
    for (const body of [
      { phone: '600112233' },
      { phone: '+0600112233' },
      { phone: '+34 6' },
      { phone: 'call me' },
      { phone: 12 },
      { code: '12345' },
      { code: 'abcdef' },
      { code: true },
    ]) {
      const r = await wa(token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.result, JSON.stringify(body)).toBe(false);
    }
    // A code without any pending one.
    const none = await wa(token, { code: '123456' });
    expect(none.status).toBe(400);
    expect((await s.ctx.db.selectFrom('message_outbox').select('id').execute()).length).toBe(before.length);
    expect(
      await s.ctx.db
        .selectFrom('whatsapp_verifications')
        .select('id')
        .where('user_id', '=', s.userId('dispatch@skyline.test'))
        .execute(),
    ).toEqual([]);
    expect((await view(token)).whatsapp).toBe(false);
  });

  it('a wrong code counts; the fifth voids the code; an expired code is refused', async () => {
    const token = await s.login('mechanic@skyline.test');
    const id = s.userId('mechanic@skyline.test');
    await wa(token, { phone: '+34611000001' });
    const code = await lastCode('+34611000001');
    for (let i = 1; i <= 4; i++) {
      const r = await wa(token, { code: wrong(code) });
      expect(r.status).toBe(400);
      expect(r.body.errors.code).toEqual(['Wrong code']);
    }
    const fifth = await wa(token, { code: wrong(code) });
    expect(fifth.body.errors.code[0]).toMatch(/Too many wrong codes/);
    // The right code no longer works.
    expect((await wa(token, { code })).status).toBe(400);
    expect((await view(token)).whatsapp).toBe(false);

    // Ten minutes later a code is expired.
    await age(id, 120);
    await wa(token, { phone: '+34611000001' });
    const fresh = await lastCode('+34611000001');
    await age(id, 601);
    const late = await wa(token, { code: fresh });
    expect(late.status).toBe(400);
    expect(late.body.errors.code[0]).toMatch(/expired/);
    expect((await view(token)).whatsapp).toBe(false);
  });

  it('a new code voids the older one', async () => {
    const token = await s.login('ground@skyline.test');
    const id = s.userId('ground@skyline.test');
    await wa(token, { phone: '+34611000002' });
    const first = await lastCode('+34611000002');
    await age(id);
    await wa(token, { phone: '+34611000002' });
    const second = await lastCode('+34611000002');
    if (first !== second) expect((await wa(token, { code: first })).status).toBe(400);
    expect((await wa(token, { code: second })).status).toBe(200);
  });

  it('throttles: one code a minute per account and five an hour per login (429)', async () => {
    const token = await s.login('safety@skyline.test');
    const id = s.userId('safety@skyline.test');
    expect((await wa(token, { phone: '+34611000003' })).status).toBe(200);
    const soon = await wa(token, { phone: '+34611000003' });
    expect(soon.status).toBe(429);
    expect(soon.body).toMatchObject({ result: false, retry_after: expect.any(Number) });
    for (let i = 0; i < 4; i++) {
      await age(id, 61);
      expect((await wa(token, { phone: '+34611000003' })).status).toBe(200);
    }
    await age(id, 61);
    const hour = await wa(token, { phone: '+34611000003' });
    expect(hour.status).toBe(429);
    expect((await messagesTo('+34611000003')).length).toBe(5);
  });

  it('the preference is the login’s: every company account of the email gets it; codes are per account', async () => {
    const sky = (
      await s.api('POST', '/login.json', {
        body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.skyline },
      })
    ).body.token;
    const harbor = (
      await s.api('POST', '/login.json', {
        body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.harbor },
      })
    ).body.token;
    await wa(sky, { phone: '+34611000004' });
    const code = await lastCode('+34611000004');
    // The Harbor account has no pending code: the Skyline one cannot be used there.
    expect((await wa(harbor, { code })).status).toBe(400);
    expect((await wa(sky, { code })).status).toBe(200);
    expect((await view(harbor)).whatsapp).toBe(true);
  });

  it('delivers through a configured provider and records failures without failing the request', async () => {
    const sent: Array<[string, string]> = [];
    setMessageProvider('whatsapp', { channel: 'whatsapp', send: async (to, text) => void sent.push([to, text]) });
    try {
      const token = await s.login('headtraining@skyline.test');
      expect((await wa(token, { phone: '+34611000005' })).status).toBe(200);
      expect(sent).toEqual([['+34611000005', expect.stringMatching(/code is \d{6}/)]]);
      expect((await messagesTo('+34611000005'))[0]).toMatchObject({ status: 'sent', sent_at: expect.any(Number) });
      setMessageProvider('whatsapp', {
        channel: 'whatsapp',
        send: async () => {
          throw new Error('provider down');
        },
      });
      const admin = await s.login('admin@skyline.test');
      expect((await wa(admin, { phone: '+34611000006' })).status).toBe(200);
      expect((await messagesTo('+34611000006'))[0]).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/provider down/),
      });
    } finally {
      setMessageProvider('whatsapp', null);
    }
  });
});
