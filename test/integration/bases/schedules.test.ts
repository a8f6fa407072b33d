import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, DAY, HOUR, now, tokens } from '../pilots/people-helpers.ts';

describe.each(DIALECTS)('Base schedules on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let cv: string;
  let paula: string;
  let dana: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    cv = s.refs.bases['Cuatro Vientos'];
    paula = s.userId('pilot@skyline.test');
    dana = s.userId('dual@demo.test');
  });
  afterAll(() => s?.close());

  const add = async (email: string, body: Record<string, unknown>) =>
    s.api('POST', '/bases/add_schedule.json', { token: await tok(email), body });
  const edit = async (email: string, body: Record<string, unknown>) =>
    s.api('POST', '/bases/edit_schedule.json', { token: await tok(email), body });
  const del = async (email: string, id: string, query = '') =>
    s.api('GET', `/bases/delete_schedule/${id}.json${query}`, { token: await tok(email) });
  const row = (id: string) =>
    s.ctx.db.selectFrom('base_schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('base_schedules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A past entry written through the data layer (the API refuses entries in the past). */
  const insertPast = async (userId: string) => {
    const id = uuidv7();
    await (s.ctx.db as any)
      .insertInto('base_schedules')
      .values({
        id,
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: 1,
        modified: 1,
        base_id: cv,
        user_id: userId,
        start_at: now() - 3 * DAY,
        end_at: now() - 3 * DAY + 2 * HOUR,
        type: 'DUTY',
        always: 0,
        created_by: null,
      })
      .execute();
    return id;
  };
  // Each test uses its own day offset so entries never overlap across tests.
  let slot = 10;
  const nextSlot = () => {
    slot += 2;
    return now() + slot * DAY;
  };

  it('a pilot adds their own entry; DUTY is the default type; the saved BaseSchedule is answered', async () => {
    const start = nextSlot();
    const r = await add('pilot@skyline.test', { base: cv, pilot: paula, start, end: start + 8 * HOUR });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(true);
    expect(r.body.BaseSchedule).toEqual({
      id: r.body.id,
      base: cv,
      pilot: paula,
      start,
      end: start + 8 * HOUR,
      type: 'DUTY',
      always: false,
    });
    const stored = await row(r.body.id);
    expect(stored.created_by).toBe(paula);
    expect(Number(stored.change_no)).toBeGreaterThan(0);
  });

  it('accepts every type and form bodies; rejects an unknown type', async () => {
    for (const type of ['OFF', 'STANDBY', 'REST']) {
      const start = nextSlot();
      const r = await add('dispatch@skyline.test', { base: cv, pilot: paula, start, end: start + HOUR, type });
      expect(r.body.BaseSchedule.type, type).toBe(type);
    }
    const start = nextSlot();
    const form = await s.api('POST', '/bases/add_schedule.json', {
      token: await tok('pilot@skyline.test'),
      form: { base: cv, pilot: paula, start: String(start), end: String(start + HOUR), type: 'REST' },
    });
    expect(form.status).toBe(200);
    const before = await count();
    const bad = await add('pilot@skyline.test', {
      base: cv,
      pilot: paula,
      start: nextSlot(),
      end: nextSlot(),
      type: 'HOLIDAY',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.type).toBeDefined();
    expect(await count()).toBe(before);
  });

  it('staff add entries for anyone; a pilot only for themself (403, nothing written)', async () => {
    const start = nextSlot();
    const staff = await add('dispatch@skyline.test', { base: cv, pilot: dana, start, end: start + HOUR });
    expect(staff.status).toBe(200);
    const before = await count();
    const other = await add('pilot@skyline.test', {
      base: cv,
      pilot: dana,
      start: start + 2 * HOUR,
      end: start + 3 * HOUR,
    });
    expect(other.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('the external auditor writes no schedule (403)', async () => {
    const auditor = s.userId('auditor@skyline.test');
    const start = nextSlot();
    const r = await add('auditor@skyline.test', { base: cv, pilot: auditor, start, end: start + HOUR });
    expect(r.status).toBe(403);
    expect((await del('auditor@skyline.test', 'all')).status).toBe(403);
  });

  it('rejects an entry entirely in the past; accepts one already under way', async () => {
    const before = await count();
    const past = await add('admin@skyline.test', {
      base: cv,
      pilot: paula,
      start: now() - 5 * HOUR,
      end: now() - 4 * HOUR,
    });
    expect(past.status).toBe(400);
    expect(past.body.errors.end[0]).toMatch(/past/);
    expect(await count()).toBe(before);
    const ongoing = await add('admin@skyline.test', {
      base: cv,
      pilot: s.userId('student@skyline.test'),
      start: now() - HOUR,
      end: now() + HOUR,
    });
    expect(ongoing.status).toBe(200);
  });

  it('validates times: missing start or end, end before start', async () => {
    const start = nextSlot();
    const missing = await add('pilot@skyline.test', { base: cv, pilot: paula, start });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.end).toBeDefined();
    const reversed = await add('pilot@skyline.test', { base: cv, pilot: paula, start, end: start - HOUR });
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors.end[0]).toMatch(/after start/);
  });

  it('rejects an entry overlapping another of the same person; touching ends are fine', async () => {
    const start = nextSlot();
    expect((await add('pilot@skyline.test', { base: cv, pilot: paula, start, end: start + 4 * HOUR })).status).toBe(
      200,
    );
    const clash = await add('pilot@skyline.test', {
      base: s.refs.bases['Sabadell'],
      pilot: paula,
      start: start + HOUR,
      end: start + 5 * HOUR,
    });
    expect(clash.status).toBe(400);
    expect(clash.body.errors.start[0]).toMatch(/Overlaps/);
    expect(
      (await add('pilot@skyline.test', { base: cv, pilot: paula, start: start + 4 * HOUR, end: start + 5 * HOUR }))
        .status,
    ).toBe(200);
  });

  it('a base or pilot of another company is 404', async () => {
    const start = nextSlot();
    const before = await count();
    const base = await add('admin@skyline.test', {
      base: s.refs.bases.Republic,
      pilot: paula,
      start,
      end: start + HOUR,
    });
    expect(base.status).toBe(404);
    const pilot = await add('admin@skyline.test', {
      base: cv,
      pilot: s.userId('pilot@harbor.test', 'harbor'),
      start,
      end: start + HOUR,
    });
    expect(pilot.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it('an always-available entry has no times and is unique per person and base', async () => {
    const r = await add('pilot@skyline.test', { base: cv, pilot: paula, always: true, type: 'STANDBY' });
    expect(r.status).toBe(200);
    expect(r.body.BaseSchedule).toMatchObject({ always: true, start: null, end: null, type: 'STANDBY' });
    const again = await add('pilot@skyline.test', { base: cv, pilot: paula, always: true });
    expect(again.status).toBe(400);
    const withTimes = await add('pilot@skyline.test', {
      base: s.refs.bases['Sabadell'],
      pilot: paula,
      always: true,
      start: nextSlot(),
    });
    expect(withTimes.status).toBe(400);
    const editAlways = await edit('pilot@skyline.test', { id: r.body.id, start: nextSlot(), end: nextSlot() + HOUR });
    expect(editAlways.status).toBe(400);
  });

  it('schedule lists the base’s entries with pilot details, always entries first, then by start; from/to narrow it', async () => {
    const token = await tok('student@skyline.test');
    const r = await s.api('GET', `/bases/schedule/${cv}.json`, { token });
    expect(r.status).toBe(200);
    const list = r.body.schedules;
    expect(list.length).toBeGreaterThan(3);
    const firstDated = list.findIndex((e: any) => !e.BaseSchedule.always);
    expect(list.slice(firstDated).every((e: any) => !e.BaseSchedule.always)).toBe(true);
    const starts = list.slice(firstDated).map((e: any) => e.BaseSchedule.start);
    expect(starts).toEqual([...starts].sort((a: number, b: number) => a - b));
    const mine = list.find((e: any) => e.BaseSchedule.pilot === paula);
    expect(mine.Pilot).toMatchObject({
      id: paula,
      name: 'Paula',
      surname: 'Pilot',
      title: 'Paula Pilot',
      eventColor: '#3788d8',
    });
    expect(list.every((e: any) => e.BaseSchedule.base === cv)).toBe(true);
    const from = now() + 13 * DAY;
    const to = now() + 15 * DAY;
    const narrowed = await s.api('GET', `/bases/schedule/${cv}.json?from=${from}&to=${to}`, { token });
    const dated = narrowed.body.schedules.filter((e: any) => !e.BaseSchedule.always);
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.length).toBeLessThan(list.length);
    expect(dated.every((e: any) => e.BaseSchedule.end > from && e.BaseSchedule.start < to)).toBe(true);
    expect((await s.api('GET', `/bases/schedule/${s.refs.bases.Republic}.json`, { token })).status).toBe(404);
  });

  it('edit changes times and type of a future entry; past records are refused unchanged', async () => {
    const start = nextSlot();
    const created = await add('pilot@skyline.test', { base: cv, pilot: paula, start, end: start + HOUR });
    const r = await edit('pilot@skyline.test', {
      id: created.body.id,
      start: start + HOUR,
      end: start + 3 * HOUR,
      type: 'STANDBY',
    });
    expect(r.status).toBe(200);
    expect(r.body.BaseSchedule).toMatchObject({ start: start + HOUR, end: start + 3 * HOUR, type: 'STANDBY' });
    const past = await insertPast(paula);
    const before = await row(past);
    const refused = await edit('admin@skyline.test', { id: past, start: nextSlot(), end: nextSlot() + HOUR });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Past records/);
    expect(await row(past)).toEqual(before);
    const intoPast = await edit('pilot@skyline.test', {
      id: created.body.id,
      start: now() - 3 * HOUR,
      end: now() - 2 * HOUR,
    });
    expect(intoPast.status).toBe(400);
    expect(Number((await row(created.body.id)).start_at)).toBe(start + HOUR);
  });

  it('schedule leaves out the entries of deleted accounts', async () => {
    const gone = await addUser(s, { name: 'Gone', surname: 'Away', base: cv });
    const start = nextSlot();
    const entry = await add('ops@skyline.test', { base: cv, pilot: gone, start, end: start + HOUR });
    expect(entry.status).toBe(200);
    const list = async () =>
      (await s.api('GET', `/bases/schedule/${cv}.json`, { token: await tok('pilot@skyline.test') })).body.schedules.map(
        (e: any) => e.BaseSchedule.id,
      );
    expect(await list()).toContain(entry.body.id);
    await s.ctx.db.updateTable('users').set({ deleted: 1 }).where('id', '=', gone).execute();
    expect(await list()).not.toContain(entry.body.id);
  });

  it('edit of an entry under way: its start and type are history (400, unchanged); its end may move', async () => {
    const mechanic = s.userId('mechanic@skyline.test');
    const started = now() - 2 * HOUR;
    const created = await add('mechanic@skyline.test', {
      base: cv,
      pilot: mechanic,
      start: started,
      end: now() + 2 * HOUR,
      type: 'STANDBY',
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const before = await row(id);
    const moved = await edit('admin@skyline.test', { id, start: started - DAY, end: now() + 2 * HOUR });
    expect(moved.status).toBe(400);
    expect(moved.body.errors.start).toBeDefined();
    const retyped = await edit('mechanic@skyline.test', { id, start: started, end: now() + 2 * HOUR, type: 'DUTY' });
    expect(retyped.status).toBe(400);
    expect(retyped.body.errors.type).toBeDefined();
    expect(await row(id)).toEqual(before);
    const shortened = await edit('mechanic@skyline.test', { id, start: started, end: now() + HOUR, type: 'STANDBY' });
    expect(shortened.status).toBe(200);
    expect(shortened.body.BaseSchedule).toMatchObject({ start: started, type: 'STANDBY' });
  });

  it('delete `all` never touches past entries (duty history), even for staff clearing someone', async () => {
    const past = await insertPast(dana);
    const future = await add('dispatch@skyline.test', {
      base: cv,
      pilot: dana,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });
    const r = await del('ops@skyline.test', 'all', `?pilot=${dana}`);
    expect(r.status).toBe(200);
    expect((await row(future.body.id)).deleted).toBe(1);
    expect((await row(past)).deleted).toBe(0);
  });

  it('edit: a pilot cannot touch another person’s entry (403), staff can; bad id 400; another company’s entry 404', async () => {
    const start = nextSlot();
    const created = await add('dispatch@skyline.test', { base: cv, pilot: dana, start, end: start + HOUR });
    const denied = await edit('pilot@skyline.test', { id: created.body.id, start, end: start + 2 * HOUR });
    expect(denied.status).toBe(403);
    expect(Number((await row(created.body.id)).end_at)).toBe(start + HOUR);
    const staff = await edit('ops@skyline.test', { id: created.body.id, start, end: start + 2 * HOUR });
    expect(staff.status).toBe(200);
    const bad = await edit('ops@skyline.test', { id: 'not-a-uuid', start, end: start + HOUR });
    expect(bad.status).toBe(400);
    const harborStart = nextSlot();
    const harbor = await add('admin@harbor.test', {
      base: s.refs.bases.Republic,
      pilot: s.userId('pilot@harbor.test', 'harbor'),
      start: harborStart,
      end: harborStart + HOUR,
    });
    expect(harbor.status).toBe(200);
    const foreign = await edit('admin@skyline.test', {
      id: harbor.body.id,
      start: harborStart,
      end: harborStart + 5 * HOUR,
    });
    expect(foreign.status).toBe(404);
    expect(Number((await row(harbor.body.id)).end_at)).toBe(harborStart + HOUR);
    expect((await del('admin@skyline.test', harbor.body.id)).status).toBe(404);
    expect((await row(harbor.body.id)).deleted).toBe(0);
  });

  it('delete by id: own entry yes, another’s no (403); a past entry only by staff', async () => {
    const start = nextSlot();
    const own = await add('pilot@skyline.test', { base: cv, pilot: paula, start, end: start + HOUR });
    const r = await del('pilot@skyline.test', own.body.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, deleted: 1 });
    expect((await row(own.body.id)).deleted).toBe(1);
    const others = await add('dispatch@skyline.test', {
      base: cv,
      pilot: dana,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });
    expect((await del('pilot@skyline.test', others.body.id)).status).toBe(403);
    expect((await row(others.body.id)).deleted).toBe(0);
    const past = await insertPast(paula);
    expect((await del('pilot@skyline.test', past)).status).toBe(403);
    expect((await row(past)).deleted).toBe(0);
    expect((await del('dispatch@skyline.test', past)).status).toBe(200);
    expect((await row(past)).deleted).toBe(1);
    expect((await del('pilot@skyline.test', 'bogus')).status).toBe(400);
  });

  it('delete `all` removes only the caller’s future dated entries; `always` only their always entries', async () => {
    const student = s.userId('student@skyline.test');
    const future1 = await add('student@skyline.test', {
      base: cv,
      pilot: student,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });
    const future2 = await add('student@skyline.test', {
      base: s.refs.bases['Sabadell'],
      pilot: student,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });
    const ongoing = await s.ctx.db
      .selectFrom('base_schedules')
      .select('id')
      .where('user_id', '=', student)
      .where('start_at', '<', now())
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    const always = await add('student@skyline.test', { base: cv, pilot: student, always: true });
    const paulaFuture = await add('pilot@skyline.test', {
      base: cv,
      pilot: paula,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });

    const r = await del('student@skyline.test', 'all');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, deleted: 2 });
    expect((await row(future1.body.id)).deleted).toBe(1);
    expect((await row(future2.body.id)).deleted).toBe(1);
    expect((await row(ongoing.id)).deleted).toBe(0);
    expect((await row(always.body.id)).deleted).toBe(0);
    expect((await row(paulaFuture.body.id)).deleted).toBe(0);

    const a = await del('student@skyline.test', 'always');
    expect(a.body).toMatchObject({ result: true, deleted: 1 });
    expect((await row(always.body.id)).deleted).toBe(1);
    expect((await row(ongoing.id)).deleted).toBe(0);
  });

  it('staff clear another person’s entries with ?pilot=; a pilot may not (403)', async () => {
    const entry = await add('dispatch@skyline.test', {
      base: cv,
      pilot: dana,
      start: nextSlot(),
      end: nextSlot() + HOUR,
    });
    expect((await del('pilot@skyline.test', 'all', `?pilot=${dana}`)).status).toBe(403);
    expect((await row(entry.body.id)).deleted).toBe(0);
    const r = await del('dispatch@skyline.test', 'all', `?pilot=${dana}`);
    expect(r.status).toBe(200);
    expect(r.body.deleted).toBeGreaterThan(0);
    expect((await row(entry.body.id)).deleted).toBe(1);
    expect(
      (await del('dispatch@skyline.test', 'all', `?pilot=${s.userId('pilot@harbor.test', 'harbor')}`)).status,
    ).toBe(404);
  });

  it('own entries replicate in the `people` collection, others’ never', async () => {
    const token = await tok('pilot@skyline.test');
    const pull = await s.api('POST', '/sync/people/pull.json', { token, body: { checkpoint: null, limit: 1000 } });
    expect(pull.status).toBe(200);
    const schedules = pull.body.documents.filter((d: any) => d.type === 'schedule');
    expect(schedules.length).toBeGreaterThan(0);
    expect(schedules.every((d: any) => d.user_id === paula && d.data.BaseSchedule.pilot === paula)).toBe(true);
    const start = nextSlot();
    const created = await add('dispatch@skyline.test', { base: cv, pilot: dana, start, end: start + HOUR });
    const mine = await add('dispatch@skyline.test', { base: cv, pilot: paula, start, end: start + HOUR });
    const next = await s.api('POST', '/sync/people/pull.json', {
      token,
      body: { checkpoint: pull.body.checkpoint, limit: 1000 },
    });
    const ids = next.body.documents.filter((d: any) => !d._deleted).map((d: any) => d.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).not.toContain(created.body.id);
    const doc = next.body.documents.find((d: any) => d.id === mine.body.id);
    expect(doc.data.Base).toEqual({ id: cv, name: 'Cuatro Vientos' });
    // A deleted entry arrives as a deletion.
    await del('pilot@skyline.test', mine.body.id);
    const after = await s.api('POST', '/sync/people/pull.json', {
      token,
      body: { checkpoint: next.body.checkpoint, limit: 1000 },
    });
    expect(after.body.documents.find((d: any) => d.id === mine.body.id)._deleted).toBe(true);
  });
});
