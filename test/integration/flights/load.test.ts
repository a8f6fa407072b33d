import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { parseLoadParams, renderFlightsPage } from '@ops/server/areas/flights/load.service';
import { flightsRepository, LISTED } from '@ops/server/areas/flights/flights.repository';
import { authenticate } from '@ops/server/http/authenticate';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, tokenCache, typeIds } from './helpers.ts';

describe.each(DIALECTS)('GET /flights/load on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  const ids: Record<string, string> = {};
  const load = async (named: string, email = 'dispatch@skyline.test') =>
    s.api('GET', `/flights/load${named}.json`, { token: await t(email) });
  const idsOf = (r: { body: any }) => r.body.flights.map((f: any) => f.Flight.id);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const dispatch = await t('dispatch@skyline.test');
    types = await typeIds(s, dispatch);
    const mk = (key: string, over: Record<string, unknown>) =>
      createFlight(s, dispatch, {
        aircraft_id: s.refs.aircraft['EC-ABC'],
        flight_type_id: types.Solo,
        pic_id: s.userId('pilot@skyline.test'),
        departure_airport: 'LECU',
        landing_airport: 'LELL',
        offblocks_time: '09:00',
        onblocks_time: '10:00',
        ...over,
      }).then((id) => {
        ids[key] = id;
      });
    // 25 flights over 25 days in May, then a few distinct ones.
    for (let d = 1; d <= 25; d++) await mk(`may${d}`, { date: `2024-05-${String(d).padStart(2, '0')}` });
    await mk('jet', {
      date: '2024-06-01',
      aircraft_id: s.refs.aircraft['EC-JET'],
      pic_id: s.userId('instructor@skyline.test'),
      sic_id: s.userId('pilot@skyline.test'),
      flight_type_id: types['Multi-crew'],
    });
    await mk('student', {
      date: '2024-06-02',
      pic_id: s.userId('student@skyline.test'),
      supervisor_id: s.userId('instructor@skyline.test'),
      flight_type_id: types['Supervised solo'],
    });
    await mk('canceled', { date: '2024-06-03' });
    await s.api('POST', '/flights/cancel.json', { token: dispatch, body: { id: ids.canceled, reason: 'test' } });
    await createFlight(s, await t('admin@harbor.test'), {
      date: '2024-06-01',
      aircraft_id: s.refs.aircraft.N123HA,
      departure_airport: 'KFRG',
      landing_airport: 'KFRG',
      pic_id: s.userId('pilot@harbor.test', 'harbor'),
      offblocks_time: '09:00',
      onblocks_time: '10:00',
    });
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await s.api('GET', '/flights/load.json')).status).toBe(401);
    expect((await s.api('GET', '/flights/load/page:2.json')).status).toBe(401);
  });

  it('pages 20 newest first with Flight, Base, Aircraft, FlightType, Pic, Sic, paginate and time', async () => {
    const r = await load('');
    expect(r.status).toBe(200);
    expect(r.body.flights).toHaveLength(20);
    expect(r.body.paginate).toEqual({
      page: 1,
      current: 20,
      count: 27,
      prevPage: false,
      nextPage: true,
      pageCount: 2,
      limit: 20,
    });
    expect(r.body.time).toMatch(/^\d+$/);
    expect(Math.abs(Number(r.body.time) - Date.now() / 1000)).toBeLessThan(60);
    expect(idsOf(r).slice(0, 3)).toEqual([ids.student, ids.jet, ids.may25]);
    const jet = r.body.flights[1];
    expect(jet.Flight).toMatchObject({
      id: ids.jet,
      date: '2024-06-01',
      departure_airport: 'LECU',
      landing_airport: 'LELL',
      offblocks_time: '09:00',
      onblocks_time: '10:00',
      block_time: 3600,
      status: 'DRAFT',
    });
    expect(jet.Base).toEqual({ id: s.refs.bases.Sabadell, name: 'Sabadell', airport_id: 'LELL' });
    expect(jet.Aircraft).toMatchObject({
      id: s.refs.aircraft['EC-JET'],
      registration: 'EC-JET',
      multiengine: true,
      multipilot: true,
      simulator: false,
      AircraftModel: { name: 'Cessna Citation CJ2', icao: 'C25A', AircraftManufacturer: { name: 'Cessna' } },
    });
    expect(jet.FlightType).toMatchObject({
      id: types['Multi-crew'],
      name: 'Multi-crew',
      pic_flight_time: 'pic',
      sic_flight_time: 'sic',
    });
    expect(jet.Pic).toEqual({
      id: s.userId('instructor@skyline.test'),
      user_group_id: 150,
      UserDetail: { id: s.userId('instructor@skyline.test'), name: 'Ivan', surname: 'Instructor' },
    });
    expect(jet.Sic.UserDetail.name).toBe('Paula');
    expect(r.body.flights[2].Sic).toBeNull();
    const page2 = await load('/page:2');
    expect(page2.body.flights).toHaveLength(7);
    expect(page2.body.paginate).toMatchObject({ page: 2, current: 7, count: 27, prevPage: true, nextPage: false });
    expect(idsOf(page2).at(-1)).toBe(ids.may1);
    // The spec's trailing `/.json` and empty values (filter skipped).
    const trailing = await s.api('GET', '/flights/load/page:2/from:/aircraft:/.json', {
      token: await t('dispatch@skyline.test'),
    });
    expect(idsOf(trailing)).toEqual(idsOf(page2));
  });

  it('the unfiltered count comes from the per-company counters, not from the rows', async () => {
    const counters = await s.ctx.db
      .selectFrom('flight_counts')
      .select(['status', 'count'])
      .where('company_id', '=', s.refs.companies.skyline)
      .orderBy('status')
      .execute();
    expect(counters).toEqual([
      { status: 'CANCELED', count: 1 },
      { status: 'DRAFT', count: 27 },
    ]);
    // Proof that the unfiltered list reads the counter: skew it and restore it. Real
    // writes of the counters also move the company's change number, which the page cache keys on.
    const bumpVersion = () =>
      s.ctx.db
        .updateTable('sync_counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('company_id', '=', s.refs.companies.skyline)
        .execute();
    await s.ctx.db
      .updateTable('flight_counts')
      .set({ count: 1027 })
      .where('company_id', '=', s.refs.companies.skyline)
      .where('status', '=', 'DRAFT')
      .execute();
    await bumpVersion();
    try {
      expect((await load('')).body.paginate.count).toBe(1027);
      expect((await load('/aircraft:' + s.refs.aircraft['EC-ABC'])).body.paginate.count).toBe(26); // a filter counts exactly
    } finally {
      await s.ctx.db
        .updateTable('flight_counts')
        .set({ count: 27 })
        .where('company_id', '=', s.refs.companies.skyline)
        .where('status', '=', 'DRAFT')
        .execute();
      await bumpVersion();
    }
  });

  it('filters: from/to (inclusive, flight zone), aircraft, pilot (PIC, SIC or supervisor), base, flight_type, status, limit', async () => {
    const range = await load('/from:2024-05-10/to:2024-05-12');
    expect(idsOf(range)).toEqual([ids.may12, ids.may11, ids.may10]);
    expect(range.body.paginate.count).toBe(3);
    expect(idsOf(await load(`/aircraft:${s.refs.aircraft['EC-JET']}`))).toEqual([ids.jet]);
    const pilotFlights = await load(`/pilot:${s.userId('instructor@skyline.test')}`);
    expect(idsOf(pilotFlights)).toEqual([ids.student, ids.jet]);
    expect(idsOf(await load(`/base:${s.refs.bases.Sabadell}`))).toEqual([ids.jet]);
    expect(idsOf(await load(`/flight_type:${types['Supervised solo']}`))).toEqual([ids.student]);
    expect(idsOf(await load('/status:CANCELED'))).toEqual([ids.canceled]);
    const limited = await load('/limit:5/page:3');
    expect(limited.body.flights).toHaveLength(5);
    expect(limited.body.paginate).toMatchObject({ page: 3, limit: 5, pageCount: 6, count: 27 });
    expect(idsOf(limited)).toEqual([ids.may17, ids.may16, ids.may15, ids.may14, ids.may13]);
    expect((await load('/limit:999999')).body.paginate.limit).toBe(20000);
    const beyond = await load('/page:9');
    expect(beyond.body.flights).toEqual([]);
    expect(beyond.body.paginate.current).toBe(0);
  });

  it('a person filter pages across seats newest first, each flight once, combined with the other filters', async () => {
    const pilot = s.userId('pilot@skyline.test');
    // PIC on the 25 May flights, SIC on the jet flight (newest).
    const first = await load(`/pilot:${pilot}/limit:3`);
    expect(idsOf(first)).toEqual([ids.jet, ids.may25, ids.may24]);
    expect(first.body.paginate).toMatchObject({ count: 26, pageCount: 9 });
    expect(idsOf(await load(`/pilot:${pilot}/limit:3/page:2`))).toEqual([ids.may23, ids.may22, ids.may21]);
    const last = await load(`/pilot:${pilot}/limit:3/page:9`);
    expect(idsOf(last)).toEqual([ids.may2, ids.may1]);
    const all = await load(`/pilot:${pilot}/limit:100`);
    expect(new Set(idsOf(all)).size).toBe(26);
    expect(idsOf(await load(`/pilot:${pilot}/aircraft:${s.refs.aircraft['EC-JET']}`))).toEqual([ids.jet]);
    expect(idsOf(await load(`/pilot:${pilot}/from:2024-05-20/to:2024-05-21`))).toEqual([ids.may21, ids.may20]);
    expect(idsOf(await load(`/pilot:${pilot}/status:CANCELED`))).toEqual([ids.canceled]);
    const nobody = await load(`/pilot:${s.userId('mechanic@skyline.test')}`);
    expect([nobody.body.flights, nobody.body.paginate.count]).toEqual([[], 0]);
  });

  it('bad named parameters are a 400 with field errors', async () => {
    for (const named of [
      '/page:0',
      '/page:x',
      '/limit:0',
      '/from:2024-13-01',
      '/to:yesterday',
      '/colour:red',
      '/justtext',
      '/status:FLYING',
    ]) {
      const r = await load(named);
      expect(r.status, named).toBe(400);
      expect(r.body.result).toBe(false);
      expect(Object.keys(r.body.errors).length, named).toBeGreaterThan(0);
    }
  });

  it('roles above 170 list only flights they are involved in; another company never', async () => {
    const student = await load('/limit:100', 'student@skyline.test');
    expect(idsOf(student)).toEqual([ids.student]);
    expect(student.body.paginate.count).toBe(1);
    const pilot = await load('/limit:100', 'pilot@skyline.test');
    expect(pilot.body.paginate.count).toBe(26);
    expect(idsOf(pilot)).not.toContain(ids.student);
    // A flight naming the pilot in two ways (creator and PIC) counts once.
    const own = await createFlight(s, await t('pilot@skyline.test'), {
      date: '2024-04-30',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('pilot@skyline.test'),
      offblocks_time: '09:00',
      onblocks_time: '10:00',
    });
    const withOwn = await load('/limit:100', 'pilot@skyline.test');
    expect(withOwn.body.paginate.count).toBe(27);
    expect(idsOf(withOwn).at(-1)).toBe(own);
    expect(
      (await load(`/pilot:${s.userId('pilot@skyline.test')}/limit:100`, 'pilot@skyline.test')).body.paginate.count,
    ).toBe(27);
    // Confirmed then canceled, it ends DELETED: out of the lists the next tests count.
    expect(
      (await s.api('POST', `/flights/confirm/${own}.json`, { token: await t('dispatch@skyline.test'), body: {} }))
        .status,
    ).toBe(200);
    expect(
      (
        await s.api('POST', '/flights/cancel.json', {
          token: await t('pilot@skyline.test'),
          body: { id: own, reason: 'cleanup' },
        })
      ).body.status,
    ).toBe('DELETED');
    const harbor = await load('/limit:100', 'admin@harbor.test');
    expect(harbor.body.flights).toHaveLength(1);
    expect(harbor.body.flights[0].Aircraft.registration).toBe('N123HA');
    expect(idsOf(await load(`/aircraft:${s.refs.aircraft['EC-ABC']}`, 'admin@harbor.test'))).toEqual([]);
  });

  it('a large page is streamed as one valid JSON document with the same rows', async () => {
    const big = await load('/limit:20000');
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toMatch(/application\/json/);
    expect(big.body.flights).toHaveLength(27);
    expect(big.body.paginate).toMatchObject({ count: 27, current: 27, limit: 20000, pageCount: 1 });
    const small = await load('/limit:27');
    expect(big.body.flights).toEqual(small.body.flights);
    const filtered = await load(`/limit:20000/aircraft:${s.refs.aircraft['EC-JET']}`);
    expect(idsOf(filtered)).toEqual([ids.jet]);
    // Streamed pages are read in keyset batches: each starts exactly after the last row of the previous one.
    const company = s.refs.companies.skyline;
    const all = await flightsRepository.page(s.ctx.db, company, { statuses: LISTED }, 12, 3);
    const first = await flightsRepository.page(s.ctx.db, company, { statuses: LISTED }, 5, 3);
    const last = first[first.length - 1];
    const next = await flightsRepository.after(
      s.ctx.db,
      company,
      { statuses: LISTED },
      { starts: Number(last.starts), id: last.id },
      7,
    );
    expect([...first, ...next].map((r) => r.id)).toEqual(all.map((r) => r.id));
  });

  it('a SCHEDULED flight more than an hour past its time reads DELAYED (never stored); `status:DELAYED` filters them', async () => {
    const dispatch = await t('dispatch@skyline.test');
    const now = new Date();
    const hhmm = (d: Date) =>
      `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const ago = new Date(now.getTime() - 3 * 3600 * 1000);
    const later = new Date(ago.getTime() + 3600 * 1000);
    const late = await createFlight(s, dispatch, {
      date: ago.toISOString().slice(0, 10),
      status: 'SCHEDULED',
      aircraft_id: s.refs.aircraft['SIM-01'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('pilot@skyline.test'),
      offblocks_time: hhmm(ago),
      onblocks_time: hhmm(later),
    });
    const soon = new Date(now.getTime() + 2 * 86400 * 1000);
    const future = await createFlight(s, dispatch, {
      date: soon.toISOString().slice(0, 10),
      status: 'SCHEDULED',
      aircraft_id: s.refs.aircraft['SIM-01'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('pilot@skyline.test'),
      offblocks_time: '10:00',
      onblocks_time: '11:00',
    });
    const list = await load('/limit:5');
    const byId = Object.fromEntries(list.body.flights.map((f: any) => [f.Flight.id, f.Flight.status]));
    expect(byId[late]).toBe('DELAYED');
    expect(byId[future]).toBe('SCHEDULED');
    expect(
      (await s.ctx.db.selectFrom('flights').select('status').where('id', '=', late).executeTakeFirstOrThrow()).status,
    ).toBe('SCHEDULED');
    expect((await s.api('GET', `/flights/view/${late}.json`, { token: dispatch })).body.flight.Flight.status).toBe(
      'DELAYED',
    );
    expect(idsOf(await load('/status:DELAYED'))).toEqual([late]);
    // Statuses filter as they read: SCHEDULED without the delayed ones, both for all; DELAYED combines with others.
    expect(idsOf(await load('/status:SCHEDULED'))).toEqual([future]);
    expect(idsOf(await load('/status:SCHEDULED,DELAYED'))).toEqual([future, late]);
    expect(idsOf(await load('/status:DELAYED,CANCELED'))).toEqual([late, ids.canceled]);
    expect((await load('/status:DELAYED,CANCELED')).body.paginate.count).toBe(2);
    // A DRAFT in the past is just a draft.
    expect((await load('/limit:30')).body.flights.find((f: any) => f.Flight.id === ids.may25).Flight.status).toBe(
      'DRAFT',
    );
    await s.api('POST', '/flights/cancel.json', { token: dispatch, body: { id: late, reason: 'cleanup' } });
    await s.api('POST', '/flights/cancel.json', { token: dispatch, body: { id: future, reason: 'cleanup' } });
  });

  it('a page read again is served from the page cache until the company writes, or a flight on it turns DELAYED', async () => {
    const dispatch = await t('dispatch@skyline.test');
    const first = await load('/limit:3');
    expect(await load('/limit:3')).toMatchObject({ status: 200, body: { flights: first.body.flights } });
    // A write of the company (here a flight edit) shows at once.
    expect(
      (
        await s.api('POST', '/flights/edit.json', {
          token: dispatch,
          body: { Flight: { id: ids.student, callsign: 'CACHE1' } },
        })
      ).status,
    ).toBe(200);
    const edited = await load('/limit:3');
    expect(edited.body.flights[0].Flight).toMatchObject({ id: ids.student, callsign: 'CACHE1' });
    // So does a write to a related record (the aircraft's books move when a flight is confirmed).
    const hours = edited.body.flights[0].Aircraft.hours;
    expect((await s.api('POST', `/flights/confirm/${ids.student}.json`, { token: dispatch, body: {} })).status).toBe(
      200,
    );
    const confirmed = await load('/limit:3');
    expect(confirmed.body.flights[0].Flight.status).toBe('LANDED');
    expect(confirmed.body.flights[0].Aircraft.hours).toBeGreaterThan(hours);
    // Without any write, a SCHEDULED flight turns DELAYED one second past the hour: the cached page is stale then.
    const auth = await authenticate(s.ctx.db, dispatch);
    if (!auth.ok) throw new Error('token refused');
    // Within the flights' planning horizon (issue 28 item 5), rendered as of a later clock.
    const day = new Date(Date.now() + 200 * 86400 * 1000).toISOString().slice(0, 10);
    const id = await createFlight(s, dispatch, {
      date: day,
      status: 'SCHEDULED',
      aircraft_id: s.refs.aircraft['SIM-01'],
      pic_id: s.userId('pilot@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: '10:00',
      onblocks_time: '11:00',
    });
    const off = Date.parse(`${day}T10:00:00Z`) / 1000;
    const render = async (now: number) =>
      JSON.parse(
        (await renderFlightsPage(s.ctx, auth.actor, parseLoadParams([`from:${day}`, `to:${day}`]), now)).toString(),
      );
    expect((await render(off + 3600)).flights.map((f: any) => f.Flight.status)).toEqual(['SCHEDULED']);
    expect((await render(off + 3600)).flights.map((f: any) => f.Flight.status)).toEqual(['SCHEDULED']);
    const later = await render(off + 3601);
    expect(later.flights.map((f: any) => f.Flight.status)).toEqual(['DELAYED']);
    expect(later.time).toBe(String(off + 3601));
    await s.api('POST', '/flights/cancel.json', { token: dispatch, body: { id, reason: 'cleanup' } });
  });
});
