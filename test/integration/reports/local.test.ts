import { uuidv7 } from '@ops/shared';
import { getAirport } from '@ops/shared/airports';
import {
  type FlightTypeInfo,
  localHoursByMonth,
  localRoutes,
  localStatsFlightTypes,
  localStatsRules,
  localTotalHours,
  localTotals,
  type ReportFlight,
  type ReportScope,
} from '@ops/shared/rules/reports/index';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, tokens } from '../pilots/people-helpers.ts';

/**
 * The offline logbook computes the reports from replicated flights with the
 * shared rules of rules/reports/local.ts; over the same rows they must give
 * exactly the server's figures (SQL). A seeded mix of statuses, seats, types,
 * rules, airports (unknown and missing ones) and months, compared endpoint by endpoint.
 */
const DAY = 86400;

/** Small deterministic generator (mulberry32) so a failure reproduces. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(DIALECTS)('Reports computed locally equal the server on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let pilots: string[];
  let rows: ReportFlight[];
  let types: Map<string, FlightTypeInfo>;
  let zone: string;
  const t0 = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    const company = s.refs.companies.skyline;
    pilots = [
      await addUser(s, { name: 'Lola', surname: 'Local', email: 'lola@local.test', login: true }),
      await addUser(s, { name: 'Mo', surname: 'Local' }),
      await addUser(s, { name: 'Ned', surname: 'Local' }),
    ];
    const typeRows = await s.ctx.db
      .selectFrom('flight_types')
      .select(['id', 'name', 'color'])
      .where('company_id', '=', company)
      .execute();
    types = new Map(typeRows.map((t) => [t.id, { name: t.name, color: t.color }]));
    const typeIds: (string | null)[] = [...types.keys(), null, uuidv7()];
    const aircraft = [s.refs.aircraft['EC-ABC']!, s.refs.aircraft['EC-DEF']!, s.refs.aircraft['EC-JET']!];
    const airports = ['LECU', 'LEMG', 'LEMD', 'LEBL', 'ZZZZ', null];
    const statuses = ['LANDED', 'LANDED', 'LANDED', 'LANDED', 'DRAFT', 'SCHEDULED', 'DISPATCHED', 'CANCELED'];
    const c = await s.ctx.db
      .selectFrom('companies')
      .select(['timezone', 'flight_timezone'])
      .where('id', '=', company)
      .executeTakeFirstOrThrow();
    zone = c.flight_timezone || c.timezone || 'UTC';
    const r = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    for (let i = 0; i < 160; i++) {
      const off = t0 - Math.floor(r() * 500 * DAY) - 3600;
      const block = 600 + Math.floor(r() * 20000);
      const pic = pick([...pilots, null]);
      await (s.ctx.db as any)
        .insertInto('flights')
        .values({
          id: uuidv7(),
          company_id: company,
          change_no: 0,
          deleted: 0,
          created: off,
          modified: off,
          date: DateTime.fromSeconds(off, { zone }).toISODate(),
          status: pick(statuses),
          aircraft_id: pick(aircraft),
          flight_type_id: pick(typeIds),
          pic_id: pic,
          sic_id: r() < 0.1 ? pic : pick([...pilots, null, null]),
          departure_airport: pick(airports),
          landing_airport: pick(airports),
          offblocks: off,
          takeoff: off + 300,
          landing: off + block - 300,
          onblocks: off + block,
          starts: off,
          block_time: block,
          flight_time: block - 600,
          night_flight_time: 0,
          ifr_flight_time: 0,
          rules: pick(['VFR', 'IFR', 'Y', null]),
          crosscountry: 0,
          multiengine: 0,
          landings: 1 + Math.floor(r() * 5),
          night_landings: 0,
          engine_starts: 1,
          pax: 0,
        })
        .execute();
    }
    rows = (await s.ctx.db
      .selectFrom('flights')
      .select([
        'status',
        'pic_id',
        'sic_id',
        'aircraft_id',
        'flight_type_id',
        'block_time',
        'landings',
        'date',
        'starts',
        'onblocks',
        'rules',
        'departure_airport',
        'landing_airport',
      ])
      .where('company_id', '=', company)
      .where('deleted', '=', 0)
      .execute()) as unknown as ReportFlight[];
    rows = rows.map((f) => ({
      ...f,
      block_time: Number(f.block_time),
      landings: Number(f.landings),
      starts: Number(f.starts),
      onblocks: f.onblocks === null ? null : Number(f.onblocks),
    }));
  });
  afterAll(() => s?.close());

  const get = async (path: string) => {
    const r = await s.api('GET', path, { token: await tok('admin@skyline.test') });
    expect(r.status, path).toBe(200);
    return r.body;
  };
  const airport = (code: string) => {
    const a = getAirport(code);
    return a ? { icao: a.icao, lat: a.lat, lon: a.lon } : null;
  };

  it('per pilot: totals, rules, flight types, months and routes', async () => {
    for (const p of pilots) {
      const scope: ReportScope = { userId: p, aircraftId: null };
      expect(await get(`/reports/total_hours/${p}.json`)).toEqual(localTotalHours(rows, scope));
      const t = localTotals(rows, scope);
      expect(t.flights).toBeGreaterThan(5);
      expect(await get(`/reports/total_flights/${p}.json`)).toEqual({ flights: t.flights, seconds: t.seconds });
      expect(await get(`/reports/total_landings/${p}.json`)).toEqual({
        landings: localTotals(rows, scope, { since: 0 }).landings,
      });
      expect(await get(`/reports/stats_rules/${p}.json`)).toEqual(localStatsRules(rows, scope));
      expect(await get(`/reports/stats_flight_types/${p}.json`)).toEqual(localStatsFlightTypes(rows, scope, types));
      expect(await get(`/reports/flight_hours_by_month/18/${p}.json`)).toEqual(
        localHoursByMonth(rows, scope, Math.floor(Date.now() / 1000), zone, 18),
      );
      expect(await get(`/reports/pilots_airports/${p}.json`)).toEqual(localRoutes(rows, scope, airport));
    }
  });

  it('per aircraft, and a pilot on one aircraft, with landing windows', async () => {
    const ac = s.refs.aircraft['EC-ABC']!;
    const byAircraft: ReportScope = { userId: null, aircraftId: ac };
    expect(await get(`/reports/flight_hours_by_month/18/null/${ac}.json`)).toEqual(
      localHoursByMonth(rows, byAircraft, Math.floor(Date.now() / 1000), zone, 18),
    );
    // Extension: stats_flight_types by aircraft (the company statistics view).
    expect(await get(`/reports/stats_flight_types/null/${ac}.json`)).toEqual(
      localStatsFlightTypes(rows, byAircraft, types),
    );
    const since = t0 - 200 * DAY;
    const to = t0 - 30 * DAY;
    expect(await get(`/reports/total_landings/-/${ac}/${since}/${to}.json`)).toEqual({
      landings: localTotals(rows, byAircraft, { since, to }).landings,
    });
    const p = pilots[0]!;
    const both: ReportScope = { userId: p, aircraftId: ac };
    expect(await get(`/reports/flight_hours_by_month/18/${p}/${ac}.json`)).toEqual(
      localHoursByMonth(rows, both, Math.floor(Date.now() / 1000), zone, 18),
    );
    expect(await get(`/reports/total_landings/${p}/${ac}/${since}.json`)).toEqual({
      landings: localTotals(rows, both, { since }).landings,
    });
  });
});
