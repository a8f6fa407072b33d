import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, DAY, HOUR, now, tokens } from '../pilots/people-helpers.ts';

describe.each(DIALECTS)('Bases on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
  });
  afterAll(() => s?.close());

  const baseRow = (id: string) =>
    s.ctx.db.selectFrom('bases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const liveBaseCount = async (company: 'skyline' | 'harbor') =>
    Number(
      (
        await s.ctx.db
          .selectFrom('bases')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', s.refs.companies[company])
          .where('deleted', '=', 0)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 401 without a token on every base endpoint', async () => {
    const id = s.refs.bases['Sabadell'];
    for (const [m, p] of [
      ['GET', '/bases/index.json'],
      ['GET', '/bases/view.json'],
      ['GET', `/bases/view/${id}.json`],
      ['POST', '/bases/add.json'],
      ['POST', `/bases/edit/${id}.json`],
      ['POST', `/bases/delete/${id}.json`],
      ['GET', `/bases/crew/${id}.json`],
      ['GET', `/bases/schedule/${id}.json`],
      ['POST', '/bases/add_schedule.json'],
      ['POST', '/bases/edit_schedule.json'],
      ['GET', '/bases/delete_schedule/all.json'],
    ] as const) {
      const r = await s.api(m, p, m === 'POST' ? { body: {} } : {});
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.body.result).toBe(false);
    }
  });

  it('index lists the company’s bases by name, never another company’s', async () => {
    const sky = await s.api('GET', '/bases/index.json', { token: await tok('student@skyline.test') });
    expect(sky.status).toBe(200);
    const names = sky.body.bases.map((b: any) => b.Base.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(names).toEqual(expect.arrayContaining(['Cuatro Vientos', 'Sabadell']));
    expect(names).not.toContain('Republic');
    const cv = sky.body.bases.find((b: any) => b.Base.name === 'Cuatro Vientos').Base;
    expect(cv).toEqual({
      id: s.refs.bases['Cuatro Vientos'],
      name: 'Cuatro Vientos',
      default: true,
      airport_id: 'LECU',
      company_id: s.refs.companies.skyline,
    });
    const harbor = await s.api('GET', '/bases/index.json', { token: await tok('admin@harbor.test') });
    expect(harbor.body.bases.map((b: any) => b.Base.name)).toEqual(['Republic']);
  });

  it('view without id is the default base, with airport, aircraft, pilots and mechanics', async () => {
    const r = await s.api('GET', '/bases/view.json', { token: await tok('pilot@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.Base).toMatchObject({ id: s.refs.bases['Cuatro Vientos'], default: true });
    expect(r.body.Airport).toMatchObject({ id: 'LECU' });
    expect(typeof r.body.Airport.name).toBe('string');
    expect(typeof r.body.Airport.lat).toBe('number');
    expect(r.body.Aircraft.map((a: any) => a.registration).sort()).toEqual(['EC-ABC', 'EC-DEF', 'SIM-01']);
    expect(r.body.Aircraft.find((a: any) => a.registration === 'SIM-01').simulator).toBe(true);
    const pilots = r.body.Pilots.map((p: any) => `${p.name} ${p.surname}`);
    expect(pilots).toContain('Paula Pilot');
    expect(pilots).not.toContain('Marco Mechanic');
    expect(r.body.Mechanics.map((p: any) => `${p.name} ${p.surname}`)).toEqual(['Marco Mechanic']);
    // Sabadell holds the jet.
    const sab = await s.api('GET', `/bases/view/${s.refs.bases['Sabadell']}.json`, {
      token: await tok('pilot@skyline.test'),
    });
    expect(sab.body.Aircraft.map((a: any) => a.registration)).toEqual(['EC-JET']);
    expect(sab.body.Airport.id).toBe('LELL');
  });

  it('view of another company’s base is 404', async () => {
    const r = await s.api('GET', `/bases/view/${s.refs.bases.Republic}.json`, {
      token: await tok('admin@skyline.test'),
    });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).not.toContain('Republic');
  });

  it('add needs a premium or unlimited plan: Harbor (free) gets 403 and nothing is created', async () => {
    const before = await liveBaseCount('harbor');
    const r = await s.api('POST', '/bases/add.json', {
      token: await tok('admin@harbor.test'),
      body: { name: 'Second field' },
    });
    expect(r.status).toBe(403);
    expect(r.body.result).toBe(false);
    expect(await liveBaseCount('harbor')).toBe(before);
  });

  it('add is for roles <= 110: 120 and a pilot get 403', async () => {
    const before = await liveBaseCount('skyline');
    for (const email of ['headtraining@skyline.test', 'pilot@skyline.test']) {
      const r = await s.api('POST', '/bases/add.json', { token: await tok(email), body: { name: 'Nope' } });
      expect(r.status, email).toBe(403);
    }
    expect(await liveBaseCount('skyline')).toBe(before);
  });

  it('add stores the name in Title Case and answers the base', async () => {
    const r = await s.api('POST', '/bases/add.json', {
      token: await tok('safety@skyline.test'),
      body: { name: '  la   morgal-norte ', airport_id: 'lelm' },
    });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(true);
    expect(r.body.Base).toMatchObject({
      id: r.body.id,
      name: 'La Morgal-Norte',
      default: false,
      airport_id: 'LELM',
      company_id: s.refs.companies.skyline,
    });
    const row = await baseRow(r.body.id);
    expect(row.name).toBe('La Morgal-Norte');
    // Form bodies (data[Base][...]) are accepted too; acronyms keep their capitals.
    const f = await s.api('POST', '/bases/add.json', {
      token: await tok('admin@skyline.test'),
      form: { 'data[Base][name]': 'REUS apron' },
    });
    expect(f.status).toBe(200);
    expect(f.body.Base.name).toBe('REUS Apron');
  });

  it('add validates: missing name, unknown airport, duplicate name; nothing is created', async () => {
    const before = await liveBaseCount('skyline');
    const token = await tok('admin@skyline.test');
    const noName = await s.api('POST', '/bases/add.json', { token, body: { airport_id: 'LECU' } });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ result: false });
    expect(noName.body.errors.name).toBeDefined();
    const badAirport = await s.api('POST', '/bases/add.json', {
      token,
      body: { name: 'Somewhere', airport_id: 'ZZZZ' },
    });
    expect(badAirport.status).toBe(400);
    expect(badAirport.body.errors.airport_id[0]).toMatch(/Unknown airport/);
    const dup = await s.api('POST', '/bases/add.json', { token, body: { name: 'sabadell' } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors.name[0]).toMatch(/already exists/);
    expect(await liveBaseCount('skyline')).toBe(before);
  });

  it('names are unique ignoring case, accented capitals included, on both databases', async () => {
    const token = await tok('admin@skyline.test');
    const first = await s.api('POST', '/bases/add.json', { token, body: { name: 'ÁREA norte' } });
    expect(first.status).toBe(200);
    expect(first.body.Base.name).toBe('ÁREA Norte');
    const before = await liveBaseCount('skyline');
    const dup = await s.api('POST', '/bases/add.json', { token, body: { name: 'área norte' } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors.name).toBeDefined();
    expect(await liveBaseCount('skyline')).toBe(before);
    await s.ctx.db.updateTable('bases').set({ deleted: 1 }).where('id', '=', first.body.id).execute();
  });

  it('add with default unsets the previous default (one default per company)', async () => {
    const token = await tok('admin@skyline.test');
    const r = await s.api('POST', '/bases/add.json', { token, body: { name: 'New Home', default: true } });
    expect(r.status).toBe(200);
    expect(r.body.Base.default).toBe(true);
    const defaults = await s.ctx.db
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .where('is_default', '=', 1)
      .where('deleted', '=', 0)
      .execute();
    expect(defaults.map((d) => d.id)).toEqual([r.body.id]);
    const view = await s.api('GET', '/bases/view.json', { token });
    expect(view.body.Base.id).toBe(r.body.id);
    // Restore Cuatro Vientos through edit (default = true moves it back).
    const back = await s.api('POST', `/bases/edit/${s.refs.bases['Cuatro Vientos']}.json`, {
      token,
      body: { default: true },
    });
    expect(back.status).toBe(200);
    expect(back.body.Base.default).toBe(true);
    expect((await baseRow(r.body.id)).is_default).toBe(0);
  });

  it('edit changes only the fields sent; Title Case; foreign base 404; role > 110 403', async () => {
    const token = await tok('ops@skyline.test');
    const created = await s.api('POST', '/bases/add.json', { token, body: { name: 'Edit Me', airport_id: 'LEMD' } });
    const id = created.body.id;
    const r = await s.api('POST', `/bases/edit/${id}.json`, { token, body: { name: 'edited base' } });
    expect(r.status).toBe(200);
    expect(r.body.Base).toMatchObject({ name: 'Edited Base', airport_id: 'LEMD', default: false });
    const clear = await s.api('POST', `/bases/edit/${id}.json`, { token, body: { airport_id: '' } });
    expect(clear.body.Base).toMatchObject({ name: 'Edited Base', airport_id: null });
    const foreign = await s.api('POST', `/bases/edit/${s.refs.bases.Republic}.json`, {
      token,
      body: { name: 'Hijack' },
    });
    expect(foreign.status).toBe(404);
    expect((await baseRow(s.refs.bases.Republic)).name).toBe('Republic');
    const instructor = await s.api('POST', `/bases/edit/${id}.json`, {
      token: await tok('instructor@skyline.test'),
      body: { name: 'No' },
    });
    expect(instructor.status).toBe(403);
    expect((await baseRow(id)).name).toBe('Edited Base');
  });

  it('edit refuses to unset the default and a duplicate name, changing nothing', async () => {
    const token = await tok('admin@skyline.test');
    const cv = s.refs.bases['Cuatro Vientos'];
    const before = await baseRow(cv);
    const r = await s.api('POST', `/bases/edit/${cv}.json`, { token, body: { default: false, name: 'Renamed' } });
    expect(r.status).toBe(400);
    expect(r.body.errors.default).toBeDefined();
    const dup = await s.api('POST', `/bases/edit/${cv}.json`, { token, body: { name: 'SABADELL' } });
    expect(dup.status).toBe(400);
    const after = await baseRow(cv);
    expect(after).toEqual(before);
  });

  it('edit with nothing to change (empty body, empty or misspelt wrapper) is 400 and changes nothing', async () => {
    const token = await tok('admin@skyline.test');
    const sab = s.refs.bases['Sabadell'];
    const before = await baseRow(sab);
    for (const body of [
      {},
      { Base: {} },
      { data: { Base: {} } },
      { Bsae: { name: 'Typo' } },
      { Base: { nmae: 'Typo' } },
      { nmae: 'Typo' },
    ]) {
      const r = await s.api('POST', `/bases/edit/${sab}.json`, { token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.errors.Base[0]).toMatch(/Nothing to change/);
    }
    // Form-encoded empty post too.
    const form = await s.api('POST', `/bases/edit/${sab}.json`, { token, form: {} });
    expect(form.status).toBe(400);
    expect(await baseRow(sab)).toEqual(before);
  });

  it('edit and delete are for roles <= 110: every role above gets 403 and nothing changes', async () => {
    const sab = s.refs.bases['Sabadell'];
    const before = await baseRow(sab);
    for (const email of [
      'headtraining@skyline.test',
      'ground@skyline.test',
      'instructor@skyline.test',
      'dispatch@skyline.test',
      'pilot@skyline.test',
      'student@skyline.test',
      'mechanic@skyline.test',
      'auditor@skyline.test',
    ]) {
      const token = await tok(email);
      expect(
        (await s.api('POST', `/bases/edit/${sab}.json`, { token, body: { name: 'Grabbed', default: true } })).status,
        email,
      ).toBe(403);
      expect((await s.api('POST', `/bases/delete/${sab}.json`, { token, body: {} })).status, email).toBe(403);
      expect((await s.api('POST', '/bases/add.json', { token, body: { name: 'Grabbed' } })).status, email).toBe(403);
    }
    expect(await baseRow(sab)).toEqual(before);
    for (const email of ['root@skyline.test', 'ops@skyline.test', 'safety@skyline.test']) {
      const r = await s.api('POST', `/bases/edit/${sab}.json`, {
        token: await tok(email),
        body: { airport_id: 'LELL' },
      });
      expect(r.status, email).toBe(200);
    }
  });

  it('the Harbor admin (free plan) may still edit its own base', async () => {
    const r = await s.api('POST', `/bases/edit/${s.refs.bases.Republic}.json`, {
      token: await tok('admin@harbor.test'),
      body: { airport_id: 'KFRG' },
    });
    expect(r.status).toBe(200);
    expect(r.body.Base.name).toBe('Republic');
  });

  it('delete refuses the default base and changes nothing', async () => {
    const cv = s.refs.bases['Cuatro Vientos'];
    const r = await s.api('POST', `/bases/delete/${cv}.json`, { token: await tok('admin@skyline.test') });
    expect(r.status).toBe(400);
    expect(r.body.result).toBe(false);
    expect((await baseRow(cv)).deleted).toBe(0);
  });

  it('delete moves aircraft and people to the default base, removes future schedules, keeps past ones', async () => {
    const token = await tok('admin@skyline.test');
    const created = await s.api('POST', '/bases/add.json', { token, body: { name: 'Closing Soon' } });
    const id = created.body.id;
    const pilot = await addUser(s, { base: id, name: 'Bea', surname: 'Based' });
    const jet = s.refs.aircraft['EC-JET'];
    await s.ctx.db.updateTable('aircraft').set({ base_id: id }).where('id', '=', jet).execute();
    const future = await s.api('POST', '/bases/add_schedule.json', {
      token,
      body: { base: id, pilot, start: now() + DAY, end: now() + DAY + 4 * HOUR },
    });
    expect(future.status).toBe(200);
    // A past entry, written directly (the API refuses past entries).
    await (s.ctx.db as any)
      .insertInto('base_schedules')
      .values({
        id: '01900000-0000-7000-8000-000000000001',
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: 1,
        modified: 1,
        base_id: id,
        user_id: pilot,
        start_at: now() - 10 * DAY,
        end_at: now() - 9 * DAY,
        type: 'DUTY',
        always: 0,
        created_by: null,
      })
      .execute();
    const changeBefore = (
      await s.ctx.db.selectFrom('aircraft').select('change_no').where('id', '=', jet).executeTakeFirstOrThrow()
    ).change_no;

    const pilotDenied = await s.api('POST', `/bases/delete/${id}.json`, {
      token: await tok('instructor@skyline.test'),
    });
    expect(pilotDenied.status).toBe(403);
    const r = await s.api('POST', `/bases/delete/${id}.json`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: true,
      id,
      moved_to: s.refs.bases['Cuatro Vientos'],
      moved: { aircraft: 1, users: 1 },
      removed_schedules: 1,
    });
    const ac = await s.ctx.db
      .selectFrom('aircraft')
      .select(['base_id', 'change_no'])
      .where('id', '=', jet)
      .executeTakeFirstOrThrow();
    expect(ac.base_id).toBe(s.refs.bases['Cuatro Vientos']);
    expect(Number(ac.change_no)).toBeGreaterThan(Number(changeBefore));
    expect(
      (await s.ctx.db.selectFrom('users').select('base_id').where('id', '=', pilot).executeTakeFirstOrThrow()).base_id,
    ).toBe(s.refs.bases['Cuatro Vientos']);
    const schedules = await s.ctx.db
      .selectFrom('base_schedules')
      .select(['id', 'deleted'])
      .where('base_id', '=', id)
      .orderBy('start_at')
      .execute();
    expect(schedules.map((x) => x.deleted)).toEqual([0, 1]);
    expect((await baseRow(id)).deleted).toBe(1);
    const index = await s.api('GET', '/bases/index.json', { token });
    expect(index.body.bases.map((b: any) => b.Base.id)).not.toContain(id);
    expect((await s.api('GET', `/bases/view/${id}.json`, { token })).status).toBe(404);
    await s.ctx.db.updateTable('aircraft').set({ base_id: s.refs.bases['Sabadell'] }).where('id', '=', jet).execute();
  });

  it('delete of another company’s base is 404 and leaves it alone', async () => {
    const r = await s.api('POST', `/bases/delete/${s.refs.bases.Republic}.json`, {
      token: await tok('admin@skyline.test'),
    });
    expect(r.status).toBe(404);
    expect((await baseRow(s.refs.bases.Republic)).deleted).toBe(0);
  });

  it('crew lists active pilots of the base with a default calendar colour', async () => {
    const token = await tok('admin@skyline.test');
    const created = await s.api('POST', '/bases/add.json', { token, body: { name: 'Crew Base' } });
    const id = created.body.id;
    const a = await addUser(s, { base: id, name: 'Ana', surname: 'Active' });
    const b = await addUser(s, { base: id, name: 'Bruno', surname: 'Colour', color: '#ff0000' });
    await addUser(s, { base: id, name: 'Ivo', surname: 'Inactive', active: false });
    await addUser(s, { base: id, name: 'Nina', surname: 'Nopilot', pilot: false });
    await addUser(s, { base: s.refs.bases['Sabadell'], name: 'Otto', surname: 'Otherbase' });
    const r = await s.api('GET', `/bases/crew/${id}.json`, { token: await tok('student@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: a, title: 'Ana Active', eventColor: '#3788d8' },
      { id: b, title: 'Bruno Colour', eventColor: '#ff0000' },
    ]);
    expect((await s.api('GET', `/bases/crew/${s.refs.bases.Republic}.json`, { token })).status).toBe(404);
  });

  it('bases replicate as `reference` documents of type base, the default flag included', async () => {
    const token = await tok('pilot@skyline.test');
    const first = await s.api('POST', '/sync/reference/pull.json', { token, body: { checkpoint: null, limit: 1000 } });
    expect(first.status).toBe(200);
    const created = await s.api('POST', '/bases/add.json', {
      token: await tok('admin@skyline.test'),
      body: { name: 'Synced Base', default: true },
    });
    const next = await s.api('POST', '/sync/reference/pull.json', {
      token,
      body: { checkpoint: first.body.checkpoint, limit: 1000 },
    });
    const docs = next.body.documents.filter((d: any) => d.type === 'base');
    const mine = docs.find((d: any) => d.id === created.body.id);
    expect(mine.data.Base).toMatchObject({ name: 'Synced Base', default: true });
    const oldDefault = docs.find((d: any) => d.id === s.refs.bases['Cuatro Vientos']);
    expect(oldDefault.data.Base.default).toBe(false);
    await s.api('POST', `/bases/edit/${s.refs.bases['Cuatro Vientos']}.json`, {
      token: await tok('admin@skyline.test'),
      body: { default: true },
    });
  });
});
