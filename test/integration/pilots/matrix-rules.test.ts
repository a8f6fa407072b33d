import { bookBalance } from '../billing/helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';
import { addUser, mailsTo, tokens, userRow } from './people-helpers.ts';

/** Part A 4.8 item 4: what a viewer above 150 loses when looking at another person (the keys are removed). */
const HIDDEN_USER = [
  'email',
  'user_group_id',
  'user_login_count',
  'email_status',
  'expiration',
  'alerts',
  'message_alerts',
  'newsletter',
  'whatsapp',
];
const HIDDEN_DETAIL = [
  'phone',
  'phone2',
  'address',
  'pc',
  'city',
  'passport',
  'emergency_contact',
  'notes',
  'billing_balance',
  'package_balance',
];
const HIDDEN_WHOLE = ['UserGroup', 'UserCertificate', 'UserLogin'];
const FULL_VIEWERS = [
  'root@skyline.test',
  'admin@skyline.test',
  'ops@skyline.test',
  'safety@skyline.test',
  'headtraining@skyline.test',
  'ground@skyline.test',
  'instructor@skyline.test',
];
const REDUCED_VIEWERS = [
  'dispatch@skyline.test',
  'pilot@skyline.test',
  'student@skyline.test',
  'auditor@skyline.test',
  'mechanic@skyline.test',
];

function without(body: any, user: string[], detail: string[], whole: string[]) {
  const u = structuredClone(body.user);
  for (const f of user) delete u.User[f];
  for (const f of detail) delete u.UserDetail[f];
  for (const f of whole) delete u[f];
  return { user: u };
}

describe.each(DIALECTS)('Pilot visibility matrix, edit rules and directory replication on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let vera: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    vera = await addUser(s, {
      name: 'Vera',
      surname: 'Visible',
      email: 'vera@people.test',
      login: true,
      phone: '600999000',
      city: 'Leon',
      passport: 'VP-1',
      notes: 'Private note',
      billingBalance: 12,
    });
    await s.ctx.db
      .updateTable('users')
      .set({ phone2: '600999001', address: 'Calle 2', pc: '24001', emergency_contact: 'Dad', expiration: '2040-01-01' })
      .where('id', '=', vera)
      .execute();
    await bookBalance(s, s.refs.companies.skyline, vera, 0, 4);
    await s.login('vera@people.test');
    await s.api('POST', '/pilots/certificates/edit.json', {
      token: await tok('admin@skyline.test'),
      body: { UserCertificate: { user_id: vera, type: 'PPL' } },
    });
  });
  afterAll(() => s?.close());

  const view = async (email: string, id?: string) => {
    const r = await s.api('GET', id ? `/pilots/view/${id}.json` : '/pilots/view.json', { token: await tok(email) });
    expect(r.status, email).toBe(200);
    return r.body;
  };

  describe('view: the visibility matrix of Part A 4.8 item 4, role by role', () => {
    it('the full view holds every private field', async () => {
      const full = await view('admin@skyline.test', vera);
      expect(full.user.User).toMatchObject({
        email: 'vera@people.test',
        user_group_id: 190,
        email_status: 'confirmed',
        expiration: '2040-01-01',
        alerts: true,
        message_alerts: true,
        newsletter: false,
        whatsapp: false,
      });
      expect(full.user.User.user_login_count).toBe(1);
      expect(full.user.UserDetail).toMatchObject({
        phone: '600999000',
        phone2: '600999001',
        address: 'Calle 2',
        pc: '24001',
        city: 'Leon',
        passport: 'VP-1',
        emergency_contact: 'Dad',
        notes: 'Private note',
        billing_balance: 12,
        package_balance: 4,
      });
      expect(full.user.UserGroup).toMatchObject({ id: 190 });
      expect(full.user.UserCertificate.map((c: any) => c.type)).toEqual(['PPL']);
      expect(full.user.UserLogin).toHaveLength(1);
    });

    it.each(FULL_VIEWERS)('role <= 150 (%s) gets exactly the full view', async (email) => {
      expect(await view(email, vera)).toEqual(await view('admin@skyline.test', vera));
    });

    it.each(REDUCED_VIEWERS)('role > 150 (%s) gets exactly the full view minus the listed keys', async (email) => {
      const full = await view('admin@skyline.test', vera);
      expect(await view(email, vera)).toEqual(without(full, HIDDEN_USER, HIDDEN_DETAIL, HIDDEN_WHOLE));
    });

    it.each(REDUCED_VIEWERS)(
      'role > 150 (%s) sees their own record whole, except notes and balances',
      async (email) => {
        const id = s.userId(email);
        await s.ctx.db.updateTable('users').set({ notes: 'About me' }).where('id', '=', id).execute();
        await bookBalance(s, s.refs.companies.skyline, id, 5);
        const full = await view('admin@skyline.test', id);
        const own = await view(email);
        expect(own).toEqual(without(full, [], ['notes', 'billing_balance', 'package_balance'], []));
        expect(own.user.User.email).toBe(email);
      },
    );
  });

  describe('edit rules', () => {
    const edit = async (email: string, body: unknown) =>
      s.api('POST', '/pilots/edit.json', { token: await tok(email), body });

    it('role 1 is given only by role 1; nobody gives a role above their own', async () => {
      const id = await addUser(s, { name: 'Role', surname: 'One' });
      const denied = await edit('admin@skyline.test', { User: { id, user_group_id: 1 } });
      expect(denied.status).toBe(400);
      expect(denied.body.errors[0]).toMatch(/^User\.user_group_id: /);
      expect((await userRow(s, id)).user_group_id).toBe(190);
      const safety = await edit('safety@skyline.test', { User: { id, user_group_id: 105 } });
      expect(safety.status).toBe(400);
      expect((await userRow(s, id)).user_group_id).toBe(190);
      expect((await edit('root@skyline.test', { User: { id, user_group_id: 100 } })).status).toBe(200);
      expect((await userRow(s, id)).user_group_id).toBe(100);
      // Now above the head of training: 403, not a silent edit.
      expect((await edit('headtraining@skyline.test', { User: { id }, UserDetail: { city: 'X' } })).status).toBe(403);
    });

    it('a new address while the old login serves other companies: a new login with the same password, the other account untouched', async () => {
      const skyline = await addUser(s, { name: 'Two', surname: 'Homes', email: 'two.homes@people.test', login: true });
      const identity = (await userRow(s, skyline)).identity_id;
      const harbor = await addUser(s, {
        company: 'harbor',
        name: 'Two',
        surname: 'Homes',
        email: 'two.homes@people.test',
        identityId: identity,
      });
      const r = await edit('admin@skyline.test', {
        User: { id: skyline, email: 'two.homes.new@people.test', send_email: true },
      });
      expect(r.status).toBe(200);
      const moved = await userRow(s, skyline);
      expect(moved.email).toBe('two.homes.new@people.test');
      expect(moved.email_status).toBe('unconfirmed');
      expect(moved.identity_id).not.toBe(identity);
      expect((await mailsTo(s, 'two.homes.new@people.test')).map((m) => m.template)).toEqual(['confirm']);
      const other = await userRow(s, harbor);
      expect(other).toMatchObject({ email: 'two.homes@people.test', identity_id: identity });
      // Both addresses sign in with the same password.
      expect(await s.login('two.homes.new@people.test')).toMatch(/^ses_/);
      expect(await s.login('two.homes@people.test')).toMatch(/^ses_/);
    });

    it('an account without a login gets a pending one and an `activation` mail; clearing the email leaves no login', async () => {
      const id = await addUser(s, { name: 'No', surname: 'Login' });
      const r = await edit('admin@skyline.test', { User: { id, email: 'first.login@people.test', send_email: true } });
      expect(r.status).toBe(200);
      const u = await userRow(s, id);
      expect(u.email_status).toBe('pending');
      expect(u.identity_id).toBeTruthy();
      expect((await mailsTo(s, 'first.login@people.test')).map((m) => m.template)).toEqual(['activation']);
      const history = await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(history.body.changes[0].UserChange.fields).toEqual(
        expect.arrayContaining([{ field: 'email', from: null, to: 'first.login@people.test' }]),
      );
      await edit('admin@skyline.test', { User: { id, email: '' } });
      expect(await userRow(s, id)).toMatchObject({ email: null, identity_id: null, email_status: 'pending' });
    });

    it('preference changes are written to the account history as preferences.*', async () => {
      const id = await addUser(s, { name: 'Pref', surname: 'History', email: 'pref.history@people.test', login: true });
      await edit('admin@skyline.test', { User: { id, newsletter: true, whatsapp: true } });
      const history = await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(history.body.changes[0].UserChange.fields).toEqual([{ field: 'preferences.newsletter', from: 0, to: 1 }]);
    });

    it('an edit that changes nothing writes no history row', async () => {
      const id = await addUser(s, { name: 'Same', surname: 'Same', city: 'Vigo' });
      await edit('admin@skyline.test', { User: { id }, UserDetail: { city: 'Vigo' } });
      const history = await s.api('GET', `/pilots/changes/${id}.json`, { token: await tok('admin@skyline.test') });
      expect(history.body.changes).toEqual([]);
    });
  });

  describe('directory replication (`users` collection)', () => {
    it('create, edit and bulk deactivation reach devices, with role-based fields', async () => {
      const staff = await tok('admin@skyline.test');
      const pilot = await tok('pilot@skyline.test');
      const s0 = await pullAll(s, staff, 'users');
      const p0 = await pullAll(s, pilot, 'users');
      const paula = p0.docs.find((d) => d.id === s.userId('pilot@skyline.test'));
      expect(paula.email).toBe('pilot@skyline.test');
      expect(
        p0.docs
          .filter((d) => d.id !== paula.id)
          .every((d) => d.email === null && d.user_group_id === null && d.phone === null),
      ).toBe(true);
      expect(p0.docs.map((d) => d.id)).not.toContain(s.userId('pilot@harbor.test', 'harbor'));

      const created = await s.api('POST', '/pilots/create.json', {
        token: staff,
        body: {
          User: { email: 'synced@people.test' },
          UserDetail: { name: 'Sync', surname: 'Ed', city: 'Soria', phone: '611' },
        },
      });
      expect(created.status).toBe(200);
      const s1 = await pullAll(s, staff, 'users', s0.checkpoint);
      const p1 = await pullAll(s, pilot, 'users', p0.checkpoint);
      expect(s1.docs.find((d) => d.id === created.body.id)).toMatchObject({
        name: 'Sync',
        surname: 'Ed',
        email: 'synced@people.test',
        city: 'Soria',
        phone: '611',
        user_group_id: 190,
        active: true,
        pilot: true,
      });
      expect(p1.docs.find((d) => d.id === created.body.id)).toMatchObject({
        name: 'Sync',
        surname: 'Ed',
        email: null,
        city: null,
        phone: null,
        user_group_id: null,
        active: true,
      });

      await s.api('POST', '/pilots/edit.json', {
        token: staff,
        body: { User: { id: created.body.id }, UserDetail: { surname: 'Edited', city: 'Burgos' } },
      });
      const s2 = await pullAll(s, staff, 'users', s1.checkpoint);
      const p2 = await pullAll(s, pilot, 'users', p1.checkpoint);
      expect(s2.docs.find((d) => d.id === created.body.id)).toMatchObject({ surname: 'Edited', city: 'Burgos' });
      expect(p2.docs.find((d) => d.id === created.body.id)).toMatchObject({ surname: 'Edited', city: null });

      const group = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: staff,
        body: { PilotGroup: { name: 'Sync Group', User: [{ id: created.body.id }] } },
      });
      expect((await s.api('GET', `/pilot_groups/manager_do/${group.body.id}/0.json`, { token: staff })).status).toBe(
        200,
      );
      const p3 = await pullAll(s, pilot, 'users', p2.checkpoint);
      expect(p3.docs.find((d) => d.id === created.body.id)).toMatchObject({ active: false });
    });
  });
});
