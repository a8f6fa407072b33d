import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

describe.each(DIALECTS)('permission administration on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  const setPerms = (body: unknown, token = admin) =>
    s.api('POST', '/manager/companies/permissions.json', { token, body });
  const mine = async (email: string) =>
    (await s.api('GET', '/companies/permissions.json', { token: await s.login(email) })).body;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await s.login('admin@skyline.test');
  });
  afterAll(() => s?.close());

  it('need credentials; the matrix is for managers (<= 105), changes for administrators (<= 100)', async () => {
    expect((await s.api('GET', '/manager/companies/permissions.json')).status).toBe(401);
    expect((await setPerms({ role: 190, permissions: { 'Flight.edit': true } }, null as any)).status).toBe(401);
    const ops = await s.login('ops@skyline.test');
    expect((await s.api('GET', '/manager/companies/permissions.json', { token: ops })).status).toBe(200);
    expect((await setPerms({ role: 190, permissions: { 'Flight.edit': true } }, ops)).status).toBe(403);
    expect(
      (await s.api('GET', '/manager/companies/permissions.json', { token: await s.login('safety@skyline.test') }))
        .status,
    ).toBe(403);
    expect((await mine('pilot@skyline.test'))['Flight.edit']).toBe(false);
  });

  it('answers every role with its keys and the overridden ones', async () => {
    const r = await s.api('GET', '/manager/companies/permissions.json', { token: admin });
    const pilot = r.body.roles.find((x: any) => x.role === 190);
    expect(pilot).toEqual({
      role: 190,
      name: 'Pilot',
      permissions: { 'Flight.create': true, 'Flight.edit': false, 'Flight.confirm': false },
      overridden: [],
    });
    expect(r.body.roles.map((x: any) => x.role)).toEqual([1, 100, 105, 110, 120, 135, 150, 170, 190, 200, 250, 300]);
  });

  it('rejects unknown keys, unknown roles, roles above the caller and empty changes; nothing changes', async () => {
    const bad = [
      [{ role: 190, permissions: { 'Flight.fly': true } }, 'permissions'],
      [{ role: 191, permissions: { 'Flight.edit': true } }, 'role'],
      [{ role: 1, permissions: { 'Flight.edit': false } }, 'role'],
      [{ role: 190, permissions: {} }, 'permissions'],
      [{ role: 190, permissions: { 'Flight.edit': 'perhaps' } }, 'permissions.Flight.edit'],
      [{ permissions: { 'Flight.edit': true } }, 'role'],
    ] as const;
    for (const [body, field] of bad) {
      const r = await setPerms(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.body.errors), JSON.stringify(body)).toContain(field);
    }
    const harborAdmin = await s.login('admin@harbor.test');
    expect((await setPerms({ role: 100, permissions: { 'Flight.edit': false } }, harborAdmin)).status).toBe(200);
    // An administrator (100) cannot change a role above theirs; the platform administrator can.
    const root = await s.login('root@skyline.test');
    expect((await setPerms({ role: 100, permissions: { 'Flight.confirm': false } }, root)).status).toBe(200);
    expect((await mine('admin@skyline.test'))['Flight.confirm']).toBe(false);
    expect((await setPerms({ role: 100, permissions: { 'Flight.confirm': true } }, root)).status).toBe(200);
    expect(await mine('pilot@skyline.test')).toEqual({
      'Flight.create': true,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
  });

  it('sets keys of one role in the caller’s company only; the default again removes the override', async () => {
    const r = await setPerms({ role: 190, permissions: { 'Flight.edit': true, 'Flight.create': false } });
    expect(r.status).toBe(200);
    expect(r.body.role).toEqual({
      role: 190,
      name: 'Pilot',
      permissions: { 'Flight.create': false, 'Flight.edit': true, 'Flight.confirm': false },
      overridden: ['Flight.create', 'Flight.edit'],
    });
    expect(await mine('pilot@skyline.test')).toEqual({
      'Flight.create': false,
      'Flight.edit': true,
      'Flight.confirm': false,
    });
    expect(await mine('pilot@harbor.test')).toEqual({
      'Flight.create': true,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
    expect(await mine('student@skyline.test')).toEqual({
      'Flight.create': false,
      'Flight.edit': false,
      'Flight.confirm': false,
    });
    const form = await s.api('POST', '/manager/companies/permissions.json', {
      token: admin,
      form: { 'data[role]': '190', 'data[permissions][Flight.create]': '1' },
    });
    expect(form.status).toBe(200);
    const rows = await s.ctx.db
      .selectFrom('company_permissions')
      .selectAll()
      .where('company_id', '=', s.refs.companies.skyline)
      .where('role', '=', 190)
      .execute();
    expect(rows.map((x) => x.key)).toEqual(['Flight.edit']);
  });

  it('replicates as one `permissions` reference document per company', async () => {
    const token = await s.login('student@skyline.test');
    const first = await pullAll(s, token, 'reference');
    const doc = first.docs.find((d) => d.type === 'permissions');
    expect(doc.id).toBe(`${s.refs.companies.skyline}:permissions`);
    expect(doc.data.roles['190']).toEqual({ 'Flight.create': true, 'Flight.edit': true, 'Flight.confirm': false });
    expect((await setPerms({ role: 200, permissions: { 'Flight.create': true } })).status).toBe(200);
    const next = await pullAll(s, token, 'reference', first.checkpoint);
    expect(next.docs.find((d) => d.type === 'permissions').data.roles['200']['Flight.create']).toBe(true);
    // A company that never changed anything still has its document (the defaults).
    const harbor = (await pullAll(s, await s.login('pilot@harbor.test'), 'reference')).docs.find(
      (d) => d.type === 'permissions',
    );
    expect(harbor.data.roles['200']['Flight.create']).toBe(false);
  });
});
