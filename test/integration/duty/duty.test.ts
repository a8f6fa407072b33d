import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { createFlight, tokenCache, typeIds } from '../flights/helpers.ts';
import { recountDuty } from './recount.ts';

const H = 3600;
const MADRID = 'Europe/Madrid';
const madrid = (iso: string) => DateTime.fromISO(iso, { zone: MADRID }).toUnixInteger();

describe.each(DIALECTS)('Duty and flight-time limits on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let sky: string;
  let ivan: string;
  let paula: string;
  let student: string;
  let cv: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    sky = s.refs.companies.skyline;
    ivan = s.userId('instructor@skyline.test');
    paula = s.userId('pilot@skyline.test');
    student = s.userId('student@skyline.test');
    cv = s.refs.bases['Cuatro Vientos'];
  });
  afterAll(async () => {
    // The running totals equal a full recount from the flights after everything the suite did.
    if (s) expect(await recountDuty(s)).toEqual([]);
    await s?.close();
  });

  const duty = async (email: string, userId: string, q: string) =>
    s.api('GET', `/duty/${userId}.json?${q}`, { token: await t(email) });
  const setLimits = async (CompanySetting: Record<string, unknown>) =>
    s.api('POST', '/manager/companies/edit.json', { token: await t('admin@skyline.test'), body: { CompanySetting } });
  const limitsNow = async () =>
    s.ctx.db
      .selectFrom('companies')
      .select(['max_duty_hours', 'max_flight_hours_year'])
      .where('id', '=', sky)
      .executeTakeFirstOrThrow();
  /** A DUTY entry through the data layer (the bases API refuses entries in the past). */
  const dutyEntry = async (userId: string, start: number, end: number, type = 'DUTY') =>
    s.ctx.db
      .insertInto('base_schedules')
      .values({
        id: uuidv7(),
        company_id: sky,
        change_no: 0,
        deleted: 0,
        created: 1,
        modified: 1,
        base_id: cv,
        user_id: userId,
        start_at: start,
        end_at: end,
        type,
        always: 0,
        created_by: null,
      })
      .execute();
  /** A flight created and confirmed through the API; times are UTC wall clock (Skyline's flight zone). */
  const landed = async (f: {
    date: string;
    off: string;
    on: string;
    takeoff?: string;
    landing?: string;
    pic?: string;
    sic?: string | null;
    aircraft?: string;
    type?: string;
  }) => {
    const id = await createFlight(s, await t('admin@skyline.test'), {
      date: f.date,
      aircraft_id: s.refs.aircraft[f.aircraft ?? 'EC-ABC'],
      flight_type_id: types[f.type ?? 'Solo'],
      pic_id: f.pic ?? paula,
      ...(f.sic ? { sic_id: f.sic } : {}),
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: f.off,
      takeoff_time: f.takeoff ?? f.off,
      landing_time: f.landing ?? f.on,
      onblocks_time: f.on,
      landings: 1,
    });
    const r = await s.api('POST', `/flights/confirm/${id}.json`, { token: await t('admin@skyline.test'), body: {} });
    expect(r.body.result, JSON.stringify(r.body)).toBe(true);
    return { id, body: r.body };
  };

  describe('GET /duty/{userId}.json: access and input', () => {
    it('wants a credential (401)', async () => {
      expect((await s.api('GET', `/duty/${paula}.json?from=2026-01-01&to=2026-01-02`)).status).toBe(401);
      expect((await s.api('GET', '/duty/board.json')).status).toBe(401);
    });

    it('own duty for anyone; someone else’s only for roles <= 170 (403); another company’s user or an unknown id is 404', async () => {
      const q = 'from=2026-01-01&to=2026-01-07';
      expect((await duty('pilot@skyline.test', paula, q)).status).toBe(200);
      expect((await duty('student@skyline.test', student, q)).status).toBe(200);
      const denied = await duty('pilot@skyline.test', ivan, q);
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ result: false, message: expect.any(String) });
      expect((await duty('mechanic@skyline.test', ivan, q)).status).toBe(403);
      for (const email of [
        'dispatch@skyline.test',
        'instructor@skyline.test',
        'ops@skyline.test',
        'admin@skyline.test',
      ])
        expect((await duty(email, paula, q)).status, email).toBe(200);
      const harborPilot = s.userId('pilot@harbor.test', 'harbor');
      expect((await duty('dispatch@skyline.test', harborPilot, q)).status).toBe(404);
      expect((await duty('pilot@skyline.test', harborPilot, q)).status).toBe(404);
      expect((await duty('dispatch@skyline.test', uuidv7(), q)).status).toBe(404);
      expect((await duty('admin@harbor.test', paula, q)).status).toBe(404);
    });

    it('a missing, malformed, reversed or over-400-day range is a 400 in the spec’s shape', async () => {
      for (const q of [
        '',
        'from=2026-01-01',
        'from=2026-02-30&to=2026-03-01',
        'from=yesterday&to=2026-01-01',
        'from=2026-03-02&to=2026-03-01',
        'from=2026-01-01&to=2027-02-05',
        'from[]=1&to=2026-01-01',
      ]) {
        const r = await duty('dispatch@skyline.test', paula, q);
        expect(r.status, q).toBe(400);
        expect(r.body.result, q).toBe(false);
        expect(typeof r.body.message, q).toBe('string');
        expect(Object.keys(r.body.errors ?? {}).length, q).toBeGreaterThan(0);
      }
      expect((await duty('dispatch@skyline.test', paula, 'from=2026-01-01&to=2027-02-04')).status).toBe(200);
    });

    it('the board is for roles <= 170', async () => {
      expect((await s.api('GET', '/duty/board.json', { token: await t('pilot@skyline.test') })).status).toBe(403);
      expect(
        (await s.api('GET', '/duty/board.json?from=2026-13-01', { token: await t('dispatch@skyline.test') })).status,
      ).toBe(400);
    });
  });

  describe('what duty is (CONTRACT 7)', () => {
    it('unites DUTY entries with 30 min before off-blocks to 15 after on-blocks of flights in any seat; days in the company zone; sims are duty, not flight time', async () => {
      // Madrid is UTC+2 in June. Ivan: DUTY 08:00-12:00 local; PIC 11:00-13:00 local (09:00-11:00 UTC), SIC of another 15:00-16:00.
      await dutyEntry(ivan, madrid('2025-06-10T08:00'), madrid('2025-06-10T12:00'));
      await dutyEntry(ivan, madrid('2025-06-10T18:00'), madrid('2025-06-10T20:00'), 'OFF');
      await landed({
        date: '2025-06-10',
        off: '09:00',
        takeoff: '09:10',
        landing: '10:40',
        on: '11:00',
        pic: ivan,
        sic: student,
        type: 'Dual training',
      });
      await landed({
        date: '2025-06-10',
        off: '13:00',
        on: '14:00',
        pic: paula,
        sic: ivan,
        type: 'Multi-crew',
        aircraft: 'EC-JET',
      });
      await landed({ date: '2025-06-12', off: '08:00', on: '10:00', pic: ivan, type: 'Solo', aircraft: 'SIM-01' });
      const r = await duty('dispatch@skyline.test', ivan, 'from=2025-06-09&to=2025-06-12');
      expect(r.status).toBe(200);
      expect(r.body.days).toEqual([
        {
          date: '2025-06-10',
          duty_seconds: 5.25 * H + 1.75 * H,
          flight_seconds: 1.5 * H + 1 * H,
          flights: 2,
          limit_seconds: null,
          exceeded: false,
        },
        {
          date: '2025-06-12',
          duty_seconds: 2.75 * H,
          flight_seconds: 0,
          flights: 1,
          limit_seconds: null,
          exceeded: false,
        },
      ]);
      expect(r.body.year).toEqual({ flight_seconds: 2.5 * H, limit_seconds: null });
      expect(r.body.rolling).toEqual({
        duty_7d_seconds: 9.75 * H,
        duty_28d_seconds: 9.75 * H,
        flight_28d_seconds: 2.5 * H,
        flight_12m_seconds: 2.5 * H,
      });
      // The student's own view: SIC counts.
      const own = await duty('student@skyline.test', student, 'from=2025-06-10&to=2025-06-10');
      expect(own.body.days).toEqual([
        {
          date: '2025-06-10',
          duty_seconds: 2.75 * H,
          flight_seconds: 1.5 * H,
          flights: 1,
          limit_seconds: null,
          exceeded: false,
        },
      ]);
    });

    it('an interval over midnight counts on both days; the DST days of Europe/Madrid have 23 and 25 hours', async () => {
      const hugo = s.userId('headtraining@skyline.test');
      // 21:30-23:30 UTC on 2025-07-01 is 23:30-01:30 local: duty 23:00-01:45.
      await landed({ date: '2025-07-01', off: '21:30', on: '23:30', pic: hugo, type: 'Solo' });
      const r = await duty('headtraining@skyline.test', hugo, 'from=2025-07-01&to=2025-07-02');
      expect(
        r.body.days.map((d: { date: string; duty_seconds: number; flights: number }) => [
          d.date,
          d.duty_seconds / 60,
          d.flights,
        ]),
      ).toEqual([
        ['2025-07-01', 60, 1],
        ['2025-07-02', 105, 0],
      ]);
      await dutyEntry(hugo, madrid('2025-03-30T00:00'), madrid('2025-03-31T00:00'));
      await dutyEntry(hugo, madrid('2025-10-26T00:00'), madrid('2025-10-27T00:00'));
      await setLimits({ max_duty_hours: 24 });
      try {
        const spring = await duty('headtraining@skyline.test', hugo, 'from=2025-03-30&to=2025-03-30');
        expect(spring.body.days).toEqual([
          {
            date: '2025-03-30',
            duty_seconds: 23 * H,
            flight_seconds: 0,
            flights: 0,
            limit_seconds: 24 * H,
            exceeded: false,
          },
        ]);
        const autumn = await duty('headtraining@skyline.test', hugo, 'from=2025-10-26&to=2025-10-26');
        expect(autumn.body.days).toEqual([
          {
            date: '2025-10-26',
            duty_seconds: 25 * H,
            flight_seconds: 0,
            flights: 0,
            limit_seconds: 24 * H,
            exceeded: true,
          },
        ]);
      } finally {
        await setLimits({ max_duty_hours: null });
      }
    });

    it('the year is the calendar year of `to`; rolling windows end with the day `to`', async () => {
      const root = s.userId('ground@skyline.test');
      await landed({ date: '2024-12-20', off: '10:00', on: '11:00', pic: root });
      await landed({ date: '2025-01-03', off: '10:00', on: '12:00', pic: root });
      await landed({ date: '2025-01-31', off: '10:00', on: '10:30', pic: root });
      const r = await duty('admin@skyline.test', root, 'from=2025-01-31&to=2025-01-31');
      expect(r.body.year.flight_seconds).toBe(2.5 * H);
      expect(r.body.rolling).toEqual({
        duty_7d_seconds: 1.25 * H,
        duty_28d_seconds: 1.25 * H,
        flight_28d_seconds: 0.5 * H,
        flight_12m_seconds: 3.5 * H,
      });
    });
  });

  describe('company limits', () => {
    it('0, negative, absurd or non-numeric limits are a 400 naming the field; nothing written', async () => {
      const before = await limitsNow();
      for (const [field, value] of [
        ['max_duty_hours', 0],
        ['max_duty_hours', -2],
        ['max_duty_hours', 25],
        ['max_duty_hours', 'lots'],
        ['max_flight_hours_year', 0],
        ['max_flight_hours_year', -1],
        ['max_flight_hours_year', 9000],
      ] as const) {
        const r = await s.api('POST', '/manager/companies/edit.json', {
          token: await t('admin@skyline.test'),
          body: { Company: { name: 'Renamed' }, CompanySetting: { [field]: value } },
        });
        expect(r.status, `${field}=${value}`).toBe(400);
        expect(r.body.result).toBe(false);
        expect(Object.keys(r.body.errors)).toContain(`CompanySetting.${field}`);
      }
      expect(await limitsNow()).toEqual(before);
      const name = await s.ctx.db
        .selectFrom('companies')
        .select('name')
        .where('id', '=', sky)
        .executeTakeFirstOrThrow();
      expect(name.name).toBe('Skyline Flight Academy');
    });
  });

  describe('checks', () => {
    /** A future day (UTC midnight) per test, in the current year of the booking. */
    let slot = 30;
    const futureDay = () => {
      slot += 2;
      return Math.floor(Date.now() / 1000 / 86400) * 86400 + slot * 86400;
    };
    const book = async (start: number, end: number, extra: Record<string, unknown> = {}) =>
      s.api('POST', '/schedules/edit.json', {
        token: await t('dispatch@skyline.test'),
        body: {
          Schedule: {
            aircraft_id: s.refs.aircraft['EC-ABC'],
            pilot_id: student,
            instructor_id: ivan,
            flight_type_id: types['Dual training'],
            start,
            end,
            ...extra,
          },
        },
      });
    const bookings = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('schedules')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('a booking past the daily duty limit is refused with DUTY_LIMIT and the numbers; nothing written; a sim too', async () => {
      expect((await setLimits({ max_duty_hours: 8 })).body.result).toBe(true);
      try {
        const d = futureDay();
        // 08:00-11:00 and 12:00-14:00 UTC: duty 07:30-11:15 and 11:30-14:15 = 6:30.
        expect((await book(d + 8 * H, d + 11 * H)).body.result).toBe(true);
        expect((await book(d + 12 * H, d + 14 * H)).body.result).toBe(true);
        const before = await bookings();
        const over = await book(d + 15 * H, d + 17 * H, { aircraft_id: s.refs.aircraft['EC-DEF'], pilot_id: paula });
        const date = DateTime.fromSeconds(d, { zone: MADRID }).toISODate();
        expect(over.status).toBe(200);
        expect(over.body).toEqual({
          result: false,
          code: 'DUTY_LIMIT',
          message: `Ivan Instructor would be on duty 9:15 hours on ${date}, over the daily limit of 8:00 hours.`,
          // Issue 33: the sentence as a message id and values, for the app's reader.
          text: {
            id: 'duty.refusalDutyLimit',
            values: { name: 'Ivan Instructor', hours: '9:15', date, limit: '8:00' },
          },
        });
        expect(await bookings()).toBe(before);
        // A short one that fits: 15:00-15:30 adds 14:30-15:45 → 7:45.
        expect((await book(d + 14 * H + 1800, d + 15 * H)).body.result).toBe(true);
        // The simulator is duty too.
        const sim = await book(d + 16 * H, d + 17 * H, { aircraft_id: s.refs.aircraft['SIM-01'], pilot_id: paula });
        expect(sim.body.code).toBe('DUTY_LIMIT');
      } finally {
        await setLimits({ max_duty_hours: null });
      }
    });

    it('a booking that would take the year past max_flight_hours_year is refused with FLIGHT_HOURS_LIMIT; a sim is not', async () => {
      const d = futureDay();
      const date = DateTime.fromSeconds(d - 86400, { zone: 'UTC' }).toISODate() as string;
      const dana = s.userId('dual@demo.test');
      await landed({ date, off: '08:00', on: '10:00', pic: dana });
      expect((await setLimits({ max_flight_hours_year: 3 })).body.result).toBe(true);
      try {
        const solo = (start: number, end: number, aircraft = 'EC-ABC') =>
          book(start, end, {
            pilot_id: dana,
            instructor_id: null,
            flight_type_id: types.Solo,
            aircraft_id: s.refs.aircraft[aircraft],
          });
        const over = await solo(d + 8 * H, d + 9 * H + 1800);
        expect(over.body).toMatchObject({ result: false, code: 'FLIGHT_HOURS_LIMIT' });
        expect(over.body.message).toMatch(
          /Dana Dual would reach 3:30 flight hours in \d{4}, over the yearly limit of 3:00 hours/,
        );
        expect((await solo(d + 8 * H, d + 9 * H, 'SIM-01')).body.result).toBe(true);
        expect((await solo(d + 10 * H, d + 11 * H)).body.result).toBe(true);
      } finally {
        await setLimits({ max_flight_hours_year: null });
      }
    });

    it('dispatch of a flight whose crew would exceed a limit is refused naming the person and the limit; confirm keeps the flight with warnings, notifies operations, emits duty.exceeded', async () => {
      const d = futureDay();
      const date = DateTime.fromSeconds(d, { zone: 'UTC' }).toISODate() as string;
      await dutyEntry(paula, d + 6 * H, d + 12 * H);
      const admin = await t('admin@skyline.test');
      await s.api('POST', '/webhooks/add.json', {
        token: admin,
        body: { url: 'http://127.0.0.1:9/hook', events: ['duty.exceeded'] },
      });
      expect((await setLimits({ max_duty_hours: 7 })).body.result).toBe(true);
      try {
        const id = await createFlight(s, admin, {
          date,
          aircraft_id: s.refs.aircraft['EC-ABC'],
          flight_type_id: types.Solo,
          pic_id: paula,
          departure_airport: 'LECU',
          landing_airport: 'LECU',
          offblocks_time: '12:00',
          takeoff_time: '12:05',
          landing_time: '13:55',
          onblocks_time: '14:00',
          landings: 1,
        });
        const refused = await s.api('POST', `/flights/dispatch/${id}.json`, {
          token: await t('dispatch@skyline.test'),
        });
        expect(refused.status).toBe(200);
        expect(refused.body).toMatchObject({
          result: false,
          message: expect.stringMatching(/Paula Pilot would be on duty 8:15 hours on .*daily limit of 7:00 hours/),
        });
        expect(
          (await s.ctx.db.selectFrom('flights').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
        ).not.toBe('DISPATCHED');
        const ops = s.userId('ops@skyline.test');
        const notesBefore = (
          await s.ctx.db.selectFrom('notifications').select('id').where('user_id', '=', ops).execute()
        ).length;
        const confirmed = await s.api('POST', `/flights/confirm/${id}.json`, { token: admin, body: {} });
        expect(confirmed.status).toBe(200);
        expect(confirmed.body).toMatchObject({
          result: true,
          status: 'LANDED',
          warnings: [
            {
              code: 'DUTY_LIMIT',
              user_id: paula,
              message: expect.stringMatching(/Paula Pilot was on duty 8:15 hours/),
            },
          ],
        });
        const notes = await s.ctx.db
          .selectFrom('notifications')
          .select(['title', 'body'])
          .where('user_id', '=', ops)
          .execute();
        expect(notes.length).toBe(notesBefore + 1);
        expect(notes.some((n) => /Duty limit exceeded/.test(n.title))).toBe(true);
        const events = await s.ctx.db
          .selectFrom('webhook_events')
          .select(['type', 'record_id', 'payload'])
          .where('company_id', '=', sky)
          .where('type', '=', 'duty.exceeded')
          .execute();
        expect(events.map((e) => e.record_id)).toContain(id);
        // A confirm under the limits carries no warnings.
        const fine = await landed({ date: '2025-08-01', off: '10:00', on: '11:00', pic: paula });
        expect(fine.body.warnings).toBeUndefined();
      } finally {
        await setLimits({ max_duty_hours: null });
      }
    });

    it('offline: the booking command is re-decided on push with the same rule, and the dispatch command is refused', async () => {
      expect((await setLimits({ max_duty_hours: 4 })).body.result).toBe(true);
      try {
        const d = futureDay();
        expect((await book(d + 8 * H, d + 10 * H)).body.result).toBe(true);
        const token = await t('instructor@skyline.test');
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
        const before = await bookings();
        const r = await push(s, token, 'commands', [
          {
            assumedMasterState: null,
            newDocumentState: command('schedule.book', {
              new_id: uuidv7(),
              aircraft_id: s.refs.aircraft['EC-DEF'],
              pilot_id: paula,
              instructor_id: ivan,
              flight_type_id: types['Dual training'],
              start: d + 11 * H,
              end: d + 12 * H,
            }),
          },
        ]);
        expect(r.body.conflicts[0]).toMatchObject({ status: 'rejected', details: { code: 'DUTY_LIMIT' } });
        expect(r.body.conflicts[0].reason).toMatch(/Ivan Instructor would be on duty 4:30 hours/);
        expect(await bookings()).toBe(before);
        // The dispatch command of the booked flight when the day is already full: refused with the same words.
        const flightId = (
          await s.ctx.db
            .selectFrom('schedules')
            .select('flight_id')
            .where('start_at', '=', d + 8 * H)
            .where('company_id', '=', sky)
            .executeTakeFirstOrThrow()
        ).flight_id as string;
        await dutyEntry(ivan, d + 12 * H, d + 14 * H);
        const dispatched = await push(s, await t('dispatch@skyline.test'), 'commands', [
          { assumedMasterState: null, newDocumentState: command('flight.dispatch', { flight_id: flightId }) },
        ]);
        expect(dispatched.body.conflicts[0]).toMatchObject({ status: 'rejected', details: { code: 'DUTY_LIMIT' } });
        expect(dispatched.body.conflicts[0].reason).toMatch(
          /Dispatch refused: Ivan Instructor would be on duty 4:45 hours/,
        );
      } finally {
        await setLimits({ max_duty_hours: null });
      }
    });
  });

  describe('alerts and the board', () => {
    it('crew past 90 % of the yearly limit appear in /companies/alerts.json as type duty; the board colours them', async () => {
      const year = DateTime.now().setZone(MADRID).year;
      const marco = s.userId('headtraining@skyline.test');
      const today = DateTime.now().setZone('UTC').toISODate() as string;
      const date = today.startsWith(String(year)) ? today : `${year}-01-01`;
      await landed({ date, off: '00:30', on: '02:00', pic: marco });
      await setLimits({ max_flight_hours_year: 1.6 });
      try {
        const alerts = await s.api('GET', '/companies/alerts.json?types=duty', {
          token: await t('admin@skyline.test'),
        });
        expect(alerts.status).toBe(200);
        const mine = alerts.body.alerts ?? alerts.body;
        expect(JSON.stringify(mine)).toMatch(/Hugo Head/);
        expect(JSON.stringify(mine)).toMatch(/"type":"duty"/);
        const hugoAlert = (mine as any[]).find((a) => a.name === 'Hugo Head');
        expect(hugoAlert.details).toMatch(new RegExp(`^\\d+:\\d\\d of 1:36 flight hours in ${year} \\(\\d+ %\\)$`));
        // In the caller's language (issue 33): the words change, the figures and the year stay.
        const fr = await s.api('GET', '/companies/alerts.json?types=duty', {
          token: await t('admin@skyline.test'),
          headers: { 'Accept-Language': 'fr' },
        });
        const hugoFr = (fr.body as any[]).find((a) => a.name === 'Hugo Head');
        expect(hugoFr.details).toBe(
          hugoAlert.details.replace(' of ', ' sur ').replace('flight hours in', 'heures de vol en'),
        );
        const board = await s.api('GET', `/duty/board.json?from=${date}`, { token: await t('dispatch@skyline.test') });
        expect(board.status).toBe(200);
        const hugo = board.body.people.find((p: { user_id: string }) => p.user_id === marco);
        expect(hugo).toMatchObject({ name: 'Hugo Head', year_level: 'near', level: 'near' });
        expect(hugo.days).toHaveLength(7);
        expect(
          board.body.people.some((p: { user_id: string }) => p.user_id === s.userId('pilot@harbor.test', 'harbor')),
        ).toBe(false);
      } finally {
        await setLimits({ max_flight_hours_year: null });
      }
    });
  });
});
