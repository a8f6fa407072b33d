import { uuidv7 } from '@ops/shared';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { setFlag, tokenCache, typeIds } from '../flights/helpers.ts';

const HOUR = 3600;
const DAY = 86400;

/** An open MEL item with a calendar deadline at `expires` (the report endpoints belong to the fleet area). */
async function insertMel(s: TestServer, aircraftId: string, expires: number, title: string) {
  const now = Math.floor(Date.now() / 1000);
  const reportId = uuidv7();
  await (s.ctx.db as any)
    .insertInto('aircraft_reports')
    .values({
      id: reportId,
      company_id: s.refs.companies.skyline,
      change_no: 0,
      deleted: 0,
      created: now - 10 * DAY,
      modified: now,
      aircraft_id: aircraftId,
      flight_id: null,
      user_id: null,
      type: 'MEL',
      title,
      description: null,
      ata_chapter: '33',
      system: null,
      severity: 'LOW',
      aircraft_status: 'FLYABLE',
      dispatch_condition: 'MEL',
      status: 'DEFERRED',
      hours: null,
      cycles: null,
      deferred_until: expires,
      deferred_reference: null,
      closed: null,
      closed_by: null,
      maintenance_job_id: null,
    })
    .execute();
  await (s.ctx.db as any)
    .insertInto('mel_items')
    .values({
      id: uuidv7(),
      company_id: s.refs.companies.skyline,
      aircraft_report_id: reportId,
      mel_reference: '33-1',
      category: 'C',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 10,
      starts: now - 4 * DAY,
      expires,
      baseline_flights: null,
      baseline_cycles: null,
      placard_fitted: 1,
      procedures: null,
      released_by: null,
      released: now - 10 * DAY,
      extended: 0,
      extended_by: null,
      extended_until: null,
      extension_reason: null,
      created: now - 10 * DAY,
      modified: now,
    })
    .execute();
  return reportId;
}

describe.each(DIALECTS)('Schedules on %s', (dialect) => {
  let s: TestServer;
  let t: (email: string) => Promise<string>;
  let types: Record<string, string>;
  let abc: string;
  let def: string;
  let sim: string;
  let student: string;
  let pilot: string;
  let ivan: string;
  let hugo: string;
  let dana: string;
  let sky: string;
  /** Midnight UTC, 20 days ahead: every test takes its own day so bookings never meet across tests. */
  let day0: number;
  let nextDay = 0;
  const day = () => day0 + nextDay++ * DAY;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    t = tokenCache(() => s);
    types = await typeIds(s, await t('admin@skyline.test'));
    abc = s.refs.aircraft['EC-ABC'];
    def = s.refs.aircraft['EC-DEF'];
    sim = s.refs.aircraft['SIM-01'];
    student = s.userId('student@skyline.test');
    pilot = s.userId('pilot@skyline.test');
    ivan = s.userId('instructor@skyline.test');
    hugo = s.userId('headtraining@skyline.test');
    dana = s.userId('dual@demo.test');
    sky = s.refs.companies.skyline;
    day0 = Math.floor(Date.now() / 1000 / DAY) * DAY + 20 * DAY;
  });
  afterAll(() => s?.close());

  const edit = async (email: string, Schedule: Record<string, unknown>) =>
    s.api('POST', '/schedules/edit.json', { token: await t(email), body: { Schedule } });
  const del = async (email: string, id: string) =>
    s.api('POST', `/schedules/delete/${id}.json`, { token: await t(email) });
  const index = async (email: string, q: string) =>
    s.api('GET', `/schedules/index.json?${q}`, { token: await t(email) });
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const booking = (id: string) =>
    s.ctx.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const flight = (id: string) =>
    s.ctx.db.selectFrom('flights').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const notes = (userId: string) =>
    s.ctx.db
      .selectFrom('notifications')
      .select(['title'])
      .where('user_id', '=', userId)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .execute();
  const dual = (start: number, extra: Record<string, unknown> = {}) => ({
    aircraft_id: abc,
    pilot_id: student,
    instructor_id: ivan,
    flight_type_id: types['Dual training'],
    start,
    end: start + 2 * HOUR,
    ...extra,
  });
  /** Harbor's fixtures have no flight type: one bookable type, written through the data layer. */
  let harborType: string | null = null;
  const harborTypeId = async () => {
    if (harborType) return harborType;
    harborType = uuidv7();
    await (s.ctx.db as any)
      .insertInto('flight_types')
      .values({
        id: harborType,
        company_id: s.refs.companies.harbor,
        change_no: 0,
        deleted: 0,
        created: 0,
        modified: 0,
        name: 'Rental',
        color: null,
        booking: 1,
        pic_flight_time: 'pic',
        sic_flight_time: 'none',
        supervisor_flight_time: 'none',
        sort_order: 1,
      })
      .execute();
    return harborType;
  };
  const ok = (r: { status: number; body: any }) => {
    if (r.status !== 200 || r.body.result !== true)
      throw new Error(`expected success: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { id: string; flight_id: string; warning?: string };
  };

  describe('access and input', () => {
    it('every endpoint wants a credential (401)', async () => {
      const id = uuidv7();
      expect((await s.api('GET', '/schedules/index.json?from=2026-01-01&to=2026-01-02')).status).toBe(401);
      expect((await s.api('POST', '/schedules/edit.json', { body: { Schedule: dual(day()) } })).status).toBe(401);
      expect((await s.api('POST', `/schedules/delete/${id}.json`)).status).toBe(401);
      expect((await s.api('GET', '/schedules/availability.json?date=2026-01-01')).status).toBe(401);
      expect((await s.api('GET', '/schedules/feeds.json')).status).toBe(401);
      expect((await s.api('POST', '/schedules/feeds/create.json', { body: { kind: 'user' } })).status).toBe(401);
      expect((await s.api('POST', `/schedules/feeds/revoke/${id}.json`)).status).toBe(401);
    });

    it('the auditor and mechanics never book (403, nothing written)', async () => {
      const before = await count();
      const start = day() + 10 * HOUR;
      const auditor = await s.api('POST', '/schedules/edit.json', {
        token: await (await import('../pilots/people-helpers.ts')).auditorToken(s),
        body: { Schedule: dual(start) },
      });
      expect(auditor.status).toBe(403);
      expect((await edit('mechanic@skyline.test', dual(start))).status).toBe(403);
      expect(await count()).toBe(before);
    });

    it('role by role: staff book another pilot, pilots and students only themselves, auditor and mechanic never', async () => {
      const staff = [
        'root@skyline.test',
        'admin@skyline.test',
        'ops@skyline.test',
        'safety@skyline.test',
        'headtraining@skyline.test',
        'ground@skyline.test',
        'instructor@skyline.test',
        'dispatch@skyline.test',
      ];
      const start = day() + 6 * HOUR;
      for (const [i, email] of staff.entries()) {
        const at = start + i * HOUR;
        const r = await edit(email, {
          aircraft_id: def,
          pilot_id: dana,
          flight_type_id: types.Checkride,
          start: at,
          end: at + HOUR,
        });
        expect(r.body.result, `${email}: ${JSON.stringify(r.body)}`).toBe(true);
      }
      for (const email of ['pilot@skyline.test', 'student@skyline.test']) {
        const r = await edit(email, {
          aircraft_id: abc,
          pilot_id: dana,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        });
        expect(r.body, email).toMatchObject({ result: false, code: 'NOT_ALLOWED' });
      }
      expect(
        (
          await edit('mechanic@skyline.test', {
            aircraft_id: abc,
            pilot_id: dana,
            flight_type_id: types.Solo,
            start,
            end: start + HOUR,
          })
        ).status,
      ).toBe(403);
    });

    it('bad input is a 400 with field errors and writes nothing', async () => {
      const before = await count();
      const start = day() + 10 * HOUR;
      const missing = await edit('dispatch@skyline.test', {
        pilot_id: student,
        flight_type_id: types['Dual training'],
        start,
        end: start + HOUR,
      });
      expect(missing.status).toBe(400);
      expect(missing.body.result).toBe(false);
      expect(Object.keys(missing.body.errors).join()).toMatch(/aircraft_id/);
      const backwards = await edit('dispatch@skyline.test', dual(start, { end: start - HOUR }));
      expect(backwards.status).toBe(400);
      expect(JSON.stringify(backwards.body.errors)).toMatch(/end after it starts/);
      const offGrid = await edit('dispatch@skyline.test', dual(start + 7));
      expect(offGrid.status).toBe(400);
      const tooLong = await edit('dispatch@skyline.test', dual(start, { end: start + 8 * DAY }));
      expect(tooLong.status).toBe(400);
      const notNumber = await edit('dispatch@skyline.test', dual(start, { start: 'tomorrow' }));
      expect(notNumber.status).toBe(400);
      const unknown = await edit(
        'dispatch@skyline.test',
        dual(start, { aircraft_id: uuidv7(), flight_type_id: uuidv7() }),
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors['Schedule.aircraft_id']).toEqual(['Unknown aircraft in your company']);
      expect(unknown.body.errors['Schedule.flight_type_id']).toBeDefined();
      const notInstructor = await edit('dispatch@skyline.test', dual(start, { instructor_id: dana }));
      expect(notInstructor.body.errors['Schedule.instructor_id']).toEqual(['This user is not a flight instructor']);
      const badQuery = await index('dispatch@skyline.test', 'from=yesterday&to=2026-01-01');
      expect(badQuery.status).toBe(400);
      const tooWide = await index('dispatch@skyline.test', 'from=2026-01-01&to=2026-06-01');
      expect(tooWide.status).toBe(400);
      expect(
        (await s.api('GET', '/schedules/availability.json?date=2026-02-30', { token: await t('pilot@skyline.test') }))
          .status,
      ).toBe(400);
      expect(await count()).toBe(before);
    });
  });

  describe('bookings and their flights', () => {
    it('staff book a dual lesson: the SCHEDULED flight takes the seats, times and base airport; pilot and instructor are told', async () => {
      const start = day() + 9 * HOUR;
      const r = ok(await edit('dispatch@skyline.test', dual(start, { remarks: 'Circuits' })));
      const b = await booking(r.id);
      expect(b).toMatchObject({
        aircraft_id: abc,
        pilot_id: student,
        instructor_id: ivan,
        status: 'BOOKED',
        flight_id: r.flight_id,
        user_id: s.userId('dispatch@skyline.test'),
        departure_airport: 'LECU',
      });
      expect(Number(b.change_no)).toBeGreaterThan(0);
      const f = await flight(r.flight_id);
      // Dual training is fi / dual: the instructor is PIC, the student SIC; Skyline logs flights in UTC.
      expect(f).toMatchObject({
        status: 'SCHEDULED',
        aircraft_id: abc,
        flight_type_id: types['Dual training'],
        pic_id: ivan,
        sic_id: student,
        supervisor_id: null,
        departure_airport: 'LECU',
        landing_airport: 'LECU',
        remarks: 'Circuits',
      });
      expect(f.date).toBe(new Date(start * 1000).toISOString().slice(0, 10));
      expect(Number(f.offblocks)).toBe(start);
      expect(Number(f.onblocks)).toBe(start + 2 * HOUR);
      expect((await notes(student))[0].title).toMatch(/^New booking: EC-ABC/);
      expect((await notes(ivan))[0].title).toMatch(/^New booking: EC-ABC/);
      const listed = await index('dispatch@skyline.test', `from=${start - HOUR}&to=${start + 3 * HOUR}`);
      expect(listed.body.schedules).toHaveLength(1);
      expect(listed.body.schedules[0]).toEqual({
        Schedule: {
          id: r.id,
          aircraft_id: abc,
          pilot_id: student,
          instructor_id: ivan,
          flight_type_id: types['Dual training'],
          base_id: s.refs.bases['Cuatro Vientos'],
          start,
          end: start + 2 * HOUR,
          status: 'BOOKED',
          flight_id: r.flight_id,
          remarks: 'Circuits',
          user_id: s.userId('dispatch@skyline.test'),
          departure_airport: 'LECU',
          landing_airport: 'LECU',
        },
        Aircraft: { id: abc, registration: 'EC-ABC' },
        Pilot: { id: student, name: 'Stefan', surname: 'Student' },
        Instructor: { id: ivan, name: 'Ivan', surname: 'Instructor' },
        FlightType: { id: types['Dual training'], name: 'Dual training', color: expect.anything() },
      });
    });

    it('a supervised type puts the instructor in the supervisor seat; a solo type only the pilot', async () => {
      const start = day() + 9 * HOUR;
      const sup = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: abc,
          pilot_id: pilot,
          instructor_id: ivan,
          flight_type_id: types['Supervised solo'],
          start,
          end: start + HOUR,
        }),
      );
      expect(await flight(sup.flight_id)).toMatchObject({ pic_id: pilot, sic_id: null, supervisor_id: ivan });
      const solo = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: def,
          pilot_id: student,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      expect(await flight(solo.flight_id)).toMatchObject({ pic_id: student, sic_id: null, supervisor_id: null });
    });

    it('CONFLICT_AIRCRAFT, CONFLICT_PILOT and CONFLICT_INSTRUCTOR list the competing bookings; touching ends fit', async () => {
      const start = day() + 10 * HOUR;
      const first = ok(await edit('dispatch@skyline.test', dual(start)));
      const before = await count();
      const plane = await edit('dispatch@skyline.test', {
        aircraft_id: abc,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start: start + HOUR,
        end: start + 3 * HOUR,
      });
      expect(plane.status).toBe(200);
      expect(plane.body).toMatchObject({
        result: false,
        code: 'CONFLICT_AIRCRAFT',
        conflicts: [
          { id: first.id, aircraft_id: abc, pilot_id: student, instructor_id: ivan, start, end: start + 2 * HOUR },
        ],
      });
      expect(plane.body.message).toMatch(/aircraft is already booked/);
      const person = await edit('dispatch@skyline.test', {
        aircraft_id: def,
        pilot_id: student,
        flight_type_id: types.Solo,
        start: start + HOUR,
        end: start + 3 * HOUR,
      });
      expect(person.body).toMatchObject({ result: false, code: 'CONFLICT_PILOT', conflicts: [{ id: first.id }] });
      const teacher = await edit('dispatch@skyline.test', {
        aircraft_id: def,
        pilot_id: pilot,
        instructor_id: ivan,
        flight_type_id: types['Dual training'],
        start: start - HOUR,
        end: start + 30 * 60,
      });
      expect(teacher.body).toMatchObject({ result: false, code: 'CONFLICT_INSTRUCTOR', conflicts: [{ id: first.id }] });
      // An instructor flying as a pilot elsewhere is the same person: a booking as pilot clashes too.
      const asPilot = await edit('dispatch@skyline.test', {
        aircraft_id: def,
        pilot_id: ivan,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      expect(asPilot.body.code).toBe('CONFLICT_PILOT');
      expect(await count()).toBe(before);
      ok(await edit('dispatch@skyline.test', dual(start + 2 * HOUR)));
      ok(await edit('dispatch@skyline.test', dual(start - 2 * HOUR)));
    });

    it('parallel bookings of one slot: exactly one wins, the others see it as the conflict', async () => {
      const start = day() + 11 * HOUR;
      const tries = [pilot, student, dana, ivan, hugo].map((who) => ({
        aircraft_id: sim,
        pilot_id: who,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      }));
      const token = await t('dispatch@skyline.test');
      const answers = await Promise.all(
        tries.map((Schedule) => s.api('POST', '/schedules/edit.json', { token, body: { Schedule } })),
      );
      const winners = answers.filter((a) => a.body.result === true);
      expect(winners).toHaveLength(1);
      for (const a of answers.filter((x) => x.body.result === false))
        expect(a.body).toMatchObject({ code: 'CONFLICT_AIRCRAFT', conflicts: [{ id: winners[0].body.id }] });
      const stored = await s.ctx.db
        .selectFrom('schedules')
        .select('id')
        .where('aircraft_id', '=', sim)
        .where('start_at', '=', start)
        .execute();
      expect(stored).toHaveLength(1);
      const flights = await s.ctx.db
        .selectFrom('flights')
        .select('id')
        .where('aircraft_id', '=', sim)
        .where('offblocks', '=', start)
        .execute();
      expect(flights).toHaveLength(1);
    });

    it('moving a booking moves its flight and tells pilot and instructor; cancelling cancels it with a history row', async () => {
      const start = day() + 9 * HOUR;
      const r = ok(await edit('dispatch@skyline.test', dual(start)));
      const moved = ok(await edit('dispatch@skyline.test', dual(start + 3 * HOUR, { id: r.id, aircraft_id: def })));
      expect(moved).toMatchObject({ id: r.id, flight_id: r.flight_id });
      expect(await flight(r.flight_id)).toMatchObject({ aircraft_id: def, status: 'SCHEDULED' });
      expect(Number((await flight(r.flight_id)).offblocks)).toBe(start + 3 * HOUR);
      expect((await notes(student))[0].title).toMatch(/^Booking moved: EC-DEF/);
      // The old slot is free again.
      ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: abc,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      const c = await del('dispatch@skyline.test', r.id);
      expect(c.body).toEqual({ result: true });
      expect((await booking(r.id)).status).toBe('CANCELED');
      expect((await flight(r.flight_id)).status).toBe('CANCELED');
      const history = await s.ctx.db
        .selectFrom('flight_changes')
        .select(['action', 'comments'])
        .where('flight_id', '=', r.flight_id)
        .execute();
      expect(history.map((h) => h.action)).toContain('cancel');
      expect((await notes(ivan))[0].title).toMatch(/^Booking canceled/);
      // A canceled booking frees its slot, leaves the board, and cannot be moved.
      ok(await edit('dispatch@skyline.test', dual(start + 3 * HOUR, { aircraft_id: def })));
      expect((await edit('dispatch@skyline.test', dual(start, { id: r.id }))).status).toBe(400);
      expect((await del('dispatch@skyline.test', r.id)).body).toEqual({ result: true });
    });

    it('a dispatched flight syncs its airports to the booking, which can then no longer move or cancel (FLIGHT_LOCKED)', async () => {
      const start = Math.floor(Date.now() / 1000 / 300) * 300 + 2 * HOUR;
      const r = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: sim,
          pilot_id: dana,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      const f = await flight(r.flight_id);
      const token = await t('dispatch@skyline.test');
      const fe = await s.api('POST', '/flights/edit.json', {
        token,
        body: { Flight: { id: r.flight_id, departure_airport: 'LECU', landing_airport: 'LELL', date: f.date } },
      });
      expect(fe.body.result).toBe(true);
      const d = await s.api('POST', `/flights/dispatch/${r.flight_id}.json`, { token });
      expect(d.body.result).toBe(true);
      expect(await booking(r.id)).toMatchObject({ departure_airport: 'LECU', landing_airport: 'LELL' });
      const move = await edit('dispatch@skyline.test', {
        id: r.id,
        aircraft_id: sim,
        pilot_id: dana,
        flight_type_id: types.Solo,
        start: start + HOUR,
        end: start + 2 * HOUR,
      });
      expect(move.body).toMatchObject({ result: false, code: 'FLIGHT_LOCKED' });
      expect(move.body.message).toMatch(/dispatched/);
      const cancel = await del('dispatch@skyline.test', r.id);
      expect(cancel.body).toMatchObject({ result: false, code: 'FLIGHT_LOCKED' });
      expect((await booking(r.id)).status).toBe('BOOKED');
      expect((await flight(r.flight_id)).status).toBe('DISPATCHED');
    });
  });

  describe('self-booking', () => {
    it('a student books a lesson for themself inside the hours; not another pilot, nor a non-bookable type, nor in the past', async () => {
      const start = day() + 10 * HOUR;
      const mine = ok(await edit('student@skyline.test', dual(start)));
      expect((await booking(mine.id)).user_id).toBe(student);
      const before = await count();
      const other = await edit('student@skyline.test', {
        aircraft_id: def,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      expect(other.body).toMatchObject({
        result: false,
        code: 'NOT_ALLOWED',
        message: 'You can only book yourself as the pilot.',
      });
      const checkride = await edit('pilot@skyline.test', {
        aircraft_id: def,
        pilot_id: pilot,
        flight_type_id: types.Checkride,
        start,
        end: start + HOUR,
      });
      expect(checkride.body).toMatchObject({
        result: false,
        code: 'NOT_ALLOWED',
        message: 'This flight type cannot be self-booked.',
      });
      const past = Math.floor(Date.now() / 1000 / 300) * 300 - DAY;
      const late = await edit('pilot@skyline.test', {
        aircraft_id: def,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start: past,
        end: past + HOUR,
      });
      expect(late.body).toMatchObject({ result: false, code: 'PAST' });
      // Another pilot's booking is invisible to a pilot: 404, unchanged.
      expect((await del('pilot@skyline.test', mine.id)).status).toBe(404);
      expect((await edit('pilot@skyline.test', dual(start, { id: mine.id, pilot_id: pilot }))).status).toBe(404);
      expect(await count()).toBe(before);
      expect((await del('student@skyline.test', mine.id)).body).toEqual({ result: true });
    });

    it('without self_schedule only the office books (Harbor)', async () => {
      const start = day() + 10 * HOUR;
      const n123 = (await s.api('GET', '/aircraft/index.json', { token: await t('admin@harbor.test') })).body
        .aircraft[0].Aircraft.id;
      const pia = s.userId('pilot@harbor.test', 'harbor');
      const body = { aircraft_id: n123, pilot_id: pia, flight_type_id: await harborTypeId(), start, end: start + HOUR };
      const r = await edit('pilot@harbor.test', body);
      expect(r.body).toMatchObject({ result: false, code: 'NOT_ALLOWED' });
      expect(r.body.message).toMatch(/Self-booking is not enabled/);
      ok(await edit('admin@harbor.test', body));
    });

    it('OUTSIDE_HOURS for a booking over the closing time, for the office too (issue 28)', async () => {
      const start = day();
      const rows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
        id: uuidv7(),
        company_id: sky,
        base_id: null,
        weekday,
        override_date: null,
        closed: 0,
        start_minute: 8 * 60,
        end_minute: 18 * 60,
        created: 0,
      }));
      await (s.ctx.db as any).insertInto('operating_hours').values(rows).execute();
      try {
        // Madrid is UTC+1 or +2: 08:00 UTC is inside 08:00-18:00 local, 16:00-18:00 UTC crosses the closing time.
        ok(
          await edit('pilot@skyline.test', {
            aircraft_id: def,
            pilot_id: pilot,
            flight_type_id: types.Solo,
            start: start + 8 * HOUR,
            end: start + 9 * HOUR,
          }),
        );
        const late = await edit('pilot@skyline.test', {
          aircraft_id: def,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start: start + 17 * HOUR,
          end: start + 19 * HOUR,
        });
        expect(late.body).toMatchObject({ result: false, code: 'OUTSIDE_HOURS' });
        expect(late.body.message).toMatch(/outside the operating hours/);
        const office = await edit('dispatch@skyline.test', {
          aircraft_id: def,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start: start + 17 * HOUR,
          end: start + 19 * HOUR,
        });
        expect(office.body).toMatchObject({ result: false, code: 'OUTSIDE_HOURS' });
        const avail = await s.api(
          'GET',
          `/schedules/availability.json?date=${new Date(start * 1000).toISOString().slice(0, 10)}`,
          { token: await t('student@skyline.test') },
        );
        expect(avail.body.hours.closed).toBe(false);
        expect(avail.body.hours.windows).toHaveLength(1);
        const defFree = avail.body.aircraft.find((a: any) => a.registration === 'EC-DEF').free;
        // Busy 08-09 UTC; open 08:00-18:00 Madrid (the refused bookings took nothing).
        expect(defFree.some((w: any) => w.start <= start + 9 * HOUR && w.end >= start + 10 * HOUR)).toBe(true);
        expect(defFree.some((w: any) => w.start < start + 9 * HOUR && w.end > start + 8 * HOUR)).toBe(false);
        expect(avail.body.instructors.map((i: any) => i.id)).toContain(ivan);
      } finally {
        await s.ctx.db.deleteFrom('operating_hours').where('company_id', '=', sky).execute();
      }
    });

    it('DOCUMENTS: required PIC certificates per require_pic_docs, schedule_self_allow_nodocs and block_pic_without_docs', async () => {
      const start = day() + 10 * HOUR;
      const reqId = uuidv7();
      await s.ctx.db
        .insertInto('flight_type_certificates')
        .values({ id: reqId, company_id: sky, flight_type_id: types.Solo, role: 'pic', certificate_type: 'MED_CLASS2' })
        .execute();
      const solo = (who: string, at: number, plane = def) => ({
        aircraft_id: plane,
        pilot_id: who,
        flight_type_id: types.Solo,
        start: at,
        end: at + HOUR,
      });
      try {
        ok(await edit('pilot@skyline.test', solo(pilot, start))); // require_pic_docs off: no check
        await setFlag(s, sky, 'require_pic_docs', true);
        const refused = await edit('pilot@skyline.test', solo(pilot, start + 2 * HOUR));
        expect(refused.body).toMatchObject({ result: false, code: 'DOCUMENTS' });
        expect(refused.body.message).toMatch(/MED_CLASS2/);
        // Staff are governed by require_pic_docs with block_pic_without_docs: through with a warning.
        const staff = ok(await edit('dispatch@skyline.test', solo(pilot, start + 2 * HOUR)));
        expect(staff.warning).toMatch(/MED_CLASS2/);
        await setFlag(s, sky, 'schedule_self_allow_nodocs', true);
        const allowed = ok(await edit('pilot@skyline.test', solo(pilot, start + 4 * HOUR)));
        expect(allowed.warning).toMatch(/lacks valid required certificates/);
        await setFlag(s, sky, 'block_pic_without_docs', true);
        expect((await edit('pilot@skyline.test', solo(pilot, start + 6 * HOUR))).body.code).toBe('DOCUMENTS');
        expect((await edit('dispatch@skyline.test', solo(pilot, start + 6 * HOUR))).body.code).toBe('DOCUMENTS');
        // A valid certificate at the booking time lets it through.
        const cert = await s.api('POST', '/pilots/certificates/edit.json', {
          token: await t('pilot@skyline.test'),
          body: {
            UserCertificate: { user_id: pilot, type: 'MED_CLASS2', issue: '2020-01-01', expiration: '2099-01-01' },
          },
        });
        expect(cert.body.result).toBe(true);
        ok(await edit('pilot@skyline.test', solo(pilot, start + 6 * HOUR)));
      } finally {
        for (const f of ['require_pic_docs', 'schedule_self_allow_nodocs', 'block_pic_without_docs'])
          await setFlag(s, sky, f, false);
        await s.ctx.db.deleteFrom('flight_type_certificates').where('id', '=', reqId).execute();
      }
    });
  });

  describe('aircraft and instructor availability', () => {
    it('AIRCRAFT_BLOCKED by an item expired at the start or expiring before the end; a booking ending before the deadline fits', async () => {
      const jet = s.refs.aircraft['EC-JET'];
      const start = day() + 10 * HOUR;
      await insertMel(s, jet, start + HOUR, 'Cabin pressure indicator');
      const body = (a: number, b: number) => ({
        aircraft_id: jet,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start: a,
        end: b,
      });
      const across = await edit('dispatch@skyline.test', body(start, start + 2 * HOUR));
      expect(across.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
      expect(across.body.message).toMatch(/EC-JET.*33.*category C.*Cabin pressure indicator.*expires before the end/);
      const after = await edit('dispatch@skyline.test', body(start + 2 * HOUR, start + 3 * HOUR));
      expect(after.body).toMatchObject({ code: 'AIRCRAFT_BLOCKED' });
      expect(after.body.message).toMatch(/expired at the start/);
      ok(await edit('dispatch@skyline.test', body(start - HOUR, start + HOUR)));
    });

    it('availability: an aircraft blocked by an open MEL item has no free time from the block on, with the reason; others unaffected', async () => {
      const start = day();
      const date = new Date(start * 1000).toISOString().slice(0, 10);
      const expiring = await insertMel(s, abc, start + 12 * HOUR, 'Landing light');
      const expired = await insertMel(s, sim, start - HOUR, 'Motion platform');
      try {
        const avail = await s.api('GET', `/schedules/availability.json?date=${date}`, {
          token: await t('student@skyline.test'),
        });
        expect(avail.status).toBe(200);
        const of = (reg: string) => avail.body.aircraft.find((a: any) => a.registration === reg);
        // Expiring at 12:00 UTC: free time ends there, as a booking ending later is AIRCRAFT_BLOCKED.
        expect(of('EC-ABC').blocked).toMatchObject({ from: start + 12 * HOUR });
        expect(of('EC-ABC').blocked.reason).toBe('EC-ABC: MEL item 33 (category C): Landing light (expires)');
        expect(of('EC-ABC').free.every((w: any) => w.end <= start + 12 * HOUR)).toBe(true);
        expect(of('EC-ABC').free.length).toBeGreaterThan(0);
        // Expired before the day: the whole day is blocked.
        expect(of('SIM-01').free).toEqual([]);
        expect(of('SIM-01').blocked.reason).toBe('SIM-01: MEL item 33 (category C): Motion platform (expired)');
        expect(of('EC-DEF').blocked).toBeNull();
        expect(of('EC-DEF').free.length).toBeGreaterThan(0);
        // The booking rule gives the same answer: the last free window fits, one minute past the block does not.
        const last = of('EC-ABC').free.at(-1);
        const fits = {
          aircraft_id: abc,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start: last.end - HOUR,
          end: last.end,
        };
        ok(await edit('dispatch@skyline.test', fits));
        const past = await edit('dispatch@skyline.test', { ...fits, start: last.end, end: last.end + HOUR });
        expect(past.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
        expect(past.body.message).toBe(
          'EC-ABC cannot be booked: MEL item 33 (category C): Landing light is expired at the start.',
        );
        const sims = await edit('dispatch@skyline.test', {
          aircraft_id: sim,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start: start + 9 * HOUR,
          end: start + 10 * HOUR,
        });
        expect(sims.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
      } finally {
        await s.ctx.db
          .updateTable('aircraft_reports')
          .set({ status: 'CLOSED' })
          .where('id', 'in', [expiring, expired])
          .execute();
      }
    });

    it('INSTRUCTOR_UNAVAILABLE over an OFF or REST duty entry; a DUTY entry is fine', async () => {
      const start = day() + 10 * HOUR;
      const cv = s.refs.bases['Cuatro Vientos'];
      const off = await s.api('POST', '/bases/add_schedule.json', {
        token: await t('dispatch@skyline.test'),
        body: { base: cv, pilot: hugo, start: start - HOUR, end: start + HOUR, type: 'OFF' },
      });
      expect(off.status).toBe(200);
      await s.api('POST', '/bases/add_schedule.json', {
        token: await t('dispatch@skyline.test'),
        body: { base: cv, pilot: hugo, start: start + 2 * HOUR, end: start + 3 * HOUR, type: 'DUTY' },
      });
      const r = await edit('dispatch@skyline.test', dual(start, { instructor_id: hugo }));
      expect(r.body).toMatchObject({ result: false, code: 'INSTRUCTOR_UNAVAILABLE' });
      expect(r.body.message).toMatch(/off/);
      ok(await edit('dispatch@skyline.test', dual(start + 2 * HOUR, { instructor_id: hugo })));
    });
  });

  describe('visibility and isolation', () => {
    it('students see their own bookings, the office all; filters by aircraft and person; ordered by start', async () => {
      const start = day() + 8 * HOUR;
      const a = ok(await edit('dispatch@skyline.test', dual(start + 4 * HOUR)));
      const b = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: def,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      const range = `from=${start}&to=${start + 12 * HOUR}`;
      expect((await index('dispatch@skyline.test', range)).body.schedules.map((x: any) => x.Schedule.id)).toEqual([
        b.id,
        a.id,
      ]);
      expect((await index('student@skyline.test', range)).body.schedules.map((x: any) => x.Schedule.id)).toEqual([
        a.id,
      ]);
      expect((await index('instructor@skyline.test', range)).body.schedules.map((x: any) => x.Schedule.id)).toEqual([
        a.id,
      ]);
      expect((await index('pilot@skyline.test', range)).body.schedules.map((x: any) => x.Schedule.id)).toEqual([b.id]);
      expect(
        (await index('dispatch@skyline.test', `${range}&aircraft_id=${def}`)).body.schedules.map(
          (x: any) => x.Schedule.id,
        ),
      ).toEqual([b.id]);
      expect(
        (await index('dispatch@skyline.test', `${range}&user_id=${ivan}`)).body.schedules.map(
          (x: any) => x.Schedule.id,
        ),
      ).toEqual([a.id]);
      const date = new Date(start * 1000).toISOString().slice(0, 10);
      expect(
        (await index('admin@skyline.test', `from=${date}&to=${date}`)).body.schedules.map((x: any) => x.Schedule.id),
      ).toEqual(expect.arrayContaining([a.id, b.id]));
      expect((await index('admin@harbor.test', range)).body.schedules).toEqual([]);
      // The rendered board is kept by company data version: a write shows at once, a read repeats it.
      const again = await index('dispatch@skyline.test', range);
      expect(again.body.schedules.map((x: any) => x.Schedule.id)).toEqual([b.id, a.id]);
      expect((await del('dispatch@skyline.test', b.id)).body.result).toBe(true);
      expect((await index('dispatch@skyline.test', range)).body.schedules.map((x: any) => x.Schedule.id)).toEqual([
        a.id,
      ]);
      await s.ctx.tx(async (uow) => {
        await uow.trx
          .updateTable('users')
          .set({ surname: 'Renamed', change_no: await uow.changeNo(sky, 'users') })
          .where('id', '=', ivan)
          .execute();
      });
      expect((await index('dispatch@skyline.test', range)).body.schedules[0].Instructor.surname).toBe('Renamed');
      await s.ctx.tx(async (uow) => {
        await uow.trx
          .updateTable('users')
          .set({ surname: 'Instructor', change_no: await uow.changeNo(sky, 'users') })
          .where('id', '=', ivan)
          .execute();
      });
    });

    it("another company's booking is 404 to edit or cancel and stays unchanged", async () => {
      const start = day() + 10 * HOUR;
      const r = ok(await edit('dispatch@skyline.test', dual(start)));
      const steal = await edit('admin@harbor.test', {
        id: r.id,
        aircraft_id: abc,
        pilot_id: student,
        flight_type_id: await harborTypeId(),
        start,
        end: start + HOUR,
      });
      expect(steal.status).toBe(404);
      expect((await del('admin@harbor.test', r.id)).status).toBe(404);
      expect(await booking(r.id)).toMatchObject({ status: 'BOOKED', end_at: start + 2 * HOUR });
      // Skyline ids are unknown references inside Harbor.
      const cross = await edit('admin@harbor.test', {
        aircraft_id: abc,
        pilot_id: student,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      expect(cross.status).toBe(400);
      expect(
        (
          await s.api('GET', `/schedules/availability.json?date=2026-01-01&base_id=${s.refs.bases['Cuatro Vientos']}`, {
            token: await t('admin@harbor.test'),
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('offline command schedule.book', () => {
    const command = (args: Record<string, unknown>) => ({
      id: uuidv7(),
      name: 'schedule.book',
      args,
      client_time: Date.now(),
      user_id: null,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    });

    it('two students queue the same slot offline: one wins, the other is rejected with the reason and the competing booking', async () => {
      const start = day() + 10 * HOUR;
      const mine = command({
        new_id: uuidv7(),
        aircraft_id: abc,
        pilot_id: student,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      const theirs = command({
        new_id: uuidv7(),
        aircraft_id: abc,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      const [ra, rb] = await Promise.all([
        push(s, await t('student@skyline.test'), 'commands', [{ assumedMasterState: null, newDocumentState: mine }]),
        push(s, await t('pilot@skyline.test'), 'commands', [{ assumedMasterState: null, newDocumentState: theirs }]),
      ]);
      const decided = [ra.body.conflicts[0], rb.body.conflicts[0]];
      expect(decided.map((d) => d.status).sort()).toEqual(['accepted', 'rejected']);
      const winner = decided.find((d) => d.status === 'accepted');
      const loser = decided.find((d) => d.status === 'rejected');
      const winnerId = winner.id === mine.id ? mine.args.new_id : theirs.args.new_id;
      expect(winner.result).toMatchObject({ id: winnerId, flight_id: expect.any(String) });
      expect(loser.reason).toMatch(/aircraft is already booked/);
      expect(loser.details).toMatchObject({
        code: 'CONFLICT_AIRCRAFT',
        conflicts: [{ id: winnerId, start, end: start + HOUR }],
      });
      expect(
        await s.ctx.db
          .selectFrom('schedules')
          .select('id')
          .where('aircraft_id', '=', abc)
          .where('start_at', '=', start)
          .execute(),
      ).toEqual([{ id: winnerId }]);
    });

    it('the bookings collection replicates own bookings to students and instructors, every booking to the office; pushes are refused', async () => {
      const start = day() + 10 * HOUR;
      const mine = ok(await edit('dispatch@skyline.test', dual(start)));
      const other = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: def,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      const live = (docs: any[]) => docs.filter((d) => !d._deleted);
      const studentDocs = live((await pullAll(s, await t('student@skyline.test'), 'bookings')).docs);
      expect(studentDocs.map((d) => d.id)).toContain(mine.id);
      expect(studentDocs.map((d) => d.id)).not.toContain(other.id);
      expect(studentDocs.find((d) => d.id === mine.id)).toMatchObject({
        aircraft_id: abc,
        pilot_id: student,
        instructor_id: ivan,
        start,
        end: start + 2 * HOUR,
        status: 'BOOKED',
        flight_id: mine.flight_id,
      });
      const ivanDocs = live((await pullAll(s, await t('instructor@skyline.test'), 'bookings')).docs).map((d) => d.id);
      expect(ivanDocs).toContain(mine.id);
      expect(ivanDocs).not.toContain(other.id);
      const office = live((await pullAll(s, await t('dispatch@skyline.test'), 'bookings')).docs).map((d) => d.id);
      expect(office).toEqual(expect.arrayContaining([mine.id, other.id]));
      expect((await pullAll(s, await t('admin@harbor.test'), 'bookings')).docs.map((d) => d.id)).not.toContain(mine.id);
      // A row the viewer may not see arrives only as a blank deletion, nothing of its content.
      const hidden = (await pullAll(s, await t('student@skyline.test'), 'bookings')).docs.find(
        (d) => d.id === other.id,
      );
      if (hidden) expect(hidden).toMatchObject({ _deleted: true, pilot_id: '' });
      const doc = studentDocs.find((d) => d.id === mine.id);
      const pushed = await push(s, await t('student@skyline.test'), 'bookings', [
        { assumedMasterState: doc, newDocumentState: { ...doc, start: start + HOUR } },
      ]);
      // Read-only: the push answers the master state as a conflict and changes nothing.
      expect(pushed.body.conflicts).toEqual([expect.objectContaining({ id: mine.id, start })]);
      expect(Number((await booking(mine.id)).start_at)).toBe(start);
    });

    it('the command keeps the REST rules: a student cannot book another pilot offline either', async () => {
      const start = day() + 10 * HOUR;
      const cmd = command({
        new_id: uuidv7(),
        aircraft_id: abc,
        pilot_id: pilot,
        flight_type_id: types.Solo,
        start,
        end: start + HOUR,
      });
      const r = await push(s, await t('student@skyline.test'), 'commands', [
        { assumedMasterState: null, newDocumentState: cmd },
      ]);
      expect(r.body.conflicts[0]).toMatchObject({ status: 'rejected', details: { code: 'NOT_ALLOWED' } });
    });
  });

  describe('calendar feeds', () => {
    it('a personal ICS feed behind a secret URL parses and lists the bookings; revoking it answers 404', async () => {
      const start = day() + 10 * HOUR;
      const r = ok(await edit('dispatch@skyline.test', dual(start, { remarks: 'Stalls' })));
      const created = await s.api('POST', '/schedules/feeds/create.json', {
        token: await t('student@skyline.test'),
        body: { kind: 'user' },
      });
      expect(created.body).toMatchObject({
        result: true,
        token: expect.stringMatching(/^cal_/),
        path: expect.stringMatching(/^\/api\/v1\/schedules\/ics\/cal_.+\.ics$/),
      });
      const url = created.body.path.replace('/api/v1', '');
      const feed = await s.api('GET', url);
      expect(feed.status).toBe(200);
      expect(feed.headers.get('content-type')).toMatch(/text\/calendar/);
      const text = typeof feed.body === 'string' ? feed.body : JSON.stringify(feed.body);
      const parsed = ical.sync.parseICS(text);
      const events = Object.values(parsed).filter((e: any) => e.type === 'VEVENT') as any[];
      const ev = events.find((e) => e.uid === `${r.id}@schedules`);
      expect(ev).toBeDefined();
      expect(ev.summary).toBe('EC-ABC · Dual training');
      expect(ev.start.getTime() / 1000).toBe(start);
      expect(ev.end.getTime() / 1000).toBe(start + 2 * HOUR);
      expect(ev.description).toMatch(/Stalls/);
      // Stored as a hash only.
      expect(
        await s.ctx.db
          .selectFrom('schedule_feeds')
          .select('id')
          .where('token_hash', '=', created.body.token)
          .executeTakeFirst(),
      ).toBeUndefined();
      const listed = await s.api('GET', '/schedules/feeds.json', { token: await t('student@skyline.test') });
      expect(listed.body.feeds).toContainEqual(
        expect.objectContaining({ id: created.body.id, kind: 'user', subject_id: student, revoked: false }),
      );
      expect(
        (
          await s.api('POST', `/schedules/feeds/revoke/${created.body.id}.json`, {
            token: await t('pilot@skyline.test'),
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await s.api('POST', `/schedules/feeds/revoke/${created.body.id}.json`, {
            token: await t('student@skyline.test'),
          })
        ).body,
      ).toEqual({ result: true });
      expect((await s.api('GET', url)).status).toBe(404);
      expect((await s.api('GET', '/schedules/ics/cal_not-a-real-token.ics')).status).toBe(404);
    });

    it('the feed speaks its owner’s language: calendar name and event lines in Spanish, read by an iCalendar reader', async () => {
      const start = day() + 13 * HOUR;
      const r = ok(await edit('dispatch@skyline.test', dual(start, { remarks: 'Pérdidas' })));
      const created = await s.api('POST', '/schedules/feeds/create.json', {
        token: await t('student@skyline.test'),
        body: { kind: 'user' },
      });
      const url = created.body.path.replace('/api/v1', '');
      const read = async () => {
        const feed = await s.api('GET', url);
        expect(feed.status).toBe(200);
        const text = typeof feed.body === 'string' ? feed.body : JSON.stringify(feed.body);
        const parsed = ical.sync.parseICS(text);
        const ev = (Object.values(parsed) as any[]).find((e) => e.type === 'VEVENT' && e.uid === `${r.id}@schedules`);
        const name = (Object.values(parsed) as any[]).find((e) => e.type === 'VCALENDAR')?.['WR-CALNAME'];
        return { ev, name: name ?? /X-WR-CALNAME:(.*)/.exec(text)?.[1]?.trim() };
      };
      const english = await read();
      expect(english.name).toMatch(/ bookings$/);
      expect(english.ev.summary).toBe('EC-ABC · Dual training');
      expect(english.ev.description).toMatch(/^Pilot: .+\nInstructor: .+\nRemarks: Pérdidas$/);
      // The owner switches to Spanish: the same URL answers in Spanish, no new token needed.
      const own = await s.ctx.db
        .selectFrom('users')
        .select('language')
        .where('id', '=', student)
        .executeTakeFirstOrThrow();
      await s.ctx.db.updateTable('users').set({ language: 'es' }).where('id', '=', student).execute();
      try {
        const spanish = await read();
        expect(spanish.name).toMatch(/^Reservas de /);
        expect(spanish.ev.summary).toBe('EC-ABC · Dual training');
        expect(spanish.ev.description).toMatch(/^Piloto: .+\nInstructor: .+\nObservaciones: Pérdidas$/);
        expect(spanish.ev.description).not.toMatch(/Pilot:|Remarks/);
        expect(spanish.ev.start.getTime() / 1000).toBe(start);
      } finally {
        await s.ctx.db.updateTable('users').set({ language: own.language }).where('id', '=', student).execute();
      }
    });

    it('aircraft feeds are for staff: a pilot gets 403, another company 404', async () => {
      expect(
        (
          await s.api('POST', '/schedules/feeds/create.json', {
            token: await t('pilot@skyline.test'),
            body: { kind: 'aircraft', aircraft_id: abc },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await s.api('POST', '/schedules/feeds/create.json', {
            token: await t('admin@harbor.test'),
            body: { kind: 'aircraft', aircraft_id: abc },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await s.api('POST', '/schedules/feeds/create.json', {
            token: await t('dispatch@skyline.test'),
            body: { kind: 'plane' },
          })
        ).status,
      ).toBe(400);
      const start = day() + 10 * HOUR;
      const b = ok(
        await edit('dispatch@skyline.test', {
          aircraft_id: sim,
          pilot_id: pilot,
          flight_type_id: types.Solo,
          start,
          end: start + HOUR,
        }),
      );
      const created = await s.api('POST', '/schedules/feeds/create.json', {
        token: await t('dispatch@skyline.test'),
        body: { kind: 'aircraft', aircraft_id: sim },
      });
      expect(created.status).toBe(200);
      const feed = await s.api('GET', created.body.path.replace('/api/v1', ''));
      const text = typeof feed.body === 'string' ? feed.body : JSON.stringify(feed.body);
      const events = Object.values(ical.sync.parseICS(text)).filter((e: any) => e.type === 'VEVENT') as any[];
      expect(events.map((e) => e.uid)).toContain(`${b.id}@schedules`);
      expect(events.every((e) => String(e.summary).startsWith('SIM-01'))).toBe(true);
    });
  });
});
