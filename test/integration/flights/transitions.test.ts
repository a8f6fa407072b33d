import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import {
  aircraftRow,
  changesOf,
  createFlight,
  flightRow,
  insertExpiredMel,
  saveFlight,
  setFlag,
  tokenCache,
  typeIds,
  soloFlight,
  utc,
} from './helpers.ts';

describe.each(DIALECTS)('flight status machine on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let day = 0;
  /** A fresh calendar day per flight, so tests never overlap each other by accident. */
  const nextDate = () => {
    day += 1;
    return new Date(Date.UTC(2023, 0, 1) + day * 86400000).toISOString().slice(0, 10);
  };
  const flight = (over: Record<string, unknown> = {}) => ({
    ...soloFlight(s, types, nextDate()),
    landings: 3,
    ...over,
  });
  const confirm = async (id: string, email = 'dispatch@skyline.test', body: Record<string, unknown> = {}) =>
    s.api('POST', `/flights/confirm/${id}.json`, { token: await t(email), body });
  const dispatch = async (id: string, email = 'dispatch@skyline.test') =>
    s.api('POST', `/flights/dispatch/${id}.json`, { token: await t(email) });
  const cancel = async (body: Record<string, unknown>, email = 'dispatch@skyline.test') =>
    s.api('POST', '/flights/cancel.json', { token: await t(email), body });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
  });
  afterAll(() => s?.close());

  it('confirm, dispatch and cancel need credentials', async () => {
    const id = uuidv7();
    expect((await s.api('POST', `/flights/confirm/${id}.json`, { body: {} })).status).toBe(401);
    expect((await s.api('POST', `/flights/dispatch/${id}.json`, { body: {} })).status).toBe(401);
    expect((await s.api('POST', '/flights/cancel.json', { body: { id, reason: 'x' } })).status).toBe(401);
  });

  describe('confirm', () => {
    it('moves an unconfirmed flight to LANDED, updates the aircraft books in the same transaction and writes history', async () => {
      const aircraft = s.refs.aircraft['EC-ABC'];
      const before = await aircraftRow(s, aircraft);
      const id = await createFlight(s, await t('pilot@skyline.test'), flight());
      const r = await confirm(id);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: true, id, status: 'LANDED' });
      const row = await flightRow(s, id);
      expect(row.status).toBe('LANDED');
      expect(row.confirmed_by).toBe(s.userId('dispatch@skyline.test'));
      expect(row.change_no).toBe((await aircraftRow(s, aircraft)).change_no);
      const after = await aircraftRow(s, aircraft);
      expect(after.hours).toBeCloseTo(before.hours + 55 / 60, 9);
      expect(after.hours).toBe(Math.round(before.hours * 3600 + 55 * 60) / 3600);
      expect(after.landings).toBe(before.landings + 3);
      expect(after.flights).toBe(before.flights + 1);
      expect((await changesOf(s, id)).map((c) => c.action)).toEqual(['create', 'confirm']);
      // Confirming twice is refused and changes nothing.
      const again = await confirm(id);
      expect(again.status).toBe(400);
      expect(await aircraftRow(s, aircraft)).toEqual(after);
    });

    it('needs Flight.confirm (a pilot does not hold it by default), else 403 and nothing changes', async () => {
      const id = await createFlight(s, await t('pilot@skyline.test'), flight());
      const r = await confirm(id, 'pilot@skyline.test');
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/Flight.confirm/);
      expect((await flightRow(s, id)).status).toBe('DRAFT');
      expect((await confirm(id, 'admin@harbor.test')).status).toBe(404);
      expect((await confirm(uuidv7())).status).toBe(404);
    });

    it('confirms every unconfirmed status (SCHEDULED read as DELAYED, DISPATCHED); a confirmed flight is 400 NOT_UNCONFIRMED and moves nothing', async () => {
      const dispatcher = await t('dispatch@skyline.test');
      const delayed = await createFlight(s, dispatcher, flight({ status: 'SCHEDULED' }));
      const list = await s.api('GET', `/flights/view/${delayed}.json`, { token: dispatcher });
      expect(list.body.flight.Flight.status).toBe('DELAYED');
      expect((await confirm(delayed)).body).toEqual({ result: true, id: delayed, status: 'LANDED' });
      const dispatched = await createFlight(s, dispatcher, flight());
      expect((await dispatch(dispatched)).body.result).toBe(true);
      expect((await confirm(dispatched)).body.status).toBe('LANDED');
      const books = await aircraftRow(s, s.refs.aircraft['EC-ABC']);
      const again = await confirm(dispatched);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ result: false, code: 'NOT_UNCONFIRMED' });
      expect(await aircraftRow(s, s.refs.aircraft['EC-ABC'])).toEqual(books);
      expect((await changesOf(s, dispatched)).map((c) => c.action)).toEqual(['create', 'dispatch', 'confirm']);
      const canceled = await createFlight(s, dispatcher, flight());
      await cancel({ id: canceled, reason: 'Weather' });
      expect((await confirm(canceled)).body.code).toBe('NOT_UNCONFIRMED');
      expect((await flightRow(s, canceled)).status).toBe('CANCELED');
      expect((await confirm(delayed, 'dispatch@skyline.test', { pass: { x: 1 } })).status).toBe(400);
    });

    it('needs block time, aircraft and PIC', async () => {
      const pilot = await t('dispatch@skyline.test');
      // A flight saved directly always has times and aircraft (issue 28 item 5); rows from
      // before that rule may lack them, and confirm still refuses those.
      const noTimes = await createFlight(s, pilot, flight());
      await s.ctx.db
        .updateTable('flights')
        .set({ offblocks: null, takeoff: null, landing: null, onblocks: null, block_time: 0, flight_time: 0 })
        .where('id', '=', noTimes)
        .execute();
      const noAircraft = await createFlight(s, pilot, flight());
      await s.ctx.db.updateTable('flights').set({ aircraft_id: null }).where('id', '=', noAircraft).execute();
      const noPic = await createFlight(s, pilot, flight({ pic_id: null }));
      for (const [id, re] of [
        [noTimes, /block times/],
        [noAircraft, /aircraft/],
        [noPic, /PIC/],
      ] as const) {
        const r = await confirm(id);
        expect(r.status).toBe(400);
        expect(r.body.message).toMatch(re);
        expect((await flightRow(s, id)).status).toBe('DRAFT');
      }
    });

    it('asks for the caller password when the company requires it', async () => {
      const id = await createFlight(s, await t('dispatch@skyline.test'), flight());
      await setFlag(s, s.refs.companies.skyline, 'require_flight_password', true);
      try {
        const none = await confirm(id);
        expect(none.status).toBe(400);
        expect(none.body.code).toBe('PASSWORD_REQUIRED');
        const wrong = await confirm(id, 'dispatch@skyline.test', { pass: 'nope' });
        expect(wrong.status).toBe(400);
        expect(wrong.body.code).toBe('WRONG_PASSWORD');
        expect((await flightRow(s, id)).status).toBe('DRAFT');
        const ok = await confirm(id, 'dispatch@skyline.test', { pass: 'demo1234' });
        expect(ok.status).toBe(200);
      } finally {
        await setFlag(s, s.refs.companies.skyline, 'require_flight_password', false);
      }
    });

    it('an overlap with another LANDED flight of the aircraft is a 400 with code, message, url and conflicts; links only for the own company', async () => {
      const ops = await t('ops@skyline.test');
      const date = nextDate();
      const aircraft = s.refs.aircraft['EC-DEF'];
      const a = await createFlight(
        s,
        ops,
        flight({
          date,
          aircraft_id: aircraft,
          callsign: 'AAA1',
          offblocks_time: '10:00',
          takeoff_time: null,
          landing_time: null,
          onblocks_time: '11:00',
        }),
      );
      expect((await confirm(a)).status).toBe(200);
      // A flight of another company on the same airframe (a shared aircraft), inserted through the data layer.
      const foreign = uuidv7();
      const now = Math.floor(Date.now() / 1000);
      await s.ctx.db
        .insertInto('flights')
        .values({
          id: foreign,
          company_id: s.refs.companies.harbor,
          change_no: 0,
          deleted: 0,
          created: now,
          modified: now,
          date,
          status: 'LANDED',
          aircraft_id: aircraft,
          callsign: 'HBR9',
          offblocks: utc(`${date}T10:20:00`),
          onblocks: utc(`${date}T10:40:00`),
          starts: utc(`${date}T10:20:00`),
          block_time: 1200,
        } as any)
        .execute();
      const before = await aircraftRow(s, aircraft);
      const b = await createFlight(
        s,
        ops,
        flight({
          date,
          aircraft_id: aircraft,
          offblocks_time: '10:30',
          takeoff_time: null,
          landing_time: null,
          onblocks_time: '11:30',
        }),
      );
      const r = await confirm(b);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        result: false,
        code: 'FLIGHT_OVERLAP',
        message: expect.stringMatching(/overlaps 2 confirmed flights/),
        url: `/flights/load/aircraft:${aircraft}/from:${date}/to:${date}.json`,
      });
      expect(r.body.conflicts).toEqual([
        {
          id: a,
          callsign: 'AAA1',
          date,
          offblocks_time: utc(`${date}T10:00:00`),
          onblocks_time: utc(`${date}T11:00:00`),
          link: `/flights/view/${a}.json`,
        },
        {
          id: foreign,
          callsign: 'HBR9',
          date,
          offblocks_time: utc(`${date}T10:20:00`),
          onblocks_time: utc(`${date}T10:40:00`),
          link: null,
        },
      ]);
      expect((await flightRow(s, b)).status).toBe('DRAFT');
      expect(await aircraftRow(s, aircraft)).toEqual(before);
      // Touching is not overlapping: 11:00 to 12:00 after 10:00 to 11:00.
      const c = await createFlight(
        s,
        ops,
        flight({
          date,
          aircraft_id: aircraft,
          offblocks_time: '11:00',
          takeoff_time: null,
          landing_time: null,
          onblocks_time: '12:00',
        }),
      );
      expect((await confirm(c)).status).toBe(200);
      // Another aircraft at the same time is fine.
      const d = await createFlight(
        s,
        ops,
        flight({
          date,
          aircraft_id: s.refs.aircraft['EC-JET'],
          pic_id: s.userId('instructor@skyline.test'),
          offblocks_time: '10:30',
          takeoff_time: null,
          landing_time: null,
          onblocks_time: '11:30',
        }),
      );
      expect((await confirm(d)).status).toBe(200);
    });

    it('returns at most 20 conflicts, ordered by off-blocks', async () => {
      const ops = await t('ops@skyline.test');
      const date = nextDate();
      const aircraft = s.refs.aircraft['SIM-01'];
      const ids: string[] = [];
      // 25 back-to-back ten-minute flights from 06:00, confirmed one by one (touching, never overlapping).
      for (let i = 0; i < 25; i++) {
        const from = 6 * 60 + i * 10;
        const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        const id = await createFlight(
          s,
          ops,
          flight({
            date,
            aircraft_id: aircraft,
            offblocks_time: hhmm(from),
            onblocks_time: hhmm(from + 10),
            takeoff_time: null,
            landing_time: null,
          }),
        );
        expect((await confirm(id)).status).toBe(200);
        ids.push(id);
      }
      const long = await createFlight(
        s,
        ops,
        flight({
          date,
          aircraft_id: aircraft,
          offblocks_time: '05:00',
          onblocks_time: '12:00',
          takeoff_time: null,
          landing_time: null,
        }),
      );
      const r = await confirm(long);
      expect(r.status).toBe(400);
      expect(r.body.conflicts).toHaveLength(20);
      expect(r.body.conflicts.map((c: any) => c.id)).toEqual(ids.slice(0, 20));
      expect(r.body.message).toMatch(/overlaps 25 confirmed flights.*first 20/);
      // In Spanish (issue 33): the counted sentence is an ICU plural, the conflicts the same.
      const es = await s.api('POST', `/flights/confirm/${long}.json`, {
        token: await t('dispatch@skyline.test'),
        body: {},
        headers: { 'Accept-Language': 'es' },
      });
      expect(es.headers.get('content-language')).toBe('es');
      expect(es.body.message).toBe(
        'Este vuelo se solapa con 25 vuelos confirmados de la misma aeronave; se muestran los 20 primeros',
      );
      expect({ ...es.body, message: null }).toEqual({ ...r.body, message: null });
    });
  });

  describe('dispatch', () => {
    it('moves DRAFT or SCHEDULED to DISPATCHED with a history row; anything else is result false', async () => {
      const pilot = await t('pilot@skyline.test');
      const id = await createFlight(s, pilot, flight({ status: 'SCHEDULED' }));
      const r = await dispatch(id, 'pilot@skyline.test');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: true, status: 'DISPATCHED', id });
      const row = await flightRow(s, id);
      expect([row.status, row.dispatched_by]).toEqual(['DISPATCHED', s.userId('pilot@skyline.test')]);
      expect((await changesOf(s, id)).map((c) => c.action)).toEqual(['create', 'dispatch']);
      const again = await dispatch(id);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        result: false,
        code: 'STATUS',
        message: 'Only draft or scheduled flights can be dispatched',
        text: { id: 'flights.dispatchStatus' },
      });
      // The same refusal in the caller's language (issue 33): only the message changes.
      const spanish = await s.api('POST', `/flights/dispatch/${id}.json`, {
        token: await t('dispatch@skyline.test'),
        headers: { 'Accept-Language': 'es' },
      });
      expect(spanish.body).toEqual({
        ...again.body,
        message: 'Solo se pueden despachar vuelos en borrador o programados',
      });
      // A dispatched flight can still be confirmed.
      expect((await confirm(id)).status).toBe(200);
      expect((await dispatch(id)).body.result).toBe(false);
    });

    it('is refused with 400 Not authorized for a caller without permission or crew role; another company 404', async () => {
      const id = await createFlight(
        s,
        await t('dispatch@skyline.test'),
        flight({ pic_id: s.userId('instructor@skyline.test') }),
      );
      for (const email of ['student@skyline.test', 'mechanic@skyline.test', 'pilot@skyline.test']) {
        const r = await dispatch(id, email);
        expect(r.status, email).toBe(400);
        expect(r.body.message).toBe('Not authorized');
      }
      expect((await dispatch(id, 'admin@harbor.test')).status).toBe(404);
      expect((await flightRow(s, id)).status).toBe('DRAFT');
      // A student who is PIC may dispatch without any permission key.
      const own = await createFlight(
        s,
        await t('instructor@skyline.test'),
        flight({
          pic_id: s.userId('student@skyline.test'),
          supervisor_id: s.userId('instructor@skyline.test'),
          flight_type_id: types['Supervised solo'],
        }),
      );
      expect((await dispatch(own, 'student@skyline.test')).body.result).toBe(true);
    });

    it('an expired MEL item on the aircraft refuses dispatch naming the ATA chapter and category', async () => {
      const aircraft = s.refs.aircraft['EC-JET'];
      const id = await createFlight(
        s,
        await t('dispatch@skyline.test'),
        flight({ aircraft_id: aircraft, pic_id: s.userId('instructor@skyline.test') }),
      );
      const report = await insertExpiredMel(s, s.refs.companies.skyline, aircraft, {
        ata: '32',
        category: 'B',
        title: 'Nose gear light',
      });
      try {
        const r = await dispatch(id);
        expect(r.status).toBe(200);
        expect(r.body.result).toBe(false);
        expect(r.body.message).toMatch(/32/);
        expect(r.body.message).toMatch(/category B/);
        expect((await flightRow(s, id)).status).toBe('DRAFT');
      } finally {
        await s.ctx.db.updateTable('aircraft_reports').set({ status: 'CLOSED' }).where('id', '=', report).execute();
      }
      expect((await dispatch(id)).body.result).toBe(true);
    });

    it('requires a completed FRAT when the company asks for it and the dispatcher is crew', async () => {
      const pilot = await t('pilot@skyline.test');
      const id = await createFlight(s, pilot, flight());
      const other = await createFlight(s, pilot, flight());
      await setFlag(s, s.refs.companies.skyline, 'schedule_dispatch_frat', true);
      try {
        const r = await dispatch(id, 'pilot@skyline.test');
        expect(r.body).toMatchObject({
          result: false,
          code: 'FRAT_REQUIRED',
          message: expect.stringMatching(/risk assessment/),
          text: { id: 'flights.dispatchFrat' },
        });
        // Staff who are not crew dispatch without one.
        expect((await dispatch(other, 'dispatch@skyline.test')).body.result).toBe(true);
        const form = await s.api('GET', `/flights/frat/${id}.json`, { token: pilot });
        expect(form.status).toBe(200);
        expect(form.body.frat).toBeNull();
        expect(form.body.factors.map((f: any) => f.key)).toEqual([
          'pilot_recency',
          'weather',
          'light',
          'fatigue',
          'aircraft',
          'airport',
        ]);
        const incomplete = await s.api('POST', `/flights/frat/${id}.json`, {
          token: pilot,
          body: { answers: { weather: 'good' } },
        });
        expect(incomplete.status).toBe(400);
        expect(incomplete.body.errors['answers.pilot_recency']).toBeDefined();
        const high = {
          pilot_recency: 'over_90_days',
          weather: 'poor',
          light: 'night',
          fatigue: 'some',
          aircraft: 'serviceable',
          airport: 'familiar',
        };
        const noMitigation = await s.api('POST', `/flights/frat/${id}.json`, { token: pilot, body: { answers: high } });
        expect(noMitigation.status).toBe(400);
        expect(noMitigation.body.errors.mitigation).toBeDefined();
        expect(
          await s.ctx.db.selectFrom('flight_risk_assessments').select('id').where('flight_id', '=', id).execute(),
        ).toEqual([]);
        const saved = await s.api('POST', `/flights/frat/${id}.json`, {
          token: pilot,
          body: { answers: high, mitigation: 'Instructor on board' },
        });
        expect(saved.status).toBe(200);
        expect(saved.body.frat).toMatchObject({
          score: 16,
          level: 'HIGH',
          completed: true,
          user_id: s.userId('pilot@skyline.test'),
        });
        expect(
          (await s.api('GET', `/flights/frat/${id}.json`, { token: await t('student@skyline.test') })).status,
        ).toBe(403);
        expect((await s.api('GET', `/flights/frat/${id}.json`, { token: await t('admin@harbor.test') })).status).toBe(
          404,
        );
        expect(
          (
            await s.api('POST', `/flights/frat/${id}.json`, {
              token: await t('student@skyline.test'),
              body: { answers: high },
            })
          ).status,
        ).toBe(403);
        expect((await dispatch(id, 'pilot@skyline.test')).body.result).toBe(true);
      } finally {
        await setFlag(s, s.refs.companies.skyline, 'schedule_dispatch_frat', false);
      }
      expect((await s.api('POST', `/flights/frat/${id}.json`, { token: pilot, body: { answers: {} } })).status).toBe(
        400,
      );
      expect((await s.api('GET', '/flights/frat/x.json', {})).status).toBe(401);
    });

    it('a FRAT is refused for another company (404), a dispatched flight or a malformed body (400), storing nothing', async () => {
      const pilot = await t('pilot@skyline.test');
      const id = await createFlight(s, pilot, flight());
      const form = await s.api('GET', `/flights/frat/${id}.json`, { token: pilot });
      // The lowest-risk answer to every factor: a valid, complete assessment.
      const options = Object.fromEntries(form.body.factors.map((f: any) => [f.key, f.options[0].key]));
      expect(
        (
          await s.api('POST', `/flights/frat/${id}.json`, {
            token: await t('admin@harbor.test'),
            body: { answers: options },
          })
        ).status,
      ).toBe(404);
      expect(
        (await s.api('POST', `/flights/frat/${uuidv7()}.json`, { token: pilot, body: { answers: options } })).status,
      ).toBe(404);
      for (const body of [{ answers: 'all good' }, { answers: { ...options, weather: 7 } }, {}]) {
        expect(
          (await s.api('POST', `/flights/frat/${id}.json`, { token: pilot, body })).status,
          JSON.stringify(body),
        ).toBe(400);
      }
      expect((await dispatch(id)).body.result).toBe(true);
      const late = await s.api('POST', `/flights/frat/${id}.json`, { token: pilot, body: { answers: options } });
      expect(late.status).toBe(400);
      expect(late.body.result).toBe(false);
      expect(
        await s.ctx.db.selectFrom('flight_risk_assessments').select('id').where('flight_id', '=', id).execute(),
      ).toEqual([]);
    });

    it('blocks a PIC without the type’s required certificates when the company says so', async () => {
      const admin = await t('admin@skyline.test');
      const type = await s.api('POST', '/flight_types/manager_add.json', {
        token: admin,
        body: {
          FlightType: { name: 'Needs SEP' },
          syncRequiredCertificates: true,
          RequiredCertificate: [{ role: 'pic', certificate_type: 'FAA_BASICMED' }],
        },
      });
      const id = await createFlight(s, await t('dispatch@skyline.test'), flight({ flight_type_id: type.body.id }));
      await setFlag(s, s.refs.companies.skyline, 'require_pic_docs', true);
      await setFlag(s, s.refs.companies.skyline, 'block_pic_without_docs', true);
      try {
        const r = await dispatch(id);
        expect(r.body).toMatchObject({ result: false, message: expect.stringMatching(/FAA_BASICMED/) });
      } finally {
        await setFlag(s, s.refs.companies.skyline, 'require_pic_docs', false);
        await setFlag(s, s.refs.companies.skyline, 'block_pic_without_docs', false);
      }
      expect((await dispatch(id)).body.result).toBe(true);
    });
  });

  describe('cancel', () => {
    it('cancels an unconfirmed flight with a cancel history row carrying the reason', async () => {
      const id = await createFlight(s, await t('pilot@skyline.test'), flight());
      const r = await cancel({ id, reason: 'Weather', text: 'Fog at LECU' }, 'pilot@skyline.test');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: true, id, status: 'CANCELED' });
      const history = await changesOf(s, id);
      expect(history.at(-1)).toMatchObject({
        action: 'cancel',
        comments: 'Weather\n\nFog at LECU',
        user_id: s.userId('pilot@skyline.test'),
      });
      // Already canceled: left as it is.
      expect((await cancel({ id, reason: 'again' })).body.status).toBe('CANCELED');
      expect(await changesOf(s, id)).toHaveLength(history.length);
      // Gone from the default list.
      const list = await s.api('GET', `/flights/load/aircraft:${s.refs.aircraft['EC-ABC']}/limit:1000.json`, {
        token: await t('dispatch@skyline.test'),
      });
      expect(list.body.flights.map((f: any) => f.Flight.id)).not.toContain(id);
    });

    it('notify tells the rest of the crew in-app, not the caller; without notify nobody hears', async () => {
      const pilot = await t('pilot@skyline.test');
      const titles = async () =>
        (await s.api('GET', '/notifications.json', { token: pilot })).body.notifications.map((n: any) => n.title);
      const before = await titles();
      const quiet = await createFlight(s, pilot, flight({ callsign: 'QUIET1' }));
      await cancel({ id: quiet, reason: 'Weather' });
      expect(await titles()).toEqual(before);
      const f = flight({ callsign: 'NOTE1' });
      const id = await createFlight(s, pilot, f);
      expect((await cancel({ id, reason: 'Weather', notify: true })).status).toBe(200);
      const after = await titles();
      expect(after).toEqual([`Flight NOTE1 on ${f.date} was canceled`, ...before]);
      const dispatcher = await s.api('GET', '/notifications.json', { token: await t('dispatch@skyline.test') });
      expect(dispatcher.body.notifications.map((n: any) => n.title)).not.toContain(after[0]);
    });

    it('cancelling a LANDED flight makes it DELETED and reverses the aircraft books exactly', async () => {
      const aircraft = s.refs.aircraft['EC-ABC'];
      const before = await aircraftRow(s, aircraft);
      const id = await createFlight(
        s,
        await t('pilot@skyline.test'),
        flight({ takeoff_time: '10:07', landing_time: '11:04' }),
      );
      expect((await confirm(id)).status).toBe(200);
      const landed = await aircraftRow(s, aircraft);
      expect(landed.hours).not.toBe(before.hours);
      const r = await cancel({ id, reason: 'Logged twice' }, 'ops@skyline.test');
      expect(r.body.status).toBe('DELETED');
      const after = await aircraftRow(s, aircraft);
      expect([after.hours, after.landings, after.flights]).toEqual([before.hours, before.landings, before.flights]);
      expect((await flightRow(s, id)).status).toBe('DELETED');
    });

    it('editing a LANDED flight moves the books by the difference; returning it to DRAFT reverses them', async () => {
      const abc = s.refs.aircraft['EC-ABC'];
      const def = s.refs.aircraft['EC-DEF'];
      const startAbc = await aircraftRow(s, abc);
      const startDef = await aircraftRow(s, def);
      const id = await createFlight(s, await t('pilot@skyline.test'), flight());
      await confirm(id);
      const ops = await t('ops@skyline.test');
      expect((await saveFlight(s, ops, { id, landing_time: '11:10', landings: 1 })).status).toBe(200); // 60 min, 1 landing
      let a = await aircraftRow(s, abc);
      expect(a.hours).toBe(Math.round(startAbc.hours * 3600 + 3600) / 3600);
      expect([a.landings, a.flights]).toEqual([startAbc.landings + 1, startAbc.flights + 1]);
      expect((await saveFlight(s, ops, { id, aircraft_id: def })).status).toBe(200);
      a = await aircraftRow(s, abc);
      expect([a.hours, a.landings, a.flights]).toEqual([startAbc.hours, startAbc.landings, startAbc.flights]);
      const d = await aircraftRow(s, def);
      expect(d.hours).toBe(Math.round(startDef.hours * 3600 + 3600) / 3600);
      const revert = await saveFlight(s, ops, { id, status: 'DRAFT' });
      expect(revert.status).toBe(200);
      const row = await flightRow(s, id);
      expect([row.status, row.confirmed_at]).toEqual(['DRAFT', null]);
      const d2 = await aircraftRow(s, def);
      expect([d2.hours, d2.landings, d2.flights]).toEqual([startDef.hours, startDef.landings, startDef.flights]);
      expect((await changesOf(s, id)).map((c) => c.action)).toEqual(['create', 'confirm', 'edit', 'edit', 'revert']);
    });

    it('a canceled or deleted flight stays as it is with no new history; bad bodies and unknown ids change nothing', async () => {
      const id = await createFlight(s, await t('dispatch@skyline.test'), flight());
      expect((await cancel({ id, reason: 'Weather' })).body.status).toBe('CANCELED');
      const again = await cancel({ id, reason: 'Twice' });
      expect(again.body).toMatchObject({ result: true, status: 'CANCELED' });
      expect((await changesOf(s, id)).map((c) => c.action)).toEqual(['create', 'cancel']);
      const open = await createFlight(s, await t('dispatch@skyline.test'), flight());
      for (const body of [
        { reason: 'no id' },
        { id: open, reason: '   ' },
        { id: open, reason: 'x', notify: 'maybe' },
        { id: open, reason: 'x'.repeat(501) },
      ]) {
        const r = await cancel(body);
        expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(r.body.result).toBe(false);
      }
      expect((await cancel({ id: uuidv7(), reason: 'x' })).status).toBe(404);
      expect((await dispatch(uuidv7())).status).toBe(404);
      expect((await flightRow(s, open)).status).toBe('DRAFT');
      expect((await changesOf(s, open)).map((c) => c.action)).toEqual(['create']);
    });

    it('authorization: permission holders, crew or creator; else 400 Not authorized and nothing changes', async () => {
      const id = await createFlight(
        s,
        await t('instructor@skyline.test'),
        flight({ pic_id: s.userId('instructor@skyline.test') }),
      );
      for (const email of ['student@skyline.test', 'mechanic@skyline.test', 'auditor@skyline.test']) {
        const r = await cancel({ id, reason: 'no' }, email);
        expect(r.status, email).toBe(400);
        expect(r.body).toEqual({ result: false, message: 'Not authorized' });
      }
      // A pilot holding Flight.create but not involved cannot reach the flight.
      expect((await cancel({ id, reason: 'no' }, 'pilot@skyline.test')).body.message).toBe('Not authorized');
      expect((await cancel({ id, reason: 'no' }, 'admin@harbor.test')).status).toBe(404);
      expect((await flightRow(s, id)).status).toBe('DRAFT');
      expect((await cancel({ id }, 'instructor@skyline.test')).status).toBe(400); // reason required
      // A student who is crew may cancel without any permission key.
      const own = await createFlight(
        s,
        await t('instructor@skyline.test'),
        flight({ pic_id: s.userId('student@skyline.test'), supervisor_id: s.userId('instructor@skyline.test') }),
      );
      expect((await cancel({ id: own, reason: 'Sick' }, 'student@skyline.test')).body.status).toBe('CANCELED');
    });
  });
});
