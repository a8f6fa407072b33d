import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';
import { addUser, DAY, garbageBodies, HOUR, now, snapshot, tokens } from '../pilots/people-helpers.ts';

/**
 * Bases and schedules: the plan gate on both paid plans, the first base
 * rule, Title Case, bad input (4xx, never 500, nothing changed) and company
 * isolation on every endpoint, and the directory move of a base deletion.
 */
describe.each(DIALECTS)('Bases: plans, input and isolation on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let cv: string;
  let republic: string;
  let harborEntry: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    cv = s.refs.bases['Cuatro Vientos'];
    republic = s.refs.bases.Republic;
    const start = now() + 5 * DAY;
    const r = await s.api('POST', '/bases/add_schedule.json', {
      token: await tok('admin@harbor.test'),
      body: { base: republic, pilot: s.userId('pilot@harbor.test', 'harbor'), start, end: start + HOUR },
    });
    harborEntry = r.body.id;
  });
  afterAll(() => s?.close());

  const as = async (email: string, method: string, path: string, body?: unknown) =>
    s.api(method, path, { token: await tok(email), ...(body === undefined ? {} : { body }) });
  const setPlan = (plan: string) =>
    s.ctx.db.updateTable('companies').set({ plan }).where('id', '=', s.refs.companies.harbor).execute();

  it('add is open to premium (Skyline) and unlimited, closed to free; the first live base becomes the default whatever was asked', async () => {
    expect((await as('admin@harbor.test', 'POST', '/bases/add.json', { name: 'Free Try' })).status).toBe(403);
    await s.ctx.db.updateTable('bases').set({ deleted: 1 }).where('id', '=', republic).execute();
    await setPlan('unlimited');
    try {
      const first = await as('admin@harbor.test', 'POST', '/bases/add.json', {
        name: 'first field',
        default: false,
        airport_id: 'KFRG',
      });
      expect(first.status).toBe(200);
      expect(first.body.Base).toMatchObject({ name: 'First Field', default: true });
      const second = await as('admin@harbor.test', 'POST', '/bases/add.json', { name: 'second field' });
      expect(second.body.Base.default).toBe(false);
      const defaults = await s.ctx.db
        .selectFrom('bases')
        .select('id')
        .where('company_id', '=', s.refs.companies.harbor)
        .where('is_default', '=', 1)
        .where('deleted', '=', 0)
        .execute();
      expect(defaults.map((d) => d.id)).toEqual([first.body.id]);
      await s.ctx.db
        .updateTable('bases')
        .set({ deleted: 1 })
        .where('id', 'in', [first.body.id, second.body.id])
        .execute();
    } finally {
      await setPlan('free');
      await s.ctx.db.updateTable('bases').set({ deleted: 0 }).where('id', '=', republic).execute();
    }
  });

  it('the club plan may not add bases either (403, nothing created), but edits its own', async () => {
    await setPlan('club');
    try {
      const before = await snapshot(s);
      const r = await as('admin@harbor.test', 'POST', '/bases/add.json', { name: 'Club Field', airport_id: 'KFRG' });
      expect(r.status).toBe(403);
      expect(r.body.result).toBe(false);
      expect(await snapshot(s)).toEqual(before);
      expect(
        (await as('admin@harbor.test', 'POST', `/bases/edit/${republic}.json`, { airport_id: 'KFRG' })).status,
      ).toBe(200);
    } finally {
      await setPlan('free');
    }
  });

  it.each([
    ['cuatro vientos norte', 'Cuatro Vientos Norte'],
    ['  JFK   north ramp ', 'JFK North Ramp'],
    ['SABADELL EAST apron', 'Sabadell EAST Apron'],
    ['northern FIELDS', 'Northern Fields'],
    ['lePP  hangar-two', 'Lepp Hangar-Two'],
    ['GA apron', 'GA Apron'],
  ])('Title Case: %j is stored as %j', async (sent, stored) => {
    const r = await as('admin@skyline.test', 'POST', '/bases/add.json', { name: sent });
    expect(r.status).toBe(200);
    expect(r.body.Base.name).toBe(stored);
    await s.ctx.db.updateTable('bases').set({ deleted: 1 }).where('id', '=', r.body.id).execute();
  });

  it('add and edit: malformed bodies are 400 and change nothing', async () => {
    const before = await snapshot(s);
    for (const [path, model, fields] of [
      ['/bases/add.json', 'Base', { name: 'Valid Name', airport_id: 'LECU', default: false }],
      [`/bases/edit/${cv}.json`, 'Base', { name: 'Valid Name', airport_id: 'LECU', default: true }],
    ] as const) {
      // Wrappers without fields are an edit with nothing to change: refused too (docs/areas/people.md).
      for (const body of [...garbageBodies(model, fields), ...garbageBodies(null, fields).slice(4)]) {
        const r = await as('admin@skyline.test', 'POST', path, body);
        expect(r.status, `${path} ${JSON.stringify(body).slice(0, 150)}`).toBe(400);
        expect(r.body.result).toBe(false);
      }
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('schedules: malformed bodies and ids are 4xx and change nothing', async () => {
    await tok('pilot@skyline.test');
    const before = await snapshot(s);
    const start = now() + 30 * DAY;
    const add = { base: cv, pilot: s.userId('pilot@skyline.test'), start, end: start + HOUR, type: 'DUTY' };
    for (const body of [
      ...garbageBodies(null, add).slice(4),
      ...garbageBodies('BaseSchedule', add).slice(4),
      { ...add, type: 'duty ' },
      { ...add, start: 'tomorrow' },
      { ...add, end: start },
      { ...add, start: start * 1000, end: (start + HOUR) * 1000 },
      { ...add, end: 9007199254740991 },
    ]) {
      const r = await as('pilot@skyline.test', 'POST', '/bases/add_schedule.json', body);
      expect(r.status, JSON.stringify(body).slice(0, 150)).toBe(400);
    }
    const edit = { id: uuidv7(), start, end: start + HOUR, type: 'OFF' };
    for (const body of [
      ...garbageBodies(null, edit).slice(4),
      { ...edit, id: 'not-a-uuid' },
      { ...edit, end: (start + HOUR) * 1000 },
    ]) {
      const r = await as('admin@skyline.test', 'POST', '/bases/edit_schedule.json', body);
      expect(r.status, JSON.stringify(body).slice(0, 150)).toBe(400);
    }
    expect((await as('admin@skyline.test', 'POST', '/bases/edit_schedule.json', edit)).status).toBe(404);
    for (const path of [
      '/bases/delete_schedule/nonsense.json',
      `/bases/delete_schedule/all.json?pilot=${'x'.repeat(65)}`,
    ]) {
      expect((await as('admin@skyline.test', 'GET', path)).status, path).toBe(400);
    }
    expect((await as('admin@skyline.test', 'GET', `/bases/delete_schedule/${uuidv7()}.json`)).status).toBe(404);
    for (const q of ['?from=abc', '?to=-', '?from=1.5e', `?from=${'9'.repeat(30)}`]) {
      expect((await as('admin@skyline.test', 'GET', `/bases/schedule/${cv}.json${q}`)).status, q).toBe(400);
    }
    const after = await snapshot(s);
    for (const t of Object.keys(before)) expect(after[t], t).toEqual(before[t]);
  });

  it('every endpoint answers 404 for a Harbor base or entry and leaves it alone', async () => {
    const before = await snapshot(s);
    const start = now() + 40 * DAY;
    for (const [method, path, body] of [
      ['GET', `/bases/view/${republic}.json`, undefined],
      ['GET', `/bases/crew/${republic}.json`, undefined],
      ['GET', `/bases/schedule/${republic}.json`, undefined],
      ['POST', `/bases/edit/${republic}.json`, { name: 'Taken Over' }],
      ['POST', `/bases/delete/${republic}.json`, {}],
      [
        'POST',
        '/bases/add_schedule.json',
        { base: republic, pilot: s.userId('admin@skyline.test'), start, end: start + HOUR },
      ],
      [
        'POST',
        '/bases/add_schedule.json',
        { base: cv, pilot: s.userId('pilot@harbor.test', 'harbor'), start, end: start + HOUR },
      ],
      ['POST', '/bases/edit_schedule.json', { id: harborEntry, start, end: start + HOUR }],
      ['GET', `/bases/delete_schedule/${harborEntry}.json`, undefined],
      ['GET', `/bases/delete_schedule/all.json?pilot=${s.userId('pilot@harbor.test', 'harbor')}`, undefined],
      ['GET', `/bases/delete_schedule/always.json?pilot=${s.userId('pilot@harbor.test', 'harbor')}`, undefined],
    ] as const) {
      const r = await as('admin@skyline.test', method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(JSON.stringify(r.body), path).not.toContain('Republic');
    }
    for (const path of ['/bases/view/nope.json', '/bases/crew/nope.json', '/bases/schedule/nope.json']) {
      expect((await as('admin@skyline.test', 'GET', path)).status, path).toBe(404);
    }
    // Nothing of Harbor shows in Skyline's lists either.
    const index = await as('admin@skyline.test', 'GET', '/bases/index.json');
    expect(index.body.bases.map((b: any) => b.Base.id)).not.toContain(republic);
    const schedule = await as('admin@skyline.test', 'GET', `/bases/schedule/${cv}.json`);
    expect(schedule.body.schedules.map((e: any) => e.BaseSchedule.id)).not.toContain(harborEntry);
    expect(await snapshot(s)).toEqual(before);
  });

  it('the people a base deletion moves reach devices through the `users` collection', async () => {
    const token = await tok('admin@skyline.test');
    const created = await as('admin@skyline.test', 'POST', '/bases/add.json', { name: 'Short Lived' });
    const moved = await addUser(s, { name: 'Moved', surname: 'Person', base: created.body.id });
    const before = await pullAll(s, token, 'users');
    expect(before.docs.find((d) => d.id === moved).base_id).toBe(created.body.id);
    expect((await as('admin@skyline.test', 'POST', `/bases/delete/${created.body.id}.json`, {})).status).toBe(200);
    const after = await pullAll(s, token, 'users', before.checkpoint);
    expect(after.docs.find((d) => d.id === moved)).toMatchObject({ base_id: cv });
    const reference = await pullAll(s, token, 'reference');
    const doc = reference.docs.find((d) => d.id === created.body.id);
    expect(doc === undefined || doc._deleted === true).toBe(true);
  });
});
