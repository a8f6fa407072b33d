import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, flightTypeIds, tokens } from '../pilots/people-helpers.ts';

const HOUR = 3600;
const DAY = 86400;
const now = () => Math.floor(Date.now() / 1000);

interface F {
  company?: 'skyline' | 'harbor';
  status?: string;
  pic?: string | null;
  sic?: string | null;
  aircraft?: string | null;
  type?: string | null;
  from?: string | null;
  to?: string | null;
  rules?: string | null;
  block?: number;
  landings?: number;
  /** Off-blocks instant. */
  off: number;
}

describe.each(DIALECTS)('Reports on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let types: Record<string, string>;
  let p: string; // the pilot under test (Skyline, role 190, with a login)
  let q: string; // a second Skyline pilot
  let hp: string; // a Harbor pilot
  const t0 = now();
  const nowUtc = DateTime.fromSeconds(t0, { zone: 'UTC' });
  /** 15 days into the month three months back (UTC): safely inside that month in any zone. */
  const threeBack = Math.floor(nowUtc.startOf('month').minus({ months: 3 }).plus({ days: 14 }).toSeconds());

  const add = async (f: F) => {
    const company = f.company ?? 'skyline';
    const zone = company === 'harbor' ? 'America/New_York' : 'UTC';
    const block = f.block ?? HOUR;
    await (s.ctx.db as any)
      .insertInto('flights')
      .values({
        id: uuidv7(),
        company_id: s.refs.companies[company],
        change_no: 0,
        deleted: 0,
        created: f.off,
        modified: f.off,
        date: DateTime.fromSeconds(f.off, { zone }).toISODate(),
        status: f.status ?? 'LANDED',
        aircraft_id: f.aircraft ?? null,
        flight_type_id: f.type ?? null,
        pic_id: f.pic ?? null,
        sic_id: f.sic ?? null,
        departure_airport: f.from === undefined ? 'LECU' : f.from,
        landing_airport: f.to === undefined ? 'LEMG' : f.to,
        offblocks: f.off,
        takeoff: f.off + 300,
        landing: f.off + block - 300,
        onblocks: f.off + block,
        starts: f.off,
        block_time: block,
        flight_time: block - 600,
        night_flight_time: 0,
        ifr_flight_time: 0,
        rules: f.rules === undefined ? 'VFR' : f.rules,
        crosscountry: 0,
        multiengine: 0,
        landings: f.landings ?? 1,
        night_landings: 0,
        engine_starts: 1,
        pax: 0,
      })
      .execute();
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    types = await flightTypeIds(s);
    p = await addUser(s, { name: 'Rhea', surname: 'Reports', email: 'rhea@reports.test', login: true });
    q = await addUser(s, { name: 'Quinn', surname: 'Other' });
    hp = await addUser(s, {
      company: 'harbor',
      name: 'Hal',
      surname: 'Harbor',
      email: 'hal@reports.test',
      login: true,
    });
    const ac = s.refs.aircraft;
    // p: 3 as PIC, 2 as SIC, 1 in both seats (counted once), all LANDED.
    await add({
      pic: p,
      aircraft: ac['EC-ABC'],
      type: types.Solo,
      from: 'LECU',
      to: 'LEMG',
      block: 3600,
      landings: 3,
      off: t0 - 2 * DAY,
    });
    await add({
      pic: p,
      aircraft: ac['EC-ABC'],
      type: types.Solo,
      from: 'LECU',
      to: 'LEMG',
      block: 1800,
      landings: 1,
      off: threeBack,
    });
    await add({
      pic: p,
      aircraft: ac['EC-DEF'],
      type: types['Dual training'],
      from: 'LEMG',
      to: 'LEMD',
      rules: 'IFR',
      block: 5400,
      landings: 2,
      off: threeBack + DAY,
    });
    await add({
      pic: q,
      sic: p,
      aircraft: ac['EC-JET'],
      type: types['Multi-crew'],
      from: 'LEMD',
      to: 'LEBL',
      rules: 'IFR',
      block: 7200,
      landings: 1,
      off: t0 - 3 * DAY,
    });
    await add({
      pic: q,
      sic: p,
      aircraft: ac['EC-JET'],
      type: null,
      from: 'LEBL',
      to: 'ZZZZ',
      rules: null,
      block: 1000,
      landings: 1,
      off: t0 - 40 * DAY * 12,
    });
    await add({
      pic: p,
      sic: p,
      aircraft: ac['EC-ABC'],
      type: types.Solo,
      from: 'LECU',
      to: 'LECU',
      block: 600,
      landings: 5,
      off: t0 - 4 * DAY,
    });
    // Not LANDED: never counted.
    for (const status of ['DRAFT', 'SCHEDULED', 'DISPATCHED', 'CANCELED', 'DELETED']) {
      await add({
        status,
        pic: p,
        aircraft: ac['EC-ABC'],
        type: types.Solo,
        block: 9999,
        landings: 9,
        off: t0 - 2 * DAY,
      });
    }
    // q alone on EC-ABC.
    await add({
      pic: q,
      aircraft: ac['EC-ABC'],
      type: types.Solo,
      from: 'LECU',
      to: 'LEMG',
      block: 2400,
      landings: 4,
      off: t0 - 5 * DAY,
    });
    // Harbor: same route code, must never leak into Skyline.
    await add({
      company: 'harbor',
      pic: hp,
      aircraft: ac.N123HA,
      from: 'KFRG',
      to: 'KJFK',
      block: 3000,
      landings: 2,
      off: t0 - DAY,
    });
    // Harbor flight at 02:00 UTC on the first of this month = the last evening of the previous month in New York.
    const firstUtc = Math.floor(nowUtc.startOf('month').plus({ hours: 2 }).toSeconds());
    if (firstUtc < t0)
      await add({
        company: 'harbor',
        pic: hp,
        aircraft: ac.N123HA,
        from: 'KFRG',
        to: 'KFRG',
        block: 1200,
        landings: 1,
        off: firstUtc,
      });
  });
  afterAll(() => s?.close());

  const get = async (path: string, email = 'admin@skyline.test') => s.api('GET', path, { token: await tok(email) });
  const PATHS = [
    '/reports/pilots_airports.json',
    '/reports/stats_rules.json',
    '/reports/total_flights/x.json',
    '/reports/stats_flight_types.json',
    '/reports/flight_hours_by_month/3.json',
    '/reports/total_hours.json',
    '/reports/total_landings.json',
  ];

  it('answers 401 without a token', async () => {
    for (const path of PATHS) expect((await s.api('GET', path)).status, path).toBe(401);
  });

  it('pilots_airports: routes with coordinates and counts, most flown first, routes without coordinates dropped', async () => {
    const r = await get(`/reports/pilots_airports/${p}.json`);
    expect(r.status).toBe(200);
    expect(r.body.routes.map((x: any) => [x.from, x.to, x.flights])).toEqual([
      ['LECU', 'LEMG', 2],
      ['LECU', 'LECU', 1],
      ['LEMD', 'LEBL', 1],
      ['LEMG', 'LEMD', 1],
    ]);
    const first = r.body.routes[0];
    expect(first.from_lat).toBeCloseTo(40.37, 1);
    expect(first.from_lon).toBeCloseTo(-3.78, 1);
    expect(typeof first.to_lat).toBe('number');
  });

  it('pilots_airports: the caller by default; a caller above 170 always gets their own routes', async () => {
    const own = await get('/reports/pilots_airports.json', 'rhea@reports.test');
    expect(own.body.routes[0]).toMatchObject({ from: 'LECU', to: 'LEMG', flights: 2 });
    const asked = await get(`/reports/pilots_airports/${q}.json`, 'rhea@reports.test');
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(own.body);
    // Staff (170) may look at another pilot.
    const staff = await get(`/reports/pilots_airports/${q}.json`, 'dispatch@skyline.test');
    expect(staff.body.routes.find((x: any) => x.from === 'LECU' && x.to === 'LEMG').flights).toBe(1);
  });

  it('404 for a user outside the company on every user report, nothing of theirs shown', async () => {
    for (const path of [
      `/reports/pilots_airports/${hp}.json`,
      `/reports/stats_rules/${hp}.json`,
      `/reports/total_flights/${hp}.json`,
      `/reports/stats_flight_types/${hp}.json`,
      `/reports/flight_hours_by_month/3/${hp}.json`,
      `/reports/total_hours/${hp}.json`,
      `/reports/total_landings/${hp}.json`,
      `/reports/total_hours/${uuidv7()}.json`,
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.result).toBe(false);
    }
    // Another company's aircraft is 404 too.
    expect((await get(`/reports/flight_hours_by_month/3/null/${s.refs.aircraft.N123HA}.json`)).status).toBe(404);
    expect((await get(`/reports/total_landings/-/${s.refs.aircraft.N123HA}.json`)).status).toBe(404);
    expect((await get(`/reports/stats_flight_types/null/${s.refs.aircraft.N123HA}.json`)).status).toBe(404);
  });

  it('stats_rules: time and count per flight rule', async () => {
    const r = await get(`/reports/stats_rules/${p}.json`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      rules: [
        { rule: 'IFR', seconds: 12600, flights: 2 },
        { rule: 'VFR', seconds: 6000, flights: 3 },
        { rule: 'NONE', seconds: 1000, flights: 1 },
      ],
      total: 19600,
      flights: 6,
    });
    expect(r.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('total_flights and total_hours: LANDED block time and count, PIC or SIC, each flight once', async () => {
    expect((await get(`/reports/total_flights/${p}.json`)).body).toEqual({ flights: 6, seconds: 19600 });
    expect((await get(`/reports/total_hours/${p}.json`)).body).toEqual({ seconds: 19600, hours: 5.44 });
    expect((await get('/reports/total_hours.json', 'rhea@reports.test')).body.seconds).toBe(19600);
    // Defaults to the caller: the admin has no flights.
    expect((await get('/reports/total_hours.json')).body).toEqual({ seconds: 0, hours: 0 });
    // A student asking for someone else gets their own.
    expect((await get(`/reports/total_flights/${p}.json`, 'student@skyline.test')).body).toEqual({
      flights: 0,
      seconds: 0,
    });
  });

  it('stats_flight_types: per type with colour, untyped as null, private cache 1 hour', async () => {
    const r = await get(`/reports/stats_flight_types/${p}.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(r.body.total).toBe(19600);
    expect(r.body.types.map((t: any) => [t.id, t.name, t.total])).toEqual([
      [types['Multi-crew'], 'Multi-crew', 7200],
      [types.Solo, 'Solo', 6000],
      [types['Dual training'], 'Dual training', 5400],
      [null, 'No flight type', 1000],
    ]);
    for (const t of r.body.types) expect(t.color).toMatch(/^#[0-9a-f]{3,6}$/);
  });

  it('flight_hours_by_month: zero-filled buckets newest first, clamped months, private cache 12 hours', async () => {
    const r = await get(`/reports/flight_hours_by_month/4/${p}.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, max-age=43200');
    expect(r.body).toHaveLength(5);
    const labels = [0, 1, 2, 3, 4].map((i) => nowUtc.startOf('month').minus({ months: i }).toFormat('yyyy-MM'));
    expect(r.body.map((b: any) => b.label)).toEqual(labels);
    expect(r.body[0].timestamp).toBe(Math.floor(nowUtc.startOf('month').toSeconds()));
    expect(r.body[3]).toMatchObject({ seconds: 7200, flights: 2, landings: 3 });
    expect(r.body[4]).toMatchObject({ seconds: 0, flights: 0, landings: 0 });
    // The recent flights (2-4 days ago) may fall in this or the previous month.
    const recent = r.body[0].seconds + r.body[1].seconds;
    expect(recent).toBe(3600 + 7200 + 600);
    const zero = await get(`/reports/flight_hours_by_month/-5/${p}.json`);
    expect(zero.body).toHaveLength(1);
    expect((await get(`/reports/flight_hours_by_month/99999/${p}.json`)).body).toHaveLength(241);
    const bad = await get('/reports/flight_hours_by_month/abc.json');
    expect(bad.status).toBe(400);
    expect(bad.body.result).toBe(false);
  });

  it('flight_hours_by_month: null user with an aircraft scopes by aircraft; user and aircraft together', async () => {
    const ac = s.refs.aircraft;
    const byAircraft = await get(`/reports/flight_hours_by_month/4/null/${ac['EC-ABC']}.json`);
    const sum = (b: any[]) => b.reduce((x, y) => x + y.seconds, 0);
    expect(sum(byAircraft.body)).toBe(3600 + 1800 + 600 + 2400);
    const both = await get(`/reports/flight_hours_by_month/4/${q}/${ac['EC-ABC']}.json`);
    expect(sum(both.body)).toBe(2400);
    // A student asking by aircraft only gets their own flights on it.
    const student = await get(`/reports/flight_hours_by_month/4/null/${ac['EC-ABC']}.json`, 'student@skyline.test');
    expect(sum(student.body)).toBe(0);
  });

  it('flight_hours_by_month: months in the flight zone (Harbor: New York)', async () => {
    const r = await get('/reports/flight_hours_by_month/1.json', 'hal@reports.test');
    expect(r.status).toBe(200);
    const nyStart = DateTime.fromSeconds(t0, { zone: 'America/New_York' }).startOf('month');
    expect(r.body[0].label).toBe(nyStart.toFormat('yyyy-MM'));
    expect(r.body[0].timestamp).toBe(Math.floor(nyStart.toSeconds()));
    const firstUtc = Math.floor(nowUtc.startOf('month').plus({ hours: 2 }).toSeconds());
    if (firstUtc < t0 && nyStart.month === nowUtc.month) {
      // 02:00 UTC on the 1st is the previous evening in New York: the previous bucket.
      const prevMonth = r.body[1];
      expect(prevMonth.seconds).toBeGreaterThanOrEqual(1200);
    }
    expect(r.body[0].seconds + r.body[1].seconds).toBeGreaterThanOrEqual(3000);
  });

  it('total_landings: user, aircraft, since and to filters, private cache 1 hour', async () => {
    const ac = s.refs.aircraft;
    const r = await get(`/reports/total_landings/${p}.json`);
    expect(r.body).toEqual({ landings: 13 });
    expect(r.headers.get('cache-control')).toBe('private, max-age=3600');
    expect((await get('/reports/total_landings.json', 'rhea@reports.test')).body).toEqual({ landings: 13 });
    expect((await get(`/reports/total_landings/${p}/${ac['EC-ABC']}.json`)).body).toEqual({ landings: 9 });
    expect((await get(`/reports/total_landings/-/${ac['EC-ABC']}.json`)).body).toEqual({ landings: 13 });
    // since: off-blocks strictly after; to: on-blocks strictly before.
    expect((await get(`/reports/total_landings/${p}/-/${t0 - 5 * DAY}.json`)).body).toEqual({ landings: 9 });
    expect((await get(`/reports/total_landings/${p}/-/${t0 - 2 * DAY}.json`)).body).toEqual({ landings: 0 });
    expect((await get(`/reports/total_landings/${p}/-/0/${t0 - 2 * DAY + 3601}.json`)).body).toEqual({ landings: 13 });
    expect((await get(`/reports/total_landings/${p}/-/0/${t0 - 2 * DAY + 3600}.json`)).body).toEqual({ landings: 10 });
    const bad = await get(`/reports/total_landings/${p}/-/soon.json`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.since).toBeTruthy();
  });

  it('every role of the company may read its own reports (auditor and mechanic included)', async () => {
    for (const email of [
      'pilot@skyline.test',
      'student@skyline.test',
      'auditor@skyline.test',
      'mechanic@skyline.test',
      'ops@skyline.test',
    ]) {
      for (const path of PATHS.filter((x) => !x.includes('/x.json')))
        expect((await get(path, email)).status, `${email} ${path}`).toBe(200);
    }
  });

  it('Harbor sees only Harbor flights', async () => {
    expect((await get('/reports/total_hours.json', 'hal@reports.test')).body.seconds).toBeGreaterThanOrEqual(3000);
    const routes = (await get('/reports/pilots_airports.json', 'hal@reports.test')).body.routes;
    expect(routes.every((x: any) => x.from.startsWith('K'))).toBe(true);
    expect((await get(`/reports/total_landings/-/${s.refs.aircraft['EC-ABC']}.json`, 'admin@harbor.test')).status).toBe(
      404,
    );
  });
});
