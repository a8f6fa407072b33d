import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

const MASKED = ['email', 'phone', 'phone2', 'address', 'city', 'pc', 'passport'];

describe.each(DIALECTS)('user administration reads on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  let auditor: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await s.login('admin@skyline.test');
    auditor = await s.login('auditor@skyline.test');
    await s.ctx.db
      .updateTable('users')
      .set({
        phone: '600111222',
        phone2: '600333444',
        address: 'Calle Mayor 1',
        city: 'Madrid',
        pc: '28001',
        passport: 'X1234567',
        notes: 'Good pilot',
      })
      .where('id', '=', s.userId('pilot@skyline.test'))
      .execute();
  });
  afterAll(() => s?.close());

  it('need credentials', async () => {
    for (const p of [
      '/manager/users.json',
      '/manager/users/list.json',
      `/manager/users/view/${s.userId('pilot@skyline.test')}.json`,
      '/manager/bills/pilots.json',
    ]) {
      expect((await s.api('GET', p)).status, p).toBe(401);
    }
  });

  it('are for managers (<= 110) and the external auditor only', async () => {
    for (const email of [
      'headtraining@skyline.test',
      'instructor@skyline.test',
      'pilot@skyline.test',
      'mechanic@skyline.test',
    ]) {
      const t = await s.login(email);
      expect((await s.api('GET', '/manager/users.json', { token: t })).status, email).toBe(403);
      expect((await s.api('GET', '/manager/users/list.json', { token: t })).status, email).toBe(403);
      expect(
        (await s.api('GET', `/manager/users/view/${s.userId('pilot@skyline.test')}.json`, { token: t })).status,
        email,
      ).toBe(403);
      expect((await s.api('GET', '/manager/bills/pilots.json', { token: t })).status, email).toBe(403);
    }
    for (const t of [admin, await s.login('safety@skyline.test'), auditor])
      expect((await s.api('GET', '/manager/users.json', { token: t })).status).toBe(200);
  });

  it('list: the spec shape, by role then name, paged in SQL with totals in headers', async () => {
    const r = await s.api('GET', '/manager/users.json', { token: admin });
    expect(r.body.length).toBe(13);
    expect(r.body.map((u: any) => u.User.user_group_id)).toEqual([
      1, 100, 105, 110, 120, 135, 150, 170, 190, 190, 200, 250, 300,
    ]);
    const pilot = r.body.find((u: any) => u.User.email === 'pilot@skyline.test');
    expect(pilot).toEqual({
      User: {
        id: s.userId('pilot@skyline.test'),
        active: true,
        email_status: 'confirmed',
        pilot: true,
        two_factor: 'OFF',
        api: false,
        email: 'pilot@skyline.test',
        user_group_id: 190,
        expiration: null,
      },
      UserDetail: { name: 'Paula', surname: 'Pilot', photo: null },
      UserGroup: { name: 'Pilot', id: 190 },
    });
    expect(r.body.find((u: any) => u.User.user_group_id === 250).User.two_factor).toBe('EMAIL');
    expect(r.headers.get('x-total-posts')).toBe('13');
    const page = await s.api('GET', '/manager/users.json?limit=5&page=3', { token: admin });
    expect(page.body.map((u: any) => u.User.user_group_id)).toEqual([200, 250, 300]);
    expect(page.headers.get('x-number-pages')).toBe('3');
    expect(
      (await s.api('GET', '/manager/users.json?search=STEF', { token: admin })).body.map((u: any) => u.UserDetail.name),
    ).toEqual(['Stefan']);
    expect((await s.api('GET', '/manager/users.json?user_group_id=190', { token: admin })).body.length).toBe(2);
    expect((await s.api('GET', '/manager/users.json?limit=0', { token: admin })).status).toBe(400);
    const harbor = await s.api('GET', '/manager/users.json', { token: await s.login('admin@harbor.test') });
    expect(harbor.body.map((u: any) => u.User.email).sort()).toEqual([
      'admin@harbor.test',
      'dual@demo.test',
      'pilot@harbor.test',
    ]);
  });

  it('list.json: id to full name of the company only', async () => {
    const r = await s.api('GET', '/manager/users/list.json', { token: admin });
    expect(Object.keys(r.body).length).toBe(13);
    expect(r.body[s.userId('student@skyline.test')]).toBe('Stefan Student');
    expect(r.body[s.userId('pilot@harbor.test', 'harbor')]).toBeUndefined();
  });

  it('view: the full account with logins and company context; another company’s user is 404', async () => {
    await s.login('pilot@skyline.test');
    const r = await s.api('GET', `/manager/users/view/${s.userId('pilot@skyline.test')}.json`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.User).toMatchObject({
      email: 'pilot@skyline.test',
      alerts: true,
      newsletter: false,
      user_group_id: 190,
    });
    expect(r.body.UserDetail).toMatchObject({ phone: '600111222', passport: 'X1234567', notes: 'Good pilot' });
    expect(r.body.Company).toMatchObject({ id: s.refs.companies.skyline, name: 'Skyline Flight Academy' });
    expect(r.body.Base).toMatchObject({ id: s.refs.bases['Cuatro Vientos'], name: 'Cuatro Vientos' });
    expect(r.body.UserLogin.length).toBeGreaterThan(0);
    expect(r.body.UserLogin[0]).toMatchObject({ method: 'password', ip: expect.any(String) });
    expect(r.body.Login).toEqual({ company_accounts: 1, activation_pending: false });
    const student = await s.api('GET', `/manager/users/view/${s.userId('student@skyline.test')}.json`, {
      token: admin,
    });
    expect(student.body.Supervisor).toEqual({
      id: s.userId('instructor@skyline.test'),
      UserDetail: { name: 'Ivan', surname: 'Instructor' },
    });
    expect(
      (await s.api('GET', `/manager/users/view/${s.userId('pilot@harbor.test', 'harbor')}.json`, { token: admin }))
        .status,
    ).toBe(404);
    expect((await s.api('GET', '/manager/users/view/nobody.json', { token: admin })).status).toBe(404);
  });

  it('the auditor gets email, phones, address, city, pc and passport as null on everyone but themself', async () => {
    const list = (await s.api('GET', '/manager/users.json', { token: auditor })).body;
    for (const u of list) {
      if (u.User.id === s.userId('auditor@skyline.test')) expect(u.User.email).toBe('auditor@skyline.test');
      else expect(u.User.email, u.UserDetail.name).toBeNull();
    }
    // Other fields stay: the rule masks the personal ones only.
    expect(list.find((u: any) => u.UserDetail.name === 'Paula').User.user_group_id).toBe(190);
    const view = (await s.api('GET', `/manager/users/view/${s.userId('pilot@skyline.test')}.json`, { token: auditor }))
      .body;
    for (const f of MASKED) {
      if (f in view.User) expect(view.User[f], `User.${f}`).toBeNull();
      if (f in view.UserDetail) expect(view.UserDetail[f], `UserDetail.${f}`).toBeNull();
    }
    expect(view.UserDetail.name).toBe('Paula');
    expect(view.UserDetail.notes).toBe('Good pilot');
    const own = (await s.api('GET', `/manager/users/view/${s.userId('auditor@skyline.test')}.json`, { token: auditor }))
      .body;
    expect(own.User.email).toBe('auditor@skyline.test');
    // A manager sees everything.
    const byAdmin = (await s.api('GET', '/manager/users.json', { token: admin })).body;
    expect(byAdmin.every((u: any) => typeof u.User.email === 'string')).toBe(true);
    const bills = (await s.api('GET', '/manager/bills/pilots.json', { token: auditor })).body.pilots;
    expect(bills.length).toBeGreaterThan(0);
    expect(bills.every((p: any) => p.email === null)).toBe(true);
    // list.json holds only names: nothing to mask, the same map as a manager's.
    const names = await s.api('GET', '/manager/users/list.json', { token: auditor });
    expect(names.status).toBe(200);
    expect(names.body).toEqual((await s.api('GET', '/manager/users/list.json', { token: admin })).body);
    expect(Object.values(names.body).every((v) => typeof v === 'string' && !v.includes('@'))).toBe(true);
    // Every other 4.4 endpoint writes, and the auditor never writes (users-write.test.ts, reminder.test.ts).
  });

  it('bills: the billed accounts in the pilot-list shape; paid plans only', async () => {
    const r = await s.api('GET', '/manager/bills/pilots.json', { token: admin });
    expect(r.status).toBe(200);
    // Seeded billing: roles 190 to 200 (Paula, Dana, Stefan).
    expect(r.body.pilots.map((p: any) => `${p.name} ${p.surname}`)).toEqual([
      'Dana Dual',
      'Paula Pilot',
      'Stefan Student',
    ]);
    expect(r.body.pilots[0]).toEqual({
      id: s.userId('dual@demo.test'),
      name: 'Dana',
      surname: 'Dual',
      user_group_id: 190,
      active: true,
      pilot: true,
      billing: true,
      base_id: s.refs.bases['Cuatro Vientos'],
      email: 'dual@demo.test',
    });
    expect(r.body.paginate).toEqual({
      page: 1,
      current: 3,
      count: 3,
      prevPage: false,
      nextPage: false,
      pageCount: 1,
      limit: 100000,
    });
    const p2 = await s.api('GET', '/manager/bills/pilots.json?limit=2&page=2', { token: admin });
    expect(p2.body.pilots.map((p: any) => p.name)).toEqual(['Stefan']);
    expect(
      (await s.api('GET', '/manager/bills/pilots.json', { token: await s.login('admin@harbor.test') })).status,
    ).toBe(403);
  });
});
