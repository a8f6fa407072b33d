import { createHash } from 'node:crypto';
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';
import { startSmtpSink } from '../mail/smtp-sink.ts';
import { dateIn } from './helpers.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe.each(DIALECTS)('user administration writes on %s', (dialect) => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: string;
  let ops: string;
  const create = (body: unknown, token = admin) => s.api('POST', '/manager/users/create.json', { token, body });
  const edit = (body: unknown, token = admin) => s.api('POST', '/manager/users/edit.json', { token, body });
  const row = (id: string) => s.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const userCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    smtp = await startSmtpSink();
    s = await startTestServer(dialect, { env: { SMTP_URL: smtp.smtpUrl } });
    admin = await s.login('admin@skyline.test');
    ops = await s.login('ops@skyline.test');
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('need credentials and a manager (<= 110); the auditor cannot write', async () => {
    expect((await s.api('POST', '/manager/users/create.json', { body: {} })).status).toBe(401);
    expect((await s.api('POST', '/manager/users/edit.json', { body: {} })).status).toBe(401);
    expect(
      (await s.api('POST', `/manager/users/delete/${s.userId('pilot@skyline.test')}.json`, { body: { confirm: true } }))
        .status,
    ).toBe(401);
    const auditor = await s.login('auditor@skyline.test');
    for (const t of [auditor, await s.login('headtraining@skyline.test'), await s.login('pilot@skyline.test')]) {
      expect(
        (await create({ User: { email: 'x@skyline.test' }, UserDetail: { name: 'X', surname: 'Y' } }, t)).status,
      ).toBe(403);
      expect((await edit({ User: { id: s.userId('pilot@skyline.test') }, UserDetail: { city: 'X' } }, t)).status).toBe(
        403,
      );
      expect(
        (
          await s.api('POST', `/manager/users/delete/${s.userId('pilot@skyline.test')}.json`, {
            token: t,
            body: { confirm: true },
          })
        ).status,
      ).toBe(403);
    }
  });

  describe('create', () => {
    it('validates each rule with field errors and creates nothing', async () => {
      const before = await userCount();
      const cases: Array<[unknown, string, RegExp?]> = [
        [{ User: { email: 'a@skyline.test' }, UserDetail: { surname: 'Only' } }, 'UserDetail.name'],
        [{ User: { email: 'a@skyline.test' }, UserDetail: { name: 'Only' } }, 'UserDetail.surname'],
        [{ User: { email: 'not-an-email' }, UserDetail: { name: 'A', surname: 'B' } }, 'User.email'],
        [{ User: { user_group_id: 191 }, UserDetail: { name: 'A', surname: 'B' } }, 'User.user_group_id'],
        [
          { User: { user_group_id: 100 }, UserDetail: { name: 'A', surname: 'B' } },
          'User.user_group_id',
          /above your own/,
        ],
        [{ User: { two_factor: 'TOTP' }, UserDetail: { name: 'A', surname: 'B' } }, 'User.two_factor'],
        [
          { User: { email: 'pilot@skyline.test' }, UserDetail: { name: 'A', surname: 'B' } },
          'User.email',
          /already has an account/,
        ],
        [{ UserDetail: { name: 'A', surname: 'B', country_id: 'XX' } }, 'UserDetail.country_id'],
        [{ UserDetail: { name: 'A', surname: 'B', timezone_id: 'Nowhere/City' } }, 'UserDetail.timezone_id'],
      ];
      for (const [body, field, message] of cases) {
        const r = await create(body, ops);
        expect(r.status, field).toBe(400);
        expect(r.body.result).toBe(false);
        expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
        if (message) expect(r.body.errors[field].join(' ')).toMatch(message);
      }
      expect(
        (await create({ User: { base_id: s.refs.bases.Republic }, UserDetail: { name: 'A', surname: 'B' } })).status,
      ).toBe(404);
      expect(
        (
          await create({
            User: { supervisor_id: s.userId('admin@harbor.test', 'harbor') },
            UserDetail: { name: 'A', surname: 'B' },
          })
        ).status,
      ).toBe(404);
      expect(await userCount()).toBe(before);
    });

    it('external auditors: expiration missing, past, beyond 90 days each have their message', async () => {
      const auditor = (expiration?: string) => ({
        User: { user_group_id: 250, email: 'ext@audit.test', ...(expiration !== undefined ? { expiration } : {}) },
        UserDetail: { name: 'Eva', surname: 'External' },
      });
      const messages = [];
      for (const e of [undefined, '', dateIn(-1), dateIn(0), dateIn(91)]) {
        const r = await create(auditor(e));
        expect(r.status, String(e)).toBe(400);
        messages.push(r.body.errors['User.expiration'][0]);
      }
      expect(messages[0]).toMatch(/needs an expiration date/);
      expect(messages[1]).toBe(messages[0]);
      expect(messages[2]).toMatch(/must be in the future/);
      expect(messages[3]).toBe(messages[2]);
      expect(messages[4]).toMatch(/at most 90 days/);
      expect(new Set([messages[0], messages[2], messages[4]]).size).toBe(3);
      expect(
        await s.ctx.db.selectFrom('identities').select('id').where('email', '=', 'ext@audit.test').executeTakeFirst(),
      ).toBeUndefined();
      // Valid: pilot forced false, two-factor forced EMAIL, whatever was posted.
      const ok = await create({
        User: { user_group_id: 250, email: 'ext@audit.test', expiration: dateIn(90), pilot: 1, two_factor: 'OFF' },
        UserDetail: { name: 'Eva', surname: 'External' },
      });
      expect(ok.status).toBe(200);
      expect(await row(ok.body.id)).toMatchObject({
        pilot: 0,
        two_factor: 'EMAIL',
        expiration: dateIn(90),
        user_group_id: 250,
      });
    });

    it('a new email gets a login with no usable password and an activation mail over SMTP', async () => {
      const r = await create({
        User: {
          email: 'New.Pilot@Skyline.test',
          user_group_id: 200,
          base_id: s.refs.bases.Sabadell,
          supervisor_id: s.userId('instructor@skyline.test'),
        },
        UserDetail: { name: 'Nina', surname: 'New', phone: '600 123 456' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: true, id: expect.any(String) });
      const u = await row(r.body.id);
      expect(u).toMatchObject({
        company_id: s.refs.companies.skyline,
        email: 'new.pilot@skyline.test',
        email_status: 'pending',
        user_group_id: 200,
        pilot: 1,
        base_id: s.refs.bases.Sabadell,
        phone: '600 123 456',
        timezone_id: 'Europe/Madrid',
      });
      const identity = await s.ctx.db
        .selectFrom('identities')
        .selectAll()
        .where('id', '=', u.identity_id!)
        .executeTakeFirstOrThrow();
      expect(identity.email).toBe('new.pilot@skyline.test');
      expect(identity.password_hash.startsWith('$argon2id$')).toBe(true);
      const mail = await smtp.waitFor((m) => m.to.includes('new.pilot@skyline.test'));
      expect(mail.subject).toBe('Activate your account at Skyline Flight Academy');
      const token = /\/activate\/([\w-]+)/.exec(mail.text)![1];
      const stored = await s.ctx.db
        .selectFrom('email_tokens')
        .selectAll()
        .where('token_hash', '=', sha256(token))
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ purpose: 'activate', identity_id: u.identity_id, used_at: null });
      // Nobody can sign in before activation: the password is unknown.
      expect(
        (await s.api('POST', '/login.json', { body: { email: 'new.pilot@skyline.test', password: '' } })).status,
      ).toBe(400);
      expect(
        (await s.api('POST', '/login.json', { body: { email: 'new.pilot@skyline.test', password: 'demo1234' } }))
          .status,
      ).toBe(401);
      // The account replicates (users carry change numbers).
      const docs = (await pullAll(s, ops, 'users')).docs;
      expect(docs.find((d) => d.id === r.body.id)).toMatchObject({ name: 'Nina', surname: 'New', user_group_id: 200 });
    });

    it('the activation link sets the password once; the account becomes confirmed and signs in', async () => {
      const r = await create({
        User: { email: 'act.ivate@skyline.test', user_group_id: 190 },
        UserDetail: { name: 'Ana', surname: 'Active' },
      });
      expect(r.status).toBe(200);
      const mail = await smtp.waitFor((m) => m.to.includes('act.ivate@skyline.test'));
      const token = /\/activate\/([\w-]+)/.exec(mail.text)![1];
      const activate = (body: unknown) => s.api('POST', '/users/activate.json', { body });
      // Bad input changes nothing: the token stays usable.
      expect((await activate({})).status).toBe(400);
      expect(
        (await activate({ token: 'x'.repeat(40), password: 'new-secret-1', passwordrepeat: 'new-secret-1' })).status,
      ).toBe(404);
      const short = await activate({ token, password: 'short', passwordrepeat: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.errors.password).toBeDefined();
      expect(
        (await activate({ token, password: 'new-secret-1', passwordrepeat: 'new-secret-2' })).body.errors
          .passwordrepeat,
      ).toBeDefined();
      expect((await row(r.body.id)).email_status).toBe('pending');
      const ok = await activate({ token, password: 'new-secret-1', passwordrepeat: 'new-secret-1' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ result: true, email: 'act.ivate@skyline.test' });
      expect((await row(r.body.id)).email_status).toBe('confirmed');
      const login = await s.api('POST', '/login.json', {
        body: { email: 'act.ivate@skyline.test', password: 'new-secret-1' },
      });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(r.body.id);
      // Single use.
      expect((await activate({ token, password: 'other-secret-1', passwordrepeat: 'other-secret-1' })).status).toBe(
        400,
      );
      expect(
        (await s.api('POST', '/login.json', { body: { email: 'act.ivate@skyline.test', password: 'new-secret-1' } }))
          .status,
      ).toBe(200);
    });

    it('an email that already has a login links it (welcome mail, shared password)', async () => {
      const harbor = await s.login('admin@harbor.test');
      const r = await create(
        { User: { email: 'pilot@skyline.test', user_group_id: 190 }, UserDetail: { name: 'Paula', surname: 'Pilot' } },
        harbor,
      );
      expect(r.status).toBe(200);
      const u = await row(r.body.id);
      const identity = await s.ctx.db
        .selectFrom('identities')
        .select('id')
        .where('email', '=', 'pilot@skyline.test')
        .executeTakeFirstOrThrow();
      expect(u).toMatchObject({
        company_id: s.refs.companies.harbor,
        identity_id: identity.id,
        email_status: 'confirmed',
      });
      const mail = await smtp.waitFor(
        (m) => m.to.includes('pilot@skyline.test') && m.subject === 'Welcome to Harbor Aero Club',
      );
      expect(mail.text).toContain('pilot@skyline.test');
      const login = await s.api('POST', '/login.json', {
        body: { email: 'pilot@skyline.test', password: 'demo1234', company_id: s.refs.companies.harbor },
      });
      expect(login.body.user).toMatchObject({ id: r.body.id, company_id: s.refs.companies.harbor });
      // send_email false: no mail.
      const before = smtp.messages.length;
      const quiet = await create({
        User: { email: 'quiet@skyline.test', send_email: false },
        UserDetail: { name: 'Quinn', surname: 'Quiet' },
      });
      expect(quiet.status).toBe(200);
      await new Promise((res) => setTimeout(res, 300));
      expect(smtp.messages.length).toBe(before);
    });

    it('two concurrent creates of one email: exactly one wins', async () => {
      const body = {
        User: { email: 'race@skyline.test', send_email: 0 },
        UserDetail: { name: 'Rae', surname: 'Race' },
      };
      const results = await Promise.all([create(body), create(body), create(body)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
      const rows = await s.ctx.db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', s.refs.companies.skyline)
        .where('email', '=', 'race@skyline.test')
        .execute();
      expect(rows.length).toBe(1);
    });

    it('the free plan holds at most 100 pilots', async () => {
      const harbor = await s.login('admin@harbor.test');
      const now = Math.floor(Date.now() / 1000);
      const live = Number(
        (
          await s.ctx.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', s.refs.companies.harbor)
            .where('pilot', '=', 1)
            .where('active', '=', 1)
            .where('deleted', '=', 0)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const fill = Array.from({ length: 100 - live }, (_, i) => ({
        id: uuidv7(),
        company_id: s.refs.companies.harbor,
        change_no: 0,
        deleted: 0,
        created: now,
        modified: now,
        identity_id: null,
        email: null,
        email_status: 'pending',
        active: 1,
        pilot: 1,
        billing: 0,
        user_group_id: 190,
        base_id: null,
        supervisor_id: null,
        language: 'en',
        api: 0,
        two_factor: 'OFF',
        totp_secret: null,
        expiration: null,
        name: `Filler${i}`,
        surname: 'Pilot',
        public_phone: 0,
        flight_hours: 0,
      }));
      await s.ctx.db.insertInto('users').values(fill).execute();
      const r = await create({ UserDetail: { name: 'One', surname: 'Toomany' } }, harbor);
      expect(r.status).toBe(400);
      expect(r.body.errors['User.pilot'][0]).toMatch(/at most 100 pilots/);
      expect(
        (await create({ User: { pilot: 0 }, UserDetail: { name: 'Not', surname: 'Apilot' } }, harbor)).status,
      ).toBe(200);
    });
  });

  describe('edit', () => {
    it('is partial, for company accounts only; rejected edits change nothing', async () => {
      const pilotId = s.userId('pilot@skyline.test');
      const before = await row(pilotId);
      expect(
        (await edit({ User: { id: s.userId('pilot@harbor.test', 'harbor') }, UserDetail: { city: 'Boston' } })).status,
      ).toBe(404);
      expect((await edit({ UserDetail: { city: 'Nowhere' } })).status).toBe(400);
      expect(
        (await edit({ User: { id: s.userId('admin@skyline.test') }, UserDetail: { city: 'X' } }, ops)).status,
      ).toBe(403);
      expect((await edit({ User: { id: pilotId, user_group_id: 100 }, UserDetail: { city: 'X' } }, ops)).status).toBe(
        400,
      );
      expect((await edit({ User: { id: s.userId('ops@skyline.test'), user_group_id: 190 } }, ops)).status).toBe(400);
      expect((await edit({ User: { id: pilotId, expiration: '2026-13-01' }, UserDetail: { city: 'X' } })).status).toBe(
        400,
      );
      expect(await row(pilotId)).toEqual(before);
      const ok = await edit({
        User: { id: pilotId, billing: 0 },
        UserDetail: { city: 'Getafe', notes: 'Night rating next' },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        result: true,
        id: pilotId,
        User: { billing: false, email: 'pilot@skyline.test' },
        UserDetail: { city: 'Getafe', notes: 'Night rating next', name: 'Paula' },
      });
      const after = await row(pilotId);
      expect(after.change_no).toBeGreaterThan(before.change_no);
    });

    it('a changed role ends the account’s sessions', async () => {
      const token = await s.login('mechanic@skyline.test');
      expect((await s.api('GET', '/users/view.json', { token })).status).toBe(200);
      expect((await edit({ User: { id: s.userId('mechanic@skyline.test'), user_group_id: 170 } })).status).toBe(200);
      expect((await s.api('GET', '/users/view.json', { token })).status).toBe(401);
      const fresh = await s.login('mechanic@skyline.test');
      expect((await s.api('GET', '/users/view.json', { token: fresh })).body.User.user_group_id).toBe(170);
    });

    it('managers set two-factor OFF or EMAIL (to reset a lost authenticator), never TOTP', async () => {
      const id = s.userId('instructor@skyline.test');
      const totp = await edit({ User: { id, two_factor: 'TOTP' } });
      expect(totp.status).toBe(400);
      expect(Object.keys(totp.body.errors)).toContain('User.two_factor');
      expect((await row(id)).two_factor).toBe('OFF');
      // The person enrolled an authenticator: posting the record back unchanged is fine.
      await s.ctx.db.updateTable('users').set({ two_factor: 'TOTP' }).where('id', '=', id).execute();
      expect((await edit({ User: { id, two_factor: 'TOTP' } })).status).toBe(200);
      expect((await edit({ User: { id, two_factor: 'SMS' } })).status).toBe(400);
      expect((await row(id)).two_factor).toBe('TOTP');
      const email = await edit({ User: { id, two_factor: 'EMAIL' } });
      expect(email.status).toBe(200);
      expect(email.body.User.two_factor).toBe('EMAIL');
      expect((await edit({ User: { id, two_factor: 'OFF' } })).body.User.two_factor).toBe('OFF');
      expect((await row(id)).two_factor).toBe('OFF');
    });

    it('auditor rules hold on edit: expiration, no pilot, EMAIL two-factor forever', async () => {
      const id = s.userId('dispatch@skyline.test');
      const r1 = await edit({ User: { id, user_group_id: 250 } });
      expect(r1.status).toBe(400);
      expect(r1.body.errors['User.expiration'][0]).toMatch(/needs an expiration date/);
      expect(
        (await edit({ User: { id, user_group_id: 250, expiration: dateIn(120) } })).body.errors['User.expiration'][0],
      ).toMatch(/at most 90 days/);
      expect((await row(id)).user_group_id).toBe(170);
      const ok = await edit({ User: { id, user_group_id: 250, expiration: dateIn(30), pilot: 1 } });
      expect(ok.status).toBe(200);
      expect(await row(id)).toMatchObject({ user_group_id: 250, pilot: 0, two_factor: 'EMAIL' });
      const off = await edit({ User: { id, two_factor: 'OFF' } });
      expect(off.status).toBe(200);
      expect((await row(id)).two_factor).toBe('EMAIL');
      expect((await edit({ User: { id, two_factor: 'TOTP' } })).status).toBe(400);
      // The seeded auditor: a past expiration cannot be set.
      expect(
        (await edit({ User: { id: s.userId('auditor@skyline.test'), expiration: dateIn(-3) } })).body.errors[
          'User.expiration'
        ][0],
      ).toMatch(/in the future/);
    });

    it('a changed email moves the account to that login and mails a confirmation', async () => {
      const id = s.userId('ground@skyline.test');
      const r = await edit({ User: { id, email: 'greta.ground@skyline.test' } });
      expect(r.status).toBe(200);
      expect(await row(id)).toMatchObject({ email: 'greta.ground@skyline.test', email_status: 'unconfirmed' });
      const mail = await smtp.waitFor((m) => m.to.includes('greta.ground@skyline.test'));
      expect(mail.subject).toBe('Confirm your email address');
      // Greta's only account: her login was renamed and keeps her password.
      expect(
        (await s.api('POST', '/login.json', { body: { email: 'greta.ground@skyline.test', password: 'demo1234' } }))
          .status,
      ).toBe(200);
      expect((await edit({ User: { id, email: 'headtraining@skyline.test' } })).status).toBe(400);
    });
  });

  describe('delete', () => {
    const del = (id: string, body: unknown, token = admin) =>
      s.api('POST', `/manager/users/delete/${id}.json`, { token, body });

    it('needs confirm = true; other company 404; not oneself; not above one’s role', async () => {
      const id = s.userId('student@skyline.test');
      for (const body of [{}, { confirm: false }, { confirm: '0' }]) {
        const r = await del(id, body);
        expect(r.status).toBe(400);
        expect(r.body.errors.confirm).toBeDefined();
      }
      expect((await row(id)).deleted).toBe(0);
      expect((await del(s.userId('pilot@harbor.test', 'harbor'), { confirm: true })).status).toBe(404);
      expect((await del(s.userId('admin@skyline.test'), { confirm: true })).status).toBe(400);
      expect((await del(s.userId('admin@skyline.test'), { confirm: true }, ops)).status).toBe(403);
      expect((await row(s.userId('admin@skyline.test'))).deleted).toBe(0);
    });

    it('removes the account: gone from lists, its sessions end, its API keys are revoked', async () => {
      const id = s.userId('student@skyline.test');
      const token = await s.login('student@skyline.test');
      const key = await s.api('POST', '/manager/api_keys/add.json', {
        token: admin,
        body: { name: 'Student integration', user_id: id },
      });
      expect(key.status).toBe(200);
      expect((await s.api('GET', '/users/view.json', { token: key.body.key.plaintext })).status).toBe(200);
      const r = await del(id, { confirm: true });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: true, id });
      expect((await s.api('GET', '/users/view.json', { token })).status).toBe(401);
      expect((await s.api('GET', '/users/view.json', { token: key.body.key.plaintext })).status).toBe(401);
      expect(
        (
          await s.ctx.db
            .selectFrom('api_keys')
            .select('revoked')
            .where('id', '=', key.body.key.id)
            .executeTakeFirstOrThrow()
        ).revoked,
      ).toBe(1);
      expect((await s.api('GET', `/manager/users/view/${id}.json`, { token: admin })).status).toBe(404);
      expect((await s.api('GET', '/manager/users/list.json', { token: admin })).body[id]).toBeUndefined();
      expect((await del(id, { confirm: true })).status).toBe(404);
      const docs = (await pullAll(s, ops, 'users')).docs;
      expect(docs.some((d) => d.id === id)).toBe(false);
    });
  });
});
