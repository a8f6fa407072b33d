import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, DAY, flightTypeIds, HOUR, mailsTo, now, tokens, userRow } from './people-helpers.ts';

describe.each(DIALECTS)('Pilot create, edit and history on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
  });
  afterAll(() => s?.close());

  const create = async (email: string, body: unknown) =>
    s.api('POST', '/pilots/create.json', { token: await tok(email), body });
  const edit = async (email: string, body: unknown) =>
    s.api('POST', '/pilots/edit.json', { token: await tok(email), body });
  const userCount = async (company: 'skyline' | 'harbor' = 'skyline') =>
    Number(
      (
        await s.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', s.refs.companies[company])
          .executeTakeFirstOrThrow()
      ).n,
    );
  const activePilots = async (company: 'skyline' | 'harbor') =>
    Number(
      (
        await s.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', s.refs.companies[company])
          .where('pilot', '=', 1)
          .where('active', '=', 1)
          .where('deleted', '=', 0)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const sessionCount = async (userId: string) =>
    Number(
      (
        await s.ctx.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A pilot with a login of their own (password demo1234). */
  const pilotWithLogin = async (email: string, extra: Record<string, unknown> = {}) =>
    addUser(s, { email, login: true, name: 'Lena', surname: 'Login', ...extra });

  it('answers 401 without a token', async () => {
    expect((await s.api('POST', '/pilots/create.json', { body: {} })).status).toBe(401);
    expect((await s.api('POST', '/pilots/edit.json', { body: {} })).status).toBe(401);
    expect((await s.api('GET', `/pilots/changes/${s.userId('pilot@skyline.test')}.json`)).status).toBe(401);
  });

  describe('create', () => {
    it('is for roles 1, 100, 105, 110, 120, 150 only; others get 403 and nothing is created', async () => {
      const before = await userCount();
      for (const email of [
        'ground@skyline.test',
        'dispatch@skyline.test',
        'pilot@skyline.test',
        'auditor@skyline.test',
      ]) {
        const r = await create(email, { UserDetail: { name: 'No', surname: 'Way' } });
        expect(r.status, email).toBe(403);
      }
      expect(await userCount()).toBe(before);
      for (const email of [
        'root@skyline.test',
        'ops@skyline.test',
        'safety@skyline.test',
        'headtraining@skyline.test',
        'instructor@skyline.test',
      ]) {
        const r = await create(email, { UserDetail: { name: 'Ok', surname: email } });
        expect(r.status, email).toBe(200);
      }
    });

    it('creates a role 190 pilot in the caller’s company with the requester’s time zone; answers {id, result, validation}', async () => {
      await s.ctx.db
        .updateTable('users')
        .set({ timezone_id: 'Atlantic/Canary' })
        .where('id', '=', s.userId('admin@skyline.test'))
        .execute();
      const r = await create('admin@skyline.test', {
        User: { company_id: s.refs.companies.harbor },
        UserDetail: { name: 'Nora', surname: 'New', city: 'Toledo' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: expect.any(String), result: true, validation: {} });
      const u = await userRow(s, r.body.id);
      expect(u).toMatchObject({
        company_id: s.refs.companies.skyline,
        user_group_id: 190,
        name: 'Nora',
        surname: 'New',
        city: 'Toledo',
        active: 1,
        pilot: 1,
        timezone_id: 'Atlantic/Canary',
        email: null,
      });
      expect(Number(u.change_no)).toBeGreaterThan(0);
      const explicit = await create('admin@skyline.test', {
        UserDetail: { name: 'Tz', surname: 'Given', timezone_id: 'Europe/Lisbon' },
      });
      expect((await userRow(s, explicit.body.id)).timezone_id).toBe('Europe/Lisbon');
      const history = await s.ctx.db.selectFrom('user_changes').selectAll().where('user_id', '=', r.body.id).execute();
      expect(history.map((h) => h.action)).toEqual(['create']);
    });

    it('requires name and surname and refuses roles below 150, in the spec’s shape; nothing is created', async () => {
      const before = await userCount();
      const missing = await create('admin@skyline.test', { UserDetail: { name: 'Only' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ id: null, result: false });
      expect(missing.body.validation['UserDetail.surname']).toEqual(['Surname is required']);
      const empty = await create('admin@skyline.test', { UserDetail: { name: '', surname: 'X' } });
      expect(empty.status).toBe(400);
      expect(empty.body.validation['UserDetail.name']).toBeDefined();
      const staff = await create('admin@skyline.test', {
        User: { user_group_id: 120 },
        UserDetail: { name: 'Hi', surname: 'Staff' },
      });
      expect(staff.status).toBe(400);
      expect(staff.body.validation['User.user_group_id'][0]).toMatch(/150/);
      const unknownRole = await create('admin@skyline.test', {
        User: { user_group_id: 175 },
        UserDetail: { name: 'Hi', surname: 'Role' },
      });
      expect(unknownRole.status).toBe(400);
      expect(await userCount()).toBe(before);
      const instructorRole = await create('instructor@skyline.test', {
        User: { user_group_id: 150 },
        UserDetail: { name: 'Fresh', surname: 'Instructor' },
      });
      expect(instructorRole.status).toBe(200);
      expect((await userRow(s, instructorRole.body.id)).user_group_id).toBe(150);
    });

    it('computes email_status and sends the staff confirmation mail only when active and send_email', async () => {
      const fresh = await create('admin@skyline.test', {
        User: { email: 'New.Pilot@People.test', send_email: true },
        UserDetail: { name: 'Mia', surname: 'Mail' },
      });
      expect(fresh.status).toBe(200);
      const u = await userRow(s, fresh.body.id);
      expect(u.email).toBe('new.pilot@people.test');
      expect(u.email_status).toBe('pending');
      expect(u.identity_id).toBeTruthy();
      const mails = await mailsTo(s, 'new.pilot@people.test');
      expect(mails.map((m) => m.template)).toEqual(['staff_confirm']);
      expect(mails[0].body_text).toContain('Skyline Flight Academy');
      // No password yet: the link opens the activation page, which sets one.
      expect(mails[0].body_text).toMatch(/\/activate\/[\w-]+/);

      const silent = await create('admin@skyline.test', {
        User: { email: 'silent@people.test' },
        UserDetail: { name: 'Sil', surname: 'Ent' },
      });
      expect(silent.status).toBe(200);
      expect(await mailsTo(s, 'silent@people.test')).toEqual([]);
      const inactive = await create('admin@skyline.test', {
        User: { email: 'asleep@people.test', active: false, send_email: true },
        UserDetail: { name: 'A', surname: 'Sleep' },
      });
      expect((await userRow(s, inactive.body.id)).active).toBe(0);
      expect(await mailsTo(s, 'asleep@people.test')).toEqual([]);

      // An address whose login already confirmed it in another company is confirmed here too.
      const shared = await create('admin@skyline.test', {
        User: { email: 'pilot@harbor.test', send_email: 'true' },
        UserDetail: { name: 'Pia', surname: 'Harbor' },
      });
      const sharedRow = await userRow(s, shared.body.id);
      expect(sharedRow.email_status).toBe('confirmed');
      const harborRow = await userRow(s, s.userId('pilot@harbor.test', 'harbor'));
      expect(sharedRow.identity_id).toBe(harborRow.identity_id);
      const sharedMail = (await mailsTo(s, 'pilot@harbor.test')).find((m) => m.template === 'staff_confirm');
      // A login that has a password only confirms this account.
      expect(sharedMail?.body_text).toMatch(/\/confirm\/[\w-]+/);

      const dup = await create('admin@skyline.test', {
        User: { email: 'pilot@skyline.test' },
        UserDetail: { name: 'Dup', surname: 'Licate' },
      });
      expect(dup.status).toBe(400);
      expect(dup.body.validation['User.email']).toBeDefined();
    });

    it('an external auditor account keeps the auditor rules: expiration required, not a pilot, EMAIL two-factor', async () => {
      const before = await userCount();
      const noExpiry = await create('admin@skyline.test', {
        User: { user_group_id: 250 },
        UserDetail: { name: 'Audrey', surname: 'Audit' },
      });
      expect(noExpiry.status).toBe(400);
      expect(noExpiry.body.validation['User.expiration'][0]).toMatch(/expiration date/);
      const tooLong = await create('admin@skyline.test', {
        User: { user_group_id: 250, expiration: new Date(Date.now() + 120 * 86400_000).toISOString().slice(0, 10) },
        UserDetail: { name: 'Audrey', surname: 'Audit' },
      });
      expect(tooLong.status).toBe(400);
      expect(await userCount()).toBe(before);
      const ok = await create('admin@skyline.test', {
        User: {
          user_group_id: 250,
          pilot: true,
          expiration: new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10),
        },
        UserDetail: { name: 'Audrey', surname: 'Audit' },
      });
      expect(ok.status).toBe(200);
      expect(await userRow(s, ok.body.id)).toMatchObject({ user_group_id: 250, pilot: 0, two_factor: 'EMAIL' });
    });

    it('honours a valid `created` and silently drops one too far ahead or not numeric', async () => {
      const past = now() - 400 * DAY;
      const r = await create('admin@skyline.test', {
        User: { created: past },
        UserDetail: { name: 'Old', surname: 'Member' },
      });
      expect(Number((await userRow(s, r.body.id)).created)).toBe(past);
      for (const created of [now() + 3 * DAY, 'yesterday', -5]) {
        const before = now();
        const x = await create('admin@skyline.test', {
          User: { created },
          UserDetail: { name: 'Drop', surname: String(created) },
        });
        expect(x.status).toBe(200);
        const c = Number((await userRow(s, x.body.id)).created);
        expect(c).toBeGreaterThanOrEqual(before);
        expect(c).toBeLessThanOrEqual(now());
      }
    });

    it('the free plan holds at most 100 pilots: the 101st is refused with 400 and nothing is created', async () => {
      const missing = 100 - (await activePilots('harbor'));
      for (let i = 0; i < missing; i++) await addUser(s, { company: 'harbor', name: 'Filler', surname: `F${i}` });
      expect(await activePilots('harbor')).toBe(100);
      const before = await userCount('harbor');
      const r = await create('admin@harbor.test', { UserDetail: { name: 'One', surname: 'Toomany' } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ id: null, result: false });
      expect(r.body.message).toMatch(/100 pilots/);
      expect(r.body.validation['User.pilot']).toBeDefined();
      expect(await userCount('harbor')).toBe(before);
      // Skyline (premium) has no cap; an inactive Harbor account does not count.
      expect(
        (await create('admin@harbor.test', { User: { active: false }, UserDetail: { name: 'Not', surname: 'Flying' } }))
          .status,
      ).toBe(200);
    });
  });

  describe('edit', () => {
    it('is for roles 1, 100, 105, 110, 120, 150 only', async () => {
      const id = await addUser(s, { name: 'Edit', surname: 'Gate' });
      for (const email of ['ground@skyline.test', 'dispatch@skyline.test', 'pilot@skyline.test']) {
        const r = await edit(email, { User: { id }, UserDetail: { city: 'Nowhere' } });
        expect(r.status, email).toBe(403);
      }
      expect((await userRow(s, id)).city).toBeNull();
    });

    it('saves User and UserDetail and answers {id, result, errors: []}', async () => {
      const id = await addUser(s, { name: 'Edna', surname: 'Edit' });
      const r = await edit('instructor@skyline.test', {
        User: { id, billing: true, base_id: s.refs.bases['Sabadell'] },
        UserDetail: { surname: 'Edited', city: 'Reus', notes: 'Good progress', flight_hours: '12.5' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id, result: true, errors: [] });
      const u = await userRow(s, id);
      expect(u).toMatchObject({
        surname: 'Edited',
        city: 'Reus',
        notes: 'Good progress',
        billing: 1,
        base_id: s.refs.bases['Sabadell'],
        name: 'Edna',
      });
      expect(Number(u.flight_hours)).toBe(12.5);
    });

    it('answers flattened field errors; nothing changes', async () => {
      const id = await addUser(s, { name: 'Flat', surname: 'Errors' });
      const before = await userRow(s, id);
      const r = await edit('admin@skyline.test', { User: { id }, UserDetail: { name: '', country_id: 'XX' } });
      expect(r.status).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.id).toBe(id);
      expect(r.body.errors).toEqual(
        expect.arrayContaining([
          'UserDetail.name: Name is required',
          expect.stringMatching(/^UserDetail\.country_id: Unknown country/),
        ]),
      );
      const noId = await edit('admin@skyline.test', { UserDetail: { city: 'X' } });
      expect(noId.status).toBe(400);
      expect(noId.body.errors.some((e: string) => e.startsWith('User'))).toBe(true);
      expect(await userRow(s, id)).toEqual(before);
    });

    it('another company’s user is 404; an account above the editor’s role is 403', async () => {
      const harbor = s.userId('pilot@harbor.test', 'harbor');
      const before = await userRow(s, harbor);
      const r = await edit('admin@skyline.test', { User: { id: harbor }, UserDetail: { city: 'Hijacked' } });
      expect(r.status).toBe(404);
      expect(await userRow(s, harbor)).toEqual(before);
      const above = await edit('instructor@skyline.test', {
        User: { id: s.userId('admin@skyline.test') },
        UserDetail: { city: 'X' },
      });
      expect(above.status).toBe(403);
    });

    it('a role below 150 needs an editor with role <= 120', async () => {
      const id = await addUser(s, { name: 'Promo', surname: 'Ted' });
      const denied = await edit('instructor@skyline.test', { User: { id, user_group_id: 135 } });
      expect(denied.status).toBe(400);
      expect(denied.body.errors[0]).toMatch(/^User\.user_group_id: .*120/);
      expect((await userRow(s, id)).user_group_id).toBe(190);
      const ok = await edit('headtraining@skyline.test', { User: { id, user_group_id: 135 } });
      expect(ok.status).toBe(200);
      expect((await userRow(s, id)).user_group_id).toBe(135);
      const above = await edit('headtraining@skyline.test', { User: { id, user_group_id: 110 } });
      expect(above.status).toBe(400);
      expect((await userRow(s, id)).user_group_id).toBe(135);
      // Moves at or above 150 are open to a flight instructor.
      const other = await addUser(s, { name: 'Stu', surname: 'Dent' });
      expect((await edit('instructor@skyline.test', { User: { id: other, user_group_id: 200 } })).status).toBe(200);
    });

    it('an editor cannot demote themself away from role 100 or below', async () => {
      const r = await edit('admin@skyline.test', { User: { id: s.userId('admin@skyline.test'), user_group_id: 105 } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatch(/demote yourself/);
      expect((await userRow(s, s.userId('admin@skyline.test'))).user_group_id).toBe(100);
      const self = await edit('admin@skyline.test', { User: { id: s.userId('admin@skyline.test'), active: false } });
      expect(self.status).toBe(400);
      expect((await userRow(s, s.userId('admin@skyline.test'))).active).toBe(1);
    });

    it('a changed role deletes every session of the edited user; other edits keep them', async () => {
      const id = await pilotWithLogin('role.change@people.test');
      const token = await s.login('role.change@people.test');
      expect((await s.api('GET', '/bases/index.json', { token })).status).toBe(200);
      await edit('admin@skyline.test', { User: { id }, UserDetail: { city: 'Same Role' } });
      expect(await sessionCount(id)).toBe(1);
      expect((await s.api('GET', '/bases/index.json', { token })).status).toBe(200);
      const r = await edit('admin@skyline.test', { User: { id, user_group_id: 200 } });
      expect(r.status).toBe(200);
      expect(await sessionCount(id)).toBe(0);
      expect((await s.api('GET', '/bases/index.json', { token })).status).toBe(401);
    });

    it('a changed email recomputes email_status and sends `confirm` when active and send_email', async () => {
      const id = await pilotWithLogin('old.address@people.test');
      const r = await edit('admin@skyline.test', { User: { id, email: 'new.address@people.test', send_email: true } });
      expect(r.status).toBe(200);
      const u = await userRow(s, id);
      expect(u.email).toBe('new.address@people.test');
      expect(u.email_status).toBe('unconfirmed');
      expect((await mailsTo(s, 'new.address@people.test')).map((m) => m.template)).toEqual(['confirm']);
      // The person keeps their password: the login now answers to the new address.
      expect(await s.login('new.address@people.test')).toMatch(/^ses_/);

      const quiet = await pilotWithLogin('quiet.old@people.test');
      await edit('admin@skyline.test', { User: { id: quiet, email: 'quiet.new@people.test' } });
      expect((await userRow(s, quiet)).email_status).toBe('unconfirmed');
      expect(await mailsTo(s, 'quiet.new@people.test')).toEqual([]);

      const inactive = await pilotWithLogin('sleep.old@people.test', { active: false });
      await edit('admin@skyline.test', { User: { id: inactive, email: 'sleep.new@people.test', send_email: true } });
      expect(await mailsTo(s, 'sleep.new@people.test')).toEqual([]);

      // Moving to an address whose login is confirmed elsewhere: confirmed, no mail needed.
      const joined = await pilotWithLogin('joiner@people.test');
      await edit('admin@skyline.test', { User: { id: joined, email: 'admin@harbor.test', send_email: true } });
      const j = await userRow(s, joined);
      expect(j.email_status).toBe('confirmed');
      expect(j.identity_id).toBe((await userRow(s, s.userId('admin@harbor.test', 'harbor'))).identity_id);

      const dup = await edit('admin@skyline.test', { User: { id, email: 'pilot@skyline.test' } });
      expect(dup.status).toBe(400);
      expect(dup.body.errors[0]).toMatch(/^User\.email/);
      expect((await userRow(s, id)).email).toBe('new.address@people.test');
    });

    it('alerts, message_alerts and newsletter are saved on the login shared by every account of the email', async () => {
      const dana = s.userId('dual@demo.test');
      const identity = (await userRow(s, dana)).identity_id!;
      const r = await edit('admin@skyline.test', { User: { id: dana, newsletter: true, alerts: false } });
      expect(r.status).toBe(200);
      const i = await s.ctx.db
        .selectFrom('identities')
        .selectAll()
        .where('id', '=', identity)
        .executeTakeFirstOrThrow();
      expect(i).toMatchObject({ newsletter: 1, alerts: 0, message_alerts: 1 });
      // The Harbor account of the same person sees the same preferences.
      const harborView = await s.api('GET', `/pilots/view/${s.userId('dual@demo.test', 'harbor')}.json`, {
        token: await tok('admin@harbor.test'),
      });
      expect(harborView.body.user.User).toMatchObject({ newsletter: true, alerts: false, message_alerts: true });
      // Omitted preferences stay as they are.
      await edit('admin@skyline.test', { User: { id: dana }, UserDetail: { city: 'Madrid' } });
      expect(
        await s.ctx.db
          .selectFrom('identities')
          .select(['newsletter', 'alerts'])
          .where('id', '=', identity)
          .executeTakeFirstOrThrow(),
      ).toEqual({ newsletter: 1, alerts: 0 });
      await edit('admin@skyline.test', { User: { id: dana, newsletter: false, alerts: true } });
    });

    it('WhatsApp is honoured only as false', async () => {
      const id = await pilotWithLogin('whats@people.test');
      const identity = (await userRow(s, id)).identity_id!;
      await edit('admin@skyline.test', { User: { id, whatsapp: true } });
      expect(
        (
          await s.ctx.db
            .selectFrom('identities')
            .select('whatsapp')
            .where('id', '=', identity)
            .executeTakeFirstOrThrow()
        ).whatsapp,
      ).toBe(0);
      await s.ctx.db.updateTable('identities').set({ whatsapp: 1 }).where('id', '=', identity).execute();
      await edit('admin@skyline.test', { User: { id, whatsapp: false } });
      expect(
        (
          await s.ctx.db
            .selectFrom('identities')
            .select('whatsapp')
            .where('id', '=', identity)
            .executeTakeFirstOrThrow()
        ).whatsapp,
      ).toBe(0);
    });

    it('User.created: valid values change and are written to the history; invalid ones are dropped silently', async () => {
      const id = await addUser(s, { name: 'Cree', surname: 'Ated' });
      const original = Number((await userRow(s, id)).created);
      const target = now() - 1000 * DAY;
      expect((await edit('instructor@skyline.test', { User: { id, created: String(target) } })).status).toBe(200);
      expect(Number((await userRow(s, id)).created)).toBe(target);
      const history = await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(history.status).toBe(200);
      const change = history.body.changes[0];
      expect(change.UserChange.action).toBe('edit');
      expect(change.UserChange.fields).toEqual([{ field: 'created', from: original, to: target }]);
      expect(change.ChangedBy).toMatchObject({ id: s.userId('instructor@skyline.test'), name: 'Ivan' });
      for (const created of [now() + 49 * HOUR, 'soon', 0, -1]) {
        const r = await edit('instructor@skyline.test', { User: { id, created } });
        expect(r.status).toBe(200);
        expect(Number((await userRow(s, id)).created)).toBe(target);
      }
      // 47 hours ahead is still allowed.
      const soon = now() + 47 * HOUR;
      await edit('instructor@skyline.test', { User: { id, created: soon } });
      expect(Number((await userRow(s, id)).created)).toBe(soon);
    });

    it('AttributedAircraft, FlightType and PilotGroup maps wipe and re-save the joins (truthy keys only)', async () => {
      const id = await addUser(s, { name: 'Map', surname: 'Pilot' });
      const types = await flightTypeIds(s);
      const group = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: await tok('admin@skyline.test'),
        body: { PilotGroup: { name: 'Map Group' } },
      });
      const abc = s.refs.aircraft['EC-ABC'];
      const def = s.refs.aircraft['EC-DEF'];
      const r = await edit('admin@skyline.test', {
        User: { id },
        AttributedAircraft: { [abc]: 1, [def]: '0' },
        FlightType: { [types.Solo]: true, [types['Dual training']]: 'on' },
        PilotGroup: { [group.body.id]: 1 },
      });
      expect(r.status).toBe(200);
      const view = await s.api('GET', `/pilots/view/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(view.body.user.AttributedAircraft).toEqual({ [abc]: 'EC-ABC' });
      expect(view.body.user.FlightType.map((t: any) => t.name).sort()).toEqual(['Dual training', 'Solo']);
      expect(view.body.user.PilotGroup.map((g: any) => g.name)).toEqual(['Map Group']);

      await edit('admin@skyline.test', { User: { id }, AttributedAircraft: { [def]: 1 } });
      const again = await s.api('GET', `/pilots/view/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(again.body.user.AttributedAircraft).toEqual({ [def]: 'EC-DEF' });
      // Maps left out keep their joins.
      expect(again.body.user.FlightType).toHaveLength(2);
      expect(again.body.user.PilotGroup).toHaveLength(1);
      await edit('admin@skyline.test', { User: { id }, FlightType: {}, PilotGroup: '' });
      const cleared = await s.api('GET', `/pilots/view/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(cleared.body.user.FlightType).toEqual([]);
      expect(cleared.body.user.PilotGroup).toEqual([]);

      const harborAircraft = s.refs.aircraft.N123HA;
      const foreign = await edit('admin@skyline.test', { User: { id }, AttributedAircraft: { [harborAircraft]: 1 } });
      expect(foreign.status).toBe(404);
      expect(cleared.body.user.AttributedAircraft).toEqual({ [def]: 'EC-DEF' });
      const still = await s.api('GET', `/pilots/view/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(still.body.user.AttributedAircraft).toEqual({ [def]: 'EC-DEF' });
    });

    it('the free plan cap also holds when an edit makes someone an active pilot', async () => {
      const missing = 100 - (await activePilots('harbor'));
      for (let i = 0; i < missing; i++) await addUser(s, { company: 'harbor', name: 'Cap', surname: `C${i}` });
      const sleeper = await addUser(s, { company: 'harbor', name: 'Sleeping', surname: 'Beauty', active: false });
      const r = await edit('admin@harbor.test', { User: { id: sleeper, active: true } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatch(/100 pilots/);
      expect((await userRow(s, sleeper)).active).toBe(0);
    });
  });

  describe('change history', () => {
    it('lists changes newest first with a paginate block; roles > 150 see only their own; another company 404', async () => {
      const id = await addUser(s, { name: 'Hist', surname: 'Ory' });
      await edit('admin@skyline.test', { User: { id }, UserDetail: { city: 'One' } });
      await edit('admin@skyline.test', { User: { id, user_group_id: 200 }, UserDetail: { city: 'Two' } });
      const r = await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('instructor@skyline.test') });
      expect(r.status).toBe(200);
      expect(r.body.paginate).toMatchObject({ page: 1, count: 2, current: 2 });
      expect(r.body.changes[0].UserChange.fields).toEqual(
        expect.arrayContaining([
          { field: 'city', from: 'One', to: 'Two' },
          { field: 'user_group_id', from: 190, to: 200 },
        ]),
      );
      expect(r.body.changes[1].UserChange.fields).toEqual([{ field: 'city', from: null, to: 'One' }]);
      expect(
        (await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('dispatch@skyline.test') })).status,
      ).toBe(403);
      const own = await s.api('GET', `/pilots/changes/${s.userId('pilot@skyline.test')}.json`, {
        token: await tok('pilot@skyline.test'),
      });
      expect(own.status).toBe(200);
      const foreign = await s.api('GET', `/pilots/changes/${s.userId('pilot@harbor.test', 'harbor')}.json`, {
        token: await tok('admin@skyline.test'),
      });
      expect(foreign.status).toBe(404);
    });
  });
});
