/**
 * Issue 28 item 4 and the cancel of one's own booking: bookings refuse a
 * non-pilot in the pilot's seat (NOT_ALLOWED), a start in the past (PAST) or
 * beyond the horizon (HORIZON), and time outside the saved operating hours
 * (OUTSIDE_HOURS), for the office too; REST and offline commands alike. Pilots
 * and students cancel their own future bookings, online and offline.
 */
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { tokenCache, typeIds } from '../flights/helpers.ts';
import { addUser, auditorToken } from '../pilots/people-helpers.ts';

const HOUR = 3600;
const DAY = 86400;
const GRID = 300;

describe.each(DIALECTS)('Booking sanity on %s', (dialect) => {
  let s: TestServer;
  let t: (email: string) => Promise<string>;
  let types: Record<string, string>;
  let abc: string;
  let def: string;
  let pilot: string;
  let student: string;
  let mechanic: string;
  /** UTC midnight of a weekday (Monday to Friday) 20 days or more ahead; each test takes its own. */
  let nextDay = 20;
  const weekday = () => {
    for (;;) {
      const d = Math.floor(Date.now() / 1000 / DAY) * DAY + nextDay++ * DAY;
      const wd = new Date(d * 1000).getUTCDay();
      if (wd >= 1 && wd <= 5) return d;
    }
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    t = tokenCache(() => s);
    types = await typeIds(s, await t('admin@skyline.test'));
    abc = s.refs.aircraft['EC-ABC'];
    def = s.refs.aircraft['EC-DEF'];
    pilot = s.userId('pilot@skyline.test');
    student = s.userId('student@skyline.test');
    mechanic = s.userId('mechanic@skyline.test');
  });
  afterAll(() => s?.close());

  const edit = async (email: string, Schedule: Record<string, unknown>) =>
    s.api('POST', '/schedules/edit.json', { token: await t(email), body: { Schedule } });
  const del = async (email: string, id: string) =>
    s.api('POST', `/schedules/delete/${id}.json`, { token: await t(email) });
  const counts = async () => {
    const n = async (table: 'schedules' | 'flights') =>
      Number(
        (
          await s.ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { bookings: await n('schedules'), flights: await n('flights') };
  };
  const solo = (pilotId: string, start: number, extra: Record<string, unknown> = {}) => ({
    aircraft_id: def,
    pilot_id: pilotId,
    flight_type_id: types.Solo,
    start,
    end: start + HOUR,
    ...extra,
  });
  const ok = (r: { status: number; body: any }) => {
    if (r.status !== 200 || r.body.result !== true)
      throw new Error(`expected success: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { id: string; flight_id: string };
  };
  const command = (name: string, args: Record<string, unknown>) => ({
    id: uuidv7(),
    name,
    args,
    client_time: Date.now(),
    user_id: null,
    status: 'pending',
    reason: null,
    details: null,
    result: null,
    decided_at: null,
  });
  const pushCommand = async (email: string, name: string, args: Record<string, unknown>) =>
    (await push(s, await t(email), 'commands', [{ assumedMasterState: null, newDocumentState: command(name, args) }]))
      .body.conflicts[0];

  it('the mechanic and an inactive pilot cannot sit in the pilot seat (NOT_ALLOWED with a sentence), REST and offline', async () => {
    const start = weekday() + 10 * HOUR;
    const before = await counts();
    const r = await edit('dispatch@skyline.test', solo(mechanic, start, { aircraft_id: abc }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: false, code: 'NOT_ALLOWED' });
    expect(r.body.message).toMatch(/is not a pilot and cannot be booked as pilot\.$/);
    const gone = await addUser(s, { role: 190, name: 'Gone', surname: 'Pilot', active: false, pilot: true });
    const inactive = await edit('admin@skyline.test', solo(gone, start));
    expect(inactive.body).toMatchObject({ result: false, code: 'NOT_ALLOWED' });
    expect(inactive.body.message).toBe("Gone Pilot's account is inactive, so they cannot be booked as pilot.");
    const offline = await pushCommand('dispatch@skyline.test', 'schedule.book', {
      new_id: uuidv7(),
      ...solo(mechanic, start),
    });
    expect(offline).toMatchObject({ status: 'rejected', details: { code: 'NOT_ALLOWED' } });
    expect(offline.reason).toMatch(/is not a pilot/);
    expect(await counts()).toEqual(before);
    // A pilot still fits the same slot.
    ok(await edit('dispatch@skyline.test', solo(pilot, start)));
  });

  it('the office cannot book the past (PAST) nor beyond the 365-day horizon (HORIZON, 2099 too); nothing written', async () => {
    const before = await counts();
    const now = Math.floor(Date.now() / 1000);
    const past = Math.floor(now / GRID) * GRID - DAY;
    const r = await edit('dispatch@skyline.test', solo(pilot, past));
    expect(r.body).toMatchObject({ result: false, code: 'PAST' });
    expect(r.body.message).toMatch(/^The booking would start in the past \(\d{4}-\d\d-\d\d \d\d:\d\d Europe\/Madrid\)/);
    const far = Math.ceil((now + 366 * DAY) / GRID) * GRID;
    const horizon = await edit('dispatch@skyline.test', solo(pilot, far));
    expect(horizon.body).toMatchObject({ result: false, code: 'HORIZON' });
    expect(horizon.body.message).toMatch(/at most 365 days ahead/);
    const y2099 = Date.UTC(2099, 5, 1, 9) / 1000;
    expect((await edit('admin@skyline.test', solo(pilot, y2099))).body.code).toBe('HORIZON');
    const offline = await pushCommand('dispatch@skyline.test', 'schedule.book', {
      new_id: uuidv7(),
      ...solo(pilot, past),
    });
    expect(offline).toMatchObject({ status: 'rejected', details: { code: 'PAST' } });
    expect(await counts()).toEqual(before);
  });

  it('the horizon is a company setting: managers set it (bad values 400, nothing saved), bookings and offline commands follow it', async () => {
    const settings = async () =>
      (await s.api('GET', '/manager/companies/settings.json', { token: await t('admin@skyline.test') })).body;
    const save = async (email: string, value: unknown) =>
      s.api('POST', '/manager/companies/edit.json', {
        token: await t(email),
        body: { CompanySetting: { booking_horizon_days: value } },
      });
    expect((await settings()).CompanySetting.booking_horizon_days).toBeNull();
    for (const bad of [0, 3651, 1.5, 'soon']) {
      const r = await save('admin@skyline.test', bad);
      expect(r.status).toBe(400);
      expect(r.body.errors['CompanySetting.booking_horizon_days']).toBeDefined();
    }
    expect((await settings()).CompanySetting.booking_horizon_days).toBeNull();
    expect((await save('pilot@skyline.test', 30)).status).toBe(403);
    expect((await save('admin@skyline.test', 30)).status).toBe(200);
    expect((await settings()).CompanySetting.booking_horizon_days).toBe(30);
    try {
      const before = await counts();
      const now = Math.floor(Date.now() / 1000);
      const far = Math.ceil((now + 31 * DAY) / GRID) * GRID;
      const r = await edit('dispatch@skyline.test', solo(pilot, far));
      expect(r.body).toMatchObject({ result: false, code: 'HORIZON' });
      expect(r.body.message).toMatch(/at most 30 days ahead/);
      const offline = await pushCommand('dispatch@skyline.test', 'schedule.book', {
        new_id: uuidv7(),
        ...solo(pilot, far),
      });
      expect(offline).toMatchObject({ status: 'rejected', details: { code: 'HORIZON' } });
      expect(await counts()).toEqual(before);
      // Another company keeps the default.
      expect(
        (await s.api('GET', '/manager/companies/settings.json', { token: await t('admin@harbor.test') })).body
          .CompanySetting.booking_horizon_days,
      ).toBeNull();
      // Inside the horizon still books; empty goes back to the default of 365.
      ok(await edit('dispatch@skyline.test', solo(pilot, weekday() + 9 * HOUR)));
    } finally {
      expect((await save('admin@skyline.test', '')).status).toBe(200);
    }
    expect((await settings()).CompanySetting.booking_horizon_days).toBeNull();
  });

  it('a booking under way may be changed while its start stays; moving it to another past time is PAST', async () => {
    const made = ok(await edit('dispatch@skyline.test', solo(pilot, weekday() + 9 * HOUR)));
    const started = Math.floor(Date.now() / 1000 / GRID) * GRID - HOUR;
    await s.ctx.db
      .updateTable('schedules')
      .set({ start_at: started, end_at: started + 3 * HOUR })
      .where('id', '=', made.id)
      .execute();
    ok(
      await edit(
        'dispatch@skyline.test',
        solo(pilot, started, { id: made.id, end: started + 4 * HOUR, remarks: 'Longer' }),
      ),
    );
    const moved = await edit('dispatch@skyline.test', solo(pilot, started - HOUR, { id: made.id }));
    expect(moved.body.code).toBe('PAST');
    const row = await s.ctx.db.selectFrom('schedules').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect([Number(row.start_at), Number(row.end_at), row.remarks]).toEqual([started, started + 4 * HOUR, 'Longer']);
  });

  it('saved operating hours bind the office too: a closed Sunday and over the closing time are OUTSIDE_HOURS', async () => {
    const admin = await t('admin@skyline.test');
    const open = (weekday: number) => ({ weekday, closed: 0, start_minute: 8 * 60, end_minute: 20 * 60 });
    const saved = await s.api('POST', '/manager/companies/save_operating_hours.json', {
      token: admin,
      body: { rows: [0, 1, 2, 3, 4, 5].map(open).concat([{ weekday: 6, closed: 1, start_minute: 0, end_minute: 0 }]) },
    });
    expect(saved.body.result, JSON.stringify(saved.body)).toBe(true);
    try {
      const before = await counts();
      let sunday = Math.floor(Date.now() / 1000 / DAY) * DAY + 40 * DAY;
      while (new Date(sunday * 1000).getUTCDay() !== 0) sunday += DAY;
      const iso = new Date(sunday * 1000).toISOString().slice(0, 10);
      const closed = await edit('dispatch@skyline.test', solo(pilot, sunday + 9 * HOUR));
      expect(closed.body).toEqual({
        result: false,
        code: 'OUTSIDE_HOURS',
        message: `The base is closed on Sunday ${iso}.`,
        // Issue 33: the weekday as an instant (noon UTC, milliseconds), so the app names it in its language.
        text: { id: 'schedules.sClosed', values: { day: Date.parse(`${iso}T12:00:00Z`), date: iso } },
      });
      // Saturday 18:00-20:00 UTC is 19:00-21:00 or 20:00-22:00 in Madrid: over the 20:00 closing.
      const late = await edit(
        'dispatch@skyline.test',
        solo(pilot, sunday - DAY + 18 * HOUR, { end: sunday - DAY + 20 * HOUR }),
      );
      expect(late.body).toMatchObject({ result: false, code: 'OUTSIDE_HOURS' });
      expect(late.body.message).toMatch(
        /is outside the operating hours of the base \(open 08:00–20:00 Europe\/Madrid\)\.$/,
      );
      const offline = await pushCommand('dispatch@skyline.test', 'schedule.book', {
        new_id: uuidv7(),
        ...solo(pilot, sunday + 9 * HOUR),
      });
      expect(offline).toMatchObject({ status: 'rejected', details: { code: 'OUTSIDE_HOURS' } });
      expect(await counts()).toEqual(before);
      ok(await edit('dispatch@skyline.test', solo(pilot, sunday - DAY + 9 * HOUR)));
    } finally {
      await s.api('POST', '/manager/companies/save_operating_hours.json', { token: admin, body: { rows: [] } });
    }
  });

  it('pilots and students cancel their own future booking (its flight CANCELED); not others’, not one under way', async () => {
    const start = weekday() + 10 * HOUR;
    const mine = ok(await edit('pilot@skyline.test', solo(pilot, start)));
    const lesson = ok(await edit('student@skyline.test', solo(student, start, { aircraft_id: abc })));
    // Another pilot's booking is not even visible to them: 404, unchanged.
    expect((await del('student@skyline.test', mine.id)).status).toBe(404);
    // The auditor and mechanics never cancel (the route's gate).
    expect((await s.api('POST', `/schedules/delete/${mine.id}.json`, { token: await auditorToken(s) })).status).toBe(
      403,
    );
    expect((await del('mechanic@skyline.test', mine.id)).status).toBe(403);
    // Another company's booking is 404.
    expect((await del('admin@harbor.test', mine.id)).status).toBe(404);
    expect((await del('pilot@skyline.test', mine.id)).body).toEqual({ result: true });
    const row = await s.ctx.db.selectFrom('schedules').selectAll().where('id', '=', mine.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('CANCELED');
    const flight = await s.ctx.db
      .selectFrom('flights')
      .select('status')
      .where('id', '=', mine.flight_id)
      .executeTakeFirstOrThrow();
    expect(flight.status).toBe('CANCELED');

    // Once under way, a student's booking is the office's to cancel.
    const started = Math.floor(Date.now() / 1000 / GRID) * GRID - HOUR;
    await s.ctx.db
      .updateTable('schedules')
      .set({ start_at: started, end_at: started + 2 * HOUR })
      .where('id', '=', lesson.id)
      .execute();
    const late = await del('student@skyline.test', lesson.id);
    expect(late.body).toEqual({
      result: false,
      code: 'PAST',
      message: 'This booking has already started; ask the office to cancel it.',
      text: { id: 'schedules.rStartedCancel' },
    });
    expect(
      (await s.ctx.db.selectFrom('schedules').select('status').where('id', '=', lesson.id).executeTakeFirstOrThrow())
        .status,
    ).toBe('BOOKED');
    expect((await del('dispatch@skyline.test', lesson.id)).body).toEqual({ result: true });
  });

  it('offline: schedule.cancel is decided with the same rules (own booking yes, under way no)', async () => {
    const start = weekday() + 10 * HOUR;
    const mine = ok(await edit('student@skyline.test', solo(student, start)));
    const theirs = ok(await edit('pilot@skyline.test', solo(pilot, start, { aircraft_id: abc })));
    const refused = await pushCommand('student@skyline.test', 'schedule.cancel', { id: theirs.id });
    expect(refused.status).toBe('rejected');
    const accepted = await pushCommand('student@skyline.test', 'schedule.cancel', { id: mine.id });
    expect(accepted).toMatchObject({ status: 'accepted', result: { id: mine.id } });
    const status = async (id: string) =>
      (await s.ctx.db.selectFrom('schedules').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(await status(mine.id)).toBe('CANCELED');
    expect(await status(theirs.id)).toBe('BOOKED');
    const started = Math.floor(Date.now() / 1000 / GRID) * GRID - HOUR;
    await s.ctx.db
      .updateTable('schedules')
      .set({ start_at: started, end_at: started + 2 * HOUR })
      .where('id', '=', theirs.id)
      .execute();
    const late = await pushCommand('pilot@skyline.test', 'schedule.cancel', { id: theirs.id });
    expect(late).toMatchObject({ status: 'rejected', details: { code: 'PAST' } });
    expect(await status(theirs.id)).toBe('BOOKED');
  });
});
