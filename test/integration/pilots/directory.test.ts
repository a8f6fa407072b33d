import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, tokens } from './people-helpers.ts';

describe.each(DIALECTS)('Pilot list and directory on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let zelda: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    zelda = await addUser(s, {
      name: 'Zelda',
      surname: 'Quartermain',
      companyid: 'EMP-77',
      passport: 'XK1234567',
      email: 'zq.search@people.test',
      phone: '600111222',
      city: 'Getafe',
      billingBalance: 125.5,
    });
  });
  afterAll(() => s?.close());

  const get = async (email: string, path: string) => s.api('GET', path, { token: await tok(email) });
  const index = async (email: string, named = '') => get(email, `/pilots/index${named}.json`);
  const names = (body: any) => body.pilots.map((p: any) => `${p.UserDetail.name} ${p.UserDetail.surname}`);

  it('answers 401 without a token', async () => {
    expect((await s.api('GET', '/pilots/list.json')).status).toBe(401);
    expect((await s.api('GET', '/pilots/list/active:all.json')).status).toBe(401);
    expect((await s.api('GET', '/pilots/index.json')).status).toBe(401);
    expect((await s.api('GET', '/pilots/index/excel:1.json')).status).toBe(401);
  });

  describe('list', () => {
    it('defaults to active pilots, sorted by role, name, surname; deleted and other companies never appear', async () => {
      const inactive = await addUser(s, { name: 'Ines', surname: 'Inactive', active: false });
      const deleted = await addUser(s, { name: 'Dora', surname: 'Deleted' });
      await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', deleted).execute();
      const r = await get('admin@skyline.test', '/pilots/list.json');
      expect(r.status).toBe(200);
      const ids = r.body.pilots.map((p: any) => p.id);
      expect(ids).toContain(s.userId('pilot@skyline.test'));
      expect(ids).not.toContain(inactive);
      expect(ids).not.toContain(deleted);
      expect(ids).not.toContain(s.userId('mechanic@skyline.test'));
      expect(ids).not.toContain(s.userId('pilot@harbor.test', 'harbor'));
      expect(r.body.pilots.every((p: any) => p.active && p.pilot)).toBe(true);
      const keys = r.body.pilots.map((p: any) => [p.user_group_id, p.name, p.surname]);
      const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]));
      expect(keys).toEqual(sorted);
      expect(Object.keys(r.body.pilots[0]).sort()).toEqual([
        'active',
        'id',
        'name',
        'pilot',
        'surname',
        'user_group_id',
      ]);
    });

    it('active and pilot take 1, 0 or all', async () => {
      const token = 'admin@skyline.test';
      const all = await get(token, '/pilots/list/active:all/pilot:all.json');
      const allIds = all.body.pilots.map((p: any) => p.id);
      expect(allIds).toContain(s.userId('mechanic@skyline.test'));
      expect(all.body.pilots.some((p: any) => !p.active)).toBe(true);
      const nonPilots = await get(token, '/pilots/list/pilot:0.json');
      expect(nonPilots.body.pilots.length).toBeGreaterThan(0);
      expect(nonPilots.body.pilots.every((p: any) => !p.pilot && p.active)).toBe(true);
      expect(nonPilots.body.pilots.map((p: any) => p.id)).toContain(s.userId('mechanic@skyline.test'));
      const inactive = await get(token, '/pilots/list/active:0.json');
      expect(inactive.body.pilots.every((p: any) => !p.active && p.pilot)).toBe(true);
      expect(inactive.body.pilots.length).toBeGreaterThan(0);
      expect((await get(token, '/pilots/list/active:maybe.json')).status).toBe(400);
      expect((await get(token, '/pilots/list/colour:red.json')).status).toBe(400);
    });

    it('viewers above 150 get the others’ role number as null (as in the replicated directory)', async () => {
      const r = await get('pilot@skyline.test', '/pilots/list.json');
      expect(r.status).toBe(200);
      const me = r.body.pilots.find((p: any) => p.id === s.userId('pilot@skyline.test'));
      expect(me.user_group_id).toBe(190);
      expect(r.body.pilots.filter((p: any) => p.id !== me.id).every((p: any) => p.user_group_id === null)).toBe(true);
    });
  });

  describe('index', () => {
    it('paginates in SQL with a paginate block, by role then name', async () => {
      const first = await index('admin@skyline.test', '/limit:3');
      expect(first.status).toBe(200);
      const total = first.body.paginate.count;
      expect(total).toBeGreaterThan(6);
      expect(first.body.paginate).toEqual({
        page: 1,
        current: 3,
        count: total,
        prevPage: false,
        nextPage: true,
        pageCount: Math.ceil(total / 3),
        limit: 3,
      });
      const second = await index('admin@skyline.test', '/page:2/limit:3');
      expect(second.body.paginate).toMatchObject({ page: 2, current: 3, prevPage: true, nextPage: true });
      const everything = await index('admin@skyline.test', '/limit:1000');
      expect(everything.body.pilots.length).toBe(total);
      expect(names(second.body)).toEqual(names(everything.body).slice(3, 6));
      const roles = everything.body.pilots.map((p: any) => p.User.user_group_id);
      expect(roles).toEqual([...roles].sort((a: number, b: number) => a - b));
      const last = await index('admin@skyline.test', `/page:${Math.ceil(total / 3)}/limit:3`);
      expect(last.body.paginate.nextPage).toBe(false);
      expect(everything.body.pilots.map((p: any) => p.User.id)).not.toContain(s.userId('pilot@harbor.test', 'harbor'));
    });

    it('default limit is 50, the maximum 100000 (clamped), bad parameters are 400', async () => {
      expect((await index('admin@skyline.test')).body.paginate.limit).toBe(50);
      expect((await index('admin@skyline.test', '/limit:250000')).body.paginate.limit).toBe(100000);
      expect((await index('admin@skyline.test', '/page:0')).status).toBe(400);
      expect((await index('admin@skyline.test', '/limit:abc')).status).toBe(400);
      const unknown = await index('admin@skyline.test', '/sort:name');
      expect(unknown.status).toBe(400);
      expect(unknown.body.result).toBe(false);
      // An empty value skips the filter.
      expect((await index('admin@skyline.test', '/search:/limit:1000')).body.paginate.count).toBe(
        (await index('admin@skyline.test', '/limit:1000')).body.paginate.count,
      );
    });

    it.each([
      ['name', 'zeld'],
      ['surname', 'QUARTER'],
      ['name then surname', 'zelda quartermain'],
      ['surname then name', 'Quartermain Zelda'],
      ['company id', 'emp-77'],
      ['passport', 'XK1234567'],
      ['email prefix', 'zq.sea'],
    ])('search matches the %s', async (_what, term) => {
      const r = await index('admin@skyline.test', `/search:${encodeURIComponent(term)}`);
      expect(r.status).toBe(200);
      expect(r.body.pilots.map((p: any) => p.User.id)).toEqual([zelda]);
    });

    it('search ignores case in accented names too (SQLite folds only ASCII case)', async () => {
      const angel = await addUser(s, { name: 'Ángel', surname: 'Úbeda Núñez' });
      try {
        for (const term of [
          'Ángel',
          'ángel',
          'ÁNGEL',
          'úbeda',
          'ÚBEDA NÚÑEZ',
          'núñez',
          'ángel úbeda',
          'úbeda núñez ángel',
          'ngel',
        ]) {
          const r = await index('admin@skyline.test', `/search:${encodeURIComponent(term)}`);
          expect(r.status, term).toBe(200);
          expect(
            r.body.pilots.map((p: any) => p.User.id),
            term,
          ).toEqual([angel]);
        }
        const reduced = await index('student@skyline.test', `/search:${encodeURIComponent('ángel')}`);
        expect(reduced.body.pilots).toEqual([]);
      } finally {
        await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', angel).execute();
      }
    });

    it('search matches an exact user id, and not partial ids, email middles or passport prefixes', async () => {
      expect((await index('admin@skyline.test', `/search:${zelda}`)).body.pilots.map((p: any) => p.User.id)).toEqual([
        zelda,
      ]);
      for (const term of [zelda.slice(0, 12), 'search@people', 'XK123', 'EMP-7', 'zz%', '%']) {
        const r = await index('admin@skyline.test', `/search:${encodeURIComponent(term)}`);
        expect(
          r.body.pilots.map((p: any) => p.User.id),
          term,
        ).not.toContain(zelda);
      }
    });

    it('filters by role (150 means every role <= 150), base, active, pilot and pilot group', async () => {
      const staff = await index('admin@skyline.test', '/user_group_id:150/limit:1000');
      const roles = staff.body.pilots.map((p: any) => p.User.user_group_id);
      expect(roles.length).toBeGreaterThan(3);
      expect(roles.every((r: number) => r <= 150)).toBe(true);
      expect(roles).toEqual(expect.arrayContaining([1, 100, 150]));
      const pilots190 = await index('admin@skyline.test', '/user_group_id:190/limit:1000');
      expect(pilots190.body.pilots.every((p: any) => p.User.user_group_id === 190)).toBe(true);

      const sab = await addUser(s, { name: 'Sabina', surname: 'Sabadell', base: s.refs.bases['Sabadell'] });
      const byBase = await index('admin@skyline.test', `/base_id:${s.refs.bases['Sabadell']}`);
      expect(byBase.body.pilots.map((p: any) => p.User.id)).toEqual([sab]);
      expect(byBase.body.pilots[0].Base).toEqual({
        id: s.refs.bases['Sabadell'],
        name: 'Sabadell',
        airport_id: 'LELL',
      });

      const off = await addUser(s, { name: 'Olga', surname: 'Offline', active: false });
      const inactive = await index('admin@skyline.test', '/active:false/limit:1000');
      expect(inactive.body.pilots.map((p: any) => p.User.id)).toContain(off);
      expect(inactive.body.pilots.every((p: any) => p.User.active === false)).toBe(true);
      const nonPilots = await index('admin@skyline.test', '/pilot:0/limit:1000');
      expect(nonPilots.body.pilots.every((p: any) => p.User.pilot === false)).toBe(true);
      expect(nonPilots.body.pilots.map((p: any) => p.User.id)).toContain(s.userId('mechanic@skyline.test'));

      const group = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: await tok('admin@skyline.test'),
        body: { PilotGroup: { name: 'Directory Group', color: '#123456', User: [{ id: zelda }, { id: sab }] } },
      });
      const other = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: await tok('admin@skyline.test'),
        body: { PilotGroup: { name: 'Second Group', color: '#654321', User: [{ id: zelda }] } },
      });
      const byGroup = await index('admin@skyline.test', `/pilot_group:${group.body.id}`);
      expect(byGroup.body.pilots.map((p: any) => p.User.id).sort()).toEqual([zelda, sab].sort());
      const z = byGroup.body.pilots.find((p: any) => p.User.id === zelda);
      // PilotGroup is reshaped to a map colour → group name.
      expect(z.PilotGroup).toEqual({ '#123456': 'Directory Group', '#654321': 'Second Group' });
      expect(other.status).toBe(200);
      const harborGroup = await s.api('POST', '/pilot_groups/manager_add.json', {
        token: await tok('admin@harbor.test'),
        body: { PilotGroup: { name: 'H', User: [{ id: s.userId('pilot@harbor.test', 'harbor') }] } },
      });
      expect((await index('admin@skyline.test', `/pilot_group:${harborGroup.body.id}`)).body.pilots).toEqual([]);
    });

    it('shows billing balances to roles <= 150 only when the plan is paid and billing is on', async () => {
      const admin = await index('admin@skyline.test', `/search:${zelda}`);
      expect(admin.body.pilots[0].UserDetail).toMatchObject({ billing_balance: 125.5, package_balance: 0 });
      const instructor = await index('instructor@skyline.test', `/search:${zelda}`);
      expect(instructor.body.pilots[0].UserDetail.billing_balance).toBe(125.5);
      const dispatcher = await index('dispatch@skyline.test', '/search:zelda');
      expect(dispatcher.body.pilots[0].UserDetail).not.toHaveProperty('billing_balance');
      const harbor = await index('admin@harbor.test');
      expect(harbor.body.pilots.length).toBeGreaterThan(0);
      expect(
        harbor.body.pilots.every(
          (p: any) => !('billing_balance' in p.UserDetail) && !('package_balance' in p.UserDetail),
        ),
      ).toBe(true);
      await s.ctx.db
        .updateTable('companies')
        .set({ billing_enabled: 0 })
        .where('id', '=', s.refs.companies.skyline)
        .execute();
      const off = await index('admin@skyline.test', `/search:${zelda}`);
      expect(off.body.pilots[0].UserDetail).not.toHaveProperty('billing_balance');
      await s.ctx.db
        .updateTable('companies')
        .set({ billing_enabled: 1 })
        .where('id', '=', s.refs.companies.skyline)
        .execute();
    });

    it('full rows for roles <= 150; a dispatcher (170) gets others’ contact fields and role as null, not their own', async () => {
      const admin = await index('admin@skyline.test', `/search:${zelda}`);
      const row = admin.body.pilots[0];
      expect(row.User).toMatchObject({
        id: zelda,
        email: 'zq.search@people.test',
        email_status: 'confirmed',
        user_group_id: 190,
        active: true,
        pilot: true,
      });
      expect(row.UserDetail).toMatchObject({
        name: 'Zelda',
        phone: '600111222',
        passport: 'XK1234567',
        city: 'Getafe',
        companyid: 'EMP-77',
      });
      expect(row.UserGroup).toEqual({ name: 'Pilot' });
      const d = await index('dispatch@skyline.test', '/search:zelda');
      const masked = d.body.pilots[0];
      expect(masked.User).toMatchObject({ id: zelda, email: null, email_status: null, user_group_id: null });
      expect(masked.UserDetail).toMatchObject({
        name: 'Zelda',
        phone: null,
        passport: null,
        city: null,
        address: null,
        pc: null,
      });
      expect(masked.UserGroup.name).toBeNull();
      const own = await index('dispatch@skyline.test', '/search:diego');
      expect(own.body.pilots[0].User.email).toBe('dispatch@skyline.test');
    });

    it('viewers above 170 get the reduced view of staff only, and search by name only', async () => {
      for (const email of ['student@skyline.test', 'pilot@skyline.test', 'auditor@skyline.test']) {
        const r = await index(email, '/limit:1000');
        expect(r.status, email).toBe(200);
        expect(r.body.pilots.length).toBeGreaterThan(0);
        const ids = r.body.pilots.map((p: any) => p.User.id);
        expect(ids).toContain(s.userId('instructor@skyline.test'));
        expect(ids).not.toContain(s.userId('pilot@skyline.test'));
        expect(ids).not.toContain(zelda);
        for (const p of r.body.pilots) {
          expect(Object.keys(p.User).sort()).toEqual(['active', 'id', 'pilot']);
          expect(Object.keys(p.UserDetail).sort()).toEqual(['name', 'photo', 'surname']);
          expect(p.UserGroup).toBeUndefined();
          expect(p.PilotGroup).toBeUndefined();
        }
      }
      const byName = await index('student@skyline.test', '/search:ivan');
      expect(byName.body.pilots.map((p: any) => p.User.id)).toEqual([s.userId('instructor@skyline.test')]);
      const byEmail = await index('student@skyline.test', '/search:instructor%40');
      expect(byEmail.body.pilots).toEqual([]);
    });

    it('excel:1 answers a real .xlsx with the same rows as the JSON page', async () => {
      const res = await fetch(`${s.baseUrl}/pilots/index/user_group_id:150/excel:1.json`, {
        headers: { authorization: `Bearer ${await tok('admin@skyline.test')}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers.get('content-disposition')).toContain('pilots.xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await res.arrayBuffer());
      const ws = wb.getWorksheet('Pilots')!;
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(
        expect.arrayContaining([
          'Name',
          'Surname',
          'Email',
          'Role',
          'Active',
          'Pilot',
          'Base',
          'Passport',
          'Groups',
          'Billing balance',
        ]),
      );
      const json = await index('admin@skyline.test', '/user_group_id:150/limit:1000');
      expect(ws.rowCount - 1).toBe(json.body.paginate.count);
      const col = (name: string) => header.indexOf(name) + 1;
      const sheetRows = [];
      for (let i = 2; i <= ws.rowCount; i++) {
        const row = ws.getRow(i);
        sheetRows.push(`${row.getCell(col('Name')).value} ${row.getCell(col('Surname')).value}`);
      }
      expect(sheetRows).toEqual(names(json.body));
      const ana = json.body.pilots.findIndex((p: any) => p.User.email === 'admin@skyline.test');
      expect(ws.getRow(ana + 2).getCell(col('Email')).value).toBe('admin@skyline.test');
      expect(ws.getRow(ana + 2).getCell(col('Role')).value).toBe('Company administrator');
    });

    it('a reduced viewer’s export has no contact columns', async () => {
      const res = await fetch(`${s.baseUrl}/pilots/index/excel:1.json`, {
        headers: { authorization: `Bearer ${await tok('student@skyline.test')}` },
      });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await res.arrayBuffer());
      const ws = wb.getWorksheet('Pilots')!;
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(['Name', 'Surname', 'Active', 'Pilot', 'Base']);
      expect(ws.rowCount).toBeGreaterThan(1);
    });
  });
});
