import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

describe.each(DIALECTS)('own profile on %s', (dialect) => {
  let s: TestServer;
  let pilot: string;
  const editOwn = (body: unknown, token = pilot) => s.api('POST', '/users/edit.json', { token, body });
  const view = async (token = pilot) => (await s.api('GET', '/users/view.json', { token })).body;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    pilot = await s.login('pilot@skyline.test');
  });
  afterAll(() => s?.close());

  it('every endpoint needs credentials', async () => {
    for (const [method, path] of [
      ['GET', '/users/view.json'],
      ['POST', '/users/edit.json'],
      ['POST', '/users/email.json'],
      ['POST', '/users/confirm_email.json'],
      ['POST', '/users/password.json'],
      ['GET', '/users/logins.json'],
      ['POST', '/users/closesession/abc.json'],
      ['GET', '/users/user_groups.json'],
      ['GET', '/users/user_groups/1.json'],
      ['GET', '/users/countries.json'],
      ['GET', '/users/timezones.json'],
    ]) {
      expect((await s.api(method, path, method === 'POST' ? { body: {} } : {})).status, path).toBe(401);
    }
  });

  it('view answers User (with the login preferences), UserDetail and UserGroup', async () => {
    const me = await view();
    expect(me.User).toMatchObject({
      id: s.userId('pilot@skyline.test'),
      email: 'pilot@skyline.test',
      user_group_id: 190,
      two_factor: 'OFF',
      alerts: true,
      message_alerts: true,
      newsletter: false,
      whatsapp: false,
      active: true,
      pilot: true,
    });
    expect(me.UserDetail).toMatchObject({
      name: 'Paula',
      surname: 'Pilot',
      country_id: 'ES',
      timezone_id: 'Europe/Madrid',
    });
    expect(me.UserGroup).toEqual({ id: 190, name: 'Pilot', role: 'pilot' });
    // The auditor's own record is not masked.
    expect((await view(await s.login('auditor@skyline.test'))).User.email).toBe('auditor@skyline.test');
  });

  it('edit changes only the posted fields and answers the profile', async () => {
    const before = await s.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    const r = await editOwn({
      UserDetail: {
        phone: '600 000 111',
        phonecode: '+34',
        city: 'Madrid',
        dob: '1990-05-17',
        country_id: 'pt',
        timezone_id: 'Europe/Lisbon',
      },
      User: { language: 'es' },
    });
    expect(r.status).toBe(200);
    expect(r.body.UserDetail).toMatchObject({
      phone: '600 000 111',
      phonecode: '+34',
      city: 'Madrid',
      dob: '1990-05-17',
      country_id: 'PT',
      timezone_id: 'Europe/Lisbon',
      name: 'Paula',
      address: null,
    });
    expect(r.body.User.language).toBe('es');
    const after = await s.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    expect(after.change_no).toBeGreaterThan(before.change_no);
    expect(after.email).toBe(before.email);
    // Fields outside the profile are ignored: no role, email or notes through here.
    await editOwn({ User: { user_group_id: 1, email: 'x@y.z', active: 0 }, UserDetail: { notes: 'self-praise' } });
    expect(
      await s.ctx.db
        .selectFrom('users')
        .select(['user_group_id', 'email', 'active', 'notes'])
        .where('id', '=', s.userId('pilot@skyline.test'))
        .executeTakeFirstOrThrow(),
    ).toEqual({ user_group_id: 190, email: 'pilot@skyline.test', active: 1, notes: null });
    // An empty value clears an optional field.
    expect((await editOwn({ UserDetail: { city: '' } })).body.UserDetail.city).toBeNull();
  });

  it('rejects bad values with field errors and changes nothing', async () => {
    const before = await view();
    const cases: Array<[unknown, string]> = [
      [{ UserDetail: { name: '' } }, 'UserDetail.name'],
      [{ UserDetail: { dob: '1990-02-30' } }, 'UserDetail.dob'],
      [{ UserDetail: { dob: '2999-01-01' } }, 'UserDetail.dob'],
      [{ UserDetail: { country_id: 'ZZ' } }, 'UserDetail.country_id'],
      [{ UserDetail: { timezone_id: 'Europe/Gondor' } }, 'UserDetail.timezone_id'],
      [{ UserDetail: { color: 'red' } }, 'UserDetail.color'],
      [{ UserDetail: { phone: 'call me' } }, 'UserDetail.phone'],
      [{ User: { two_factor: 'SMS' } }, 'User.two_factor'],
      [{ User: { two_factor: 'TOTP' } }, 'User.two_factor'],
      [{ User: { whatsapp: true } }, 'User.whatsapp'],
      [{ User: { newsletter: 'often' } }, 'User.newsletter'],
    ];
    for (const [body, field] of cases) {
      const r = await editOwn({
        ...(body as object),
        UserDetail: { city: 'Changed', ...((body as any).UserDetail ?? {}) },
      });
      expect(r.status, field).toBe(400);
      expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(field);
    }
    expect(await view()).toEqual(before);
    // An external auditor never leaves EMAIL codes.
    const auditor = await s.login('auditor@skyline.test');
    const off = await editOwn({ User: { two_factor: 'OFF' } }, auditor);
    expect(off.status).toBe(400);
    expect((await view(auditor)).User.two_factor).toBe('EMAIL');
  });

  it('preferences live on the login: every company account of the email shares them; WhatsApp only switches off', async () => {
    const sky = await s.api('POST', '/login.json', {
      body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.skyline },
    });
    const harbor = await s.api('POST', '/login.json', {
      body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.harbor },
    });
    const r = await editOwn({ User: { newsletter: true, alerts: '0', message_alerts: false } }, sky.body.token);
    expect(r.status).toBe(200);
    expect(r.body.User).toMatchObject({ newsletter: true, alerts: false, message_alerts: false });
    expect((await view(harbor.body.token)).User).toMatchObject({
      newsletter: true,
      alerts: false,
      message_alerts: false,
      whatsapp: false,
    });
    await s.ctx.db.updateTable('identities').set({ whatsapp: 1 }).where('email', '=', 'dual@demo.test').execute();
    expect((await editOwn({ User: { whatsapp: true } }, harbor.body.token)).status).toBe(200);
    expect((await editOwn({ User: { whatsapp: false } }, harbor.body.token)).body.User.whatsapp).toBe(false);
    expect((await view(sky.body.token)).User.whatsapp).toBe(false);
    expect((await editOwn({ User: { whatsapp: true } }, sky.body.token)).status).toBe(400);
  });

  it('profile changes replicate through the users collection', async () => {
    const token = await s.login('ops@skyline.test');
    const first = await pullAll(s, token, 'users');
    await editOwn({ UserDetail: { surname: 'Pilot-Smith' } });
    const next = await pullAll(s, token, 'users', first.checkpoint);
    expect(next.docs.find((d) => d.id === s.userId('pilot@skyline.test')).surname).toBe('Pilot-Smith');
  });

  it('user groups: the company roles, or the staff ones; the platform role only for role 1', async () => {
    const all = (await s.api('GET', '/users/user_groups.json', { token: pilot })).body.user_groups.map(
      (g: any) => g.UserGroup.id,
    );
    expect(all).toEqual([100, 105, 110, 120, 135, 150, 170, 190, 200, 250, 300]);
    const staff = (await s.api('GET', '/users/user_groups/1.json', { token: pilot })).body.user_groups;
    expect(staff.map((g: any) => g.UserGroup.id)).toEqual([100, 105, 110, 120, 135, 150, 170]);
    expect(staff[0]).toEqual({ UserGroup: { id: 100, name: 'Company administrator', role: 'company_admin' } });
    const root = (await s.api('GET', '/users/user_groups.json', { token: await s.login('root@skyline.test') })).body
      .user_groups;
    expect(root[0].UserGroup.id).toBe(1);
    expect((await s.api('GET', '/users/user_groups/2.json', { token: pilot })).status).toBe(400);
  });

  it('countries and time zones are id → name maps', async () => {
    const countries = (await s.api('GET', '/users/countries.json', { token: pilot })).body;
    expect(countries.ES).toBe('Spain');
    expect(countries.US).toBe('United States of America');
    expect(Object.keys(countries).length).toBeGreaterThanOrEqual(249);
    expect(Object.keys(countries).every((k) => /^[A-Z]{2}$/.test(k))).toBe(true);
    const zones = (await s.api('GET', '/users/timezones.json', { token: pilot })).body;
    expect(zones['Europe/Madrid']).toBe('Europe/Madrid');
    expect(zones.UTC).toBe('UTC');
    expect(Object.keys(zones).length).toBeGreaterThan(300);
  });
});
