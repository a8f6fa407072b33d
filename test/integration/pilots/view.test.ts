import { bookBalance } from '../billing/helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { flightTypeIds, tokens } from './people-helpers.ts';

/** Part A 4.8 item 4: what each viewer gets of a pilot. */
describe.each(DIALECTS)('Pilot view visibility on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let stefan: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    stefan = s.userId('student@skyline.test');
    await s.ctx.db
      .updateTable('users')
      .set({
        phone: '600000200',
        phone2: '600000201',
        address: 'Calle Mayor 1',
        pc: '28001',
        city: 'Madrid',
        passport: 'P200',
        emergency_contact: 'Mum 600',
        notes: 'Needs crosswind practice',
        birthcountry_id: 'DE',
        nationality: 'DE',
      })
      .where('id', '=', stefan)
      .execute();
    await bookBalance(s, s.refs.companies.skyline, stefan, -42.5, 3);
    await s.login('student@skyline.test');
    const admin = await tok('admin@skyline.test');
    await s.api('POST', '/pilots/certificates/edit.json', {
      token: admin,
      body: { UserCertificate: { user_id: stefan, type: 'MED_CLASS2', expiration: '2031-01-01' } },
    });
    const group = await s.api('POST', '/pilot_groups/manager_add.json', {
      token: admin,
      body: { PilotGroup: { name: 'Students 2025', color: '#112233', User: [{ id: stefan }] } },
    });
    const types = await flightTypeIds(s);
    const r = await s.api('POST', '/pilots/edit.json', {
      token: admin,
      body: {
        User: { id: stefan },
        AttributedAircraft: { [s.refs.aircraft['EC-ABC']]: 1 },
        FlightType: { [types['Dual training']]: 1 },
        PilotGroup: { [group.body.id]: 1 },
      },
    });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  });
  afterAll(() => s?.close());

  const view = async (email: string, id?: string) =>
    s.api('GET', id ? `/pilots/view/${id}.json` : '/pilots/view.json', { token: await tok(email) });

  it('answers 401 without a token and 404 for a pilot of another company', async () => {
    expect((await s.api('GET', '/pilots/view.json')).status).toBe(401);
    expect((await s.api('GET', `/pilots/view/${stefan}.json`)).status).toBe(401);
    const r = await view('admin@skyline.test', s.userId('pilot@harbor.test', 'harbor'));
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).not.toContain('Pia');
  });

  it('returns the record with its related data', async () => {
    const r = await view('admin@skyline.test', stefan);
    expect(r.status).toBe(200);
    const u = r.body.user;
    expect(u.User).toMatchObject({
      id: stefan,
      user_group_id: 200,
      email: 'student@skyline.test',
      email_status: 'confirmed',
      active: true,
    });
    expect(u.User.user_login_count).toBeGreaterThanOrEqual(1);
    expect(u.UserDetail).toMatchObject({ name: 'Stefan', surname: 'Student', city: 'Madrid' });
    expect(u.UserDetail.Country).toEqual({ id: 'ES', name: 'Spain' });
    expect(u.UserDetail.CountryOfBirth).toEqual({ id: 'DE', name: 'Germany' });
    expect(u.UserDetail.Timezone).toEqual({ id: 'Europe/Madrid', name: 'Europe/Madrid' });
    expect(u.UserGroup).toMatchObject({ id: 200, name: 'Student pilot' });
    expect(u.Company).toEqual({ id: s.refs.companies.skyline, name: 'Skyline Flight Academy', plan: 'premium' });
    expect(u.Base).toMatchObject({ id: s.refs.bases['Cuatro Vientos'], name: 'Cuatro Vientos', airport_id: 'LECU' });
    expect(u.Supervisor).toEqual({
      id: s.userId('instructor@skyline.test'),
      UserDetail: { name: 'Ivan', surname: 'Instructor' },
    });
    expect(u.UserCertificate.map((c: any) => c.type)).toEqual(['MED_CLASS2']);
    expect(u.PilotGroup).toEqual([{ id: expect.any(String), name: 'Students 2025', color: '#112233' }]);
    expect(u.AttributedAircraft).toEqual({ [s.refs.aircraft['EC-ABC']]: 'EC-ABC' });
    expect(u.FlightType.map((t: any) => t.name)).toEqual(['Dual training']);
    expect(u.UserLogin).toHaveLength(1);
    expect(u.UserLogin[0]).toEqual({ id: expect.any(String), modified: expect.any(Number) });
  });

  it.each(['admin@skyline.test', 'headtraining@skyline.test', 'ground@skyline.test', 'instructor@skyline.test'])(
    'a viewer with role < 151 (%s) gets everything, notes, balances and preferences',
    async (email) => {
      const u = (await view(email, stefan)).body.user;
      expect(u.UserDetail).toMatchObject({
        notes: 'Needs crosswind practice',
        address: 'Calle Mayor 1',
        pc: '28001',
        city: 'Madrid',
        emergency_contact: 'Mum 600',
        phone: '600000200',
        passport: 'P200',
        billing_balance: -42.5,
        package_balance: 3,
      });
      expect(u.User).toMatchObject({
        email: 'student@skyline.test',
        user_group_id: 200,
        email_status: 'confirmed',
        alerts: true,
        message_alerts: true,
        newsletter: false,
        whatsapp: false,
      });
      expect(u.User).toHaveProperty('expiration');
      expect(u.User.user_login_count).toBeGreaterThanOrEqual(1);
      expect(u.UserCertificate).toHaveLength(1);
      expect(u.UserLogin).toHaveLength(1);
    },
  );

  it.each(['dispatch@skyline.test', 'pilot@skyline.test', 'mechanic@skyline.test', 'auditor@skyline.test'])(
    'a viewer with role > 150 (%s) loses the private fields of another pilot',
    async (email) => {
      const r = await view(email, stefan);
      expect(r.status).toBe(200);
      const u = r.body.user;
      for (const f of [
        'email',
        'user_group_id',
        'user_login_count',
        'email_status',
        'expiration',
        'alerts',
        'message_alerts',
        'newsletter',
        'whatsapp',
      ])
        expect(u.User, f).not.toHaveProperty(f);
      for (const f of [
        'phone',
        'phone2',
        'notes',
        'billing_balance',
        'package_balance',
        'address',
        'pc',
        'city',
        'emergency_contact',
        'passport',
      ])
        expect(u.UserDetail, f).not.toHaveProperty(f);
      expect(u).not.toHaveProperty('UserCertificate');
      expect(u).not.toHaveProperty('UserGroup');
      expect(u).not.toHaveProperty('UserLogin');
      // What stays: identity, base, groups, aircraft, flight types, supervisor.
      expect(u.User).toMatchObject({ id: stefan, active: true, pilot: true });
      expect(u.UserDetail).toMatchObject({ name: 'Stefan', surname: 'Student' });
      expect(u.Base.name).toBe('Cuatro Vientos');
      expect(u.PilotGroup).toHaveLength(1);
      expect(u.AttributedAircraft).toEqual({ [s.refs.aircraft['EC-ABC']]: 'EC-ABC' });
      expect(u.Supervisor.id).toBe(s.userId('instructor@skyline.test'));
      expect(JSON.stringify(r.body)).not.toContain('crosswind');
      expect(JSON.stringify(r.body)).not.toContain('600000200');
    },
  );

  it('a viewer with role > 150 sees their own private fields but never notes or balances', async () => {
    const r = await view('student@skyline.test');
    expect(r.status).toBe(200);
    const u = r.body.user;
    expect(u.User).toMatchObject({
      id: stefan,
      email: 'student@skyline.test',
      user_group_id: 200,
      email_status: 'confirmed',
      alerts: true,
    });
    expect(u.UserDetail).toMatchObject({ phone: '600000200', address: 'Calle Mayor 1', emergency_contact: 'Mum 600' });
    expect(u.UserCertificate).toHaveLength(1);
    expect(u.UserGroup.id).toBe(200);
    expect(u.UserDetail).not.toHaveProperty('notes');
    expect(u.UserDetail).not.toHaveProperty('billing_balance');
    expect(u.UserDetail).not.toHaveProperty('package_balance');
    expect((await view('student@skyline.test', stefan)).body).toEqual(r.body);
  });

  it('balances appear only when the plan is paid and billing is on', async () => {
    await s.ctx.db
      .updateTable('companies')
      .set({ billing_enabled: 0 })
      .where('id', '=', s.refs.companies.skyline)
      .execute();
    const off = await view('admin@skyline.test', stefan);
    expect(off.body.user.UserDetail).not.toHaveProperty('billing_balance');
    expect(off.body.user.UserDetail.notes).toBe('Needs crosswind practice');
    await s.ctx.db
      .updateTable('companies')
      .set({ billing_enabled: 1 })
      .where('id', '=', s.refs.companies.skyline)
      .execute();
    await bookBalance(s, s.refs.companies.harbor, s.userId('pilot@harbor.test', 'harbor'), 10);
    const free = await view('admin@harbor.test', s.userId('pilot@harbor.test', 'harbor'));
    expect(free.status).toBe(200);
    expect(free.body.user.UserDetail).not.toHaveProperty('billing_balance');
    expect(free.body.user.Company.plan).toBe('free');
  });
});
