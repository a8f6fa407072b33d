import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, flightRow, saveFlight, tokenCache, typeIds } from './helpers.ts';

/**
 * The logbook round trip (issue 7, Logbook): GET /pilots/totals (people area,
 * Part A 4.8 item 6) reads the flights this area writes. Only LANDED flights
 * count, so confirming moves a pilot's totals by exactly the flight's times in
 * the classes its seat earns, and cancelling it (LANDED becomes DELETED) moves
 * them back. Landings are not part of the totals: the currency windows of
 * GET /pilots/get_currency carry them.
 */
type Totals = {
  total_time: number;
  flight_time: number;
  flight_types: Record<string, number>;
  functions: Record<string, { time: number }>;
  rules: Record<string, { time: number }>;
};
type Delta = {
  total_time?: number;
  flight_time?: number;
  flight_types?: Record<string, number>;
  functions?: Record<string, number>;
  rules?: Record<string, number>;
};

/** What moved between two totals answers, line by line; lines that did not move are left out. */
function delta(before: Totals, after: Totals): Delta {
  const out: Delta = {};
  const lines = (a: Record<string, number>, b: Record<string, number>) => {
    const moved: Record<string, number> = {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      if ((b[k] ?? 0) !== (a[k] ?? 0)) moved[k] = (b[k] ?? 0) - (a[k] ?? 0);
    return Object.keys(moved).length ? moved : undefined;
  };
  const times = (m: Record<string, { time: number }>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.time]));
  if (after.total_time !== before.total_time) out.total_time = after.total_time - before.total_time;
  if (after.flight_time !== before.flight_time) out.flight_time = after.flight_time - before.flight_time;
  const types = lines(before.flight_types, after.flight_types);
  if (types) out.flight_types = types;
  const functions = lines(times(before.functions), times(after.functions));
  if (functions) out.functions = functions;
  const rules = lines(times(before.rules), times(after.rules));
  if (rules) out.rules = rules;
  return out;
}

/** Drops zero entries of an expected line map (a day flight has no night line to move). */
const moved = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== 0));

describe.each(DIALECTS)('logbook totals from flights on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  /** A UTC date `n` days back: inside the default currency windows (Skyline logs in UTC). */
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

  const totals = async (email: string): Promise<Totals> => {
    const r = await s.api('GET', '/pilots/totals.json', { token: await t(email) });
    expect(r.status).toBe(200);
    return r.body;
  };
  const currency = async (email: string) => {
    const r = await s.api('GET', '/pilots/get_currency.json', { token: await t(email) });
    expect(r.status).toBe(200);
    const w = r.body.windows;
    return { landings: w.landings.count, night_landings: w.night_landings.count, hours: w.hours.seconds };
  };
  const confirm = async (id: string) =>
    s.api('POST', `/flights/confirm/${id}.json`, { token: await t('dispatch@skyline.test'), body: {} });
  const cancel = async (id: string) =>
    s.api('POST', '/flights/cancel.json', {
      token: await t('dispatch@skyline.test'),
      body: { id, reason: 'Logged by mistake' },
    });
  const stored = async (id: string) => {
    const r = await s.api('GET', `/flights/view/${id}.json`, { token: await t('dispatch@skyline.test') });
    return r.body.flight.Flight as {
      block_time: number;
      flight_time: number;
      night_flight_time: number;
      ifr_flight_time: number;
      status: string;
    };
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
  });
  afterAll(() => s?.close());

  it('a confirmed flight moves the PIC’s totals by exactly its times in the right classes; cancelling it moves them back', async () => {
    const pilot = 'pilot@skyline.test';
    const before = await totals(pilot);
    const currencyBefore = await currency(pilot);
    // Evening VFR cross-country, Solo (PIC seat `pic`) on the single-pilot EC-ABC; times in UTC.
    const id = await createFlight(s, await t('dispatch@skyline.test'), {
      date: daysAgo(3),
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types.Solo,
      pic_id: s.userId(pilot),
      departure_airport: 'LECU',
      landing_airport: 'LEVD',
      rules: 'VFR',
      offblocks_time: '19:00',
      takeoff_time: '19:10',
      landing_time: '20:35',
      onblocks_time: '20:45',
      landings: 2,
      night_landings: 1,
    });
    const f = await stored(id);
    expect([f.block_time, f.flight_time]).toEqual([6300, 5100]);
    expect(f.night_flight_time).toBeGreaterThan(0); // sunset at Madrid is before 20:35 UTC all year

    // A DRAFT counts for nothing.
    expect(await totals(pilot)).toEqual(before);

    expect((await confirm(id)).status).toBe(200);
    const landed = await totals(pilot);
    // Time lines credit block time (total_time, flight_time = total minus SIM); Night the flight's night time.
    expect(delta(before, landed)).toEqual({
      total_time: 6300,
      flight_time: 6300,
      flight_types: { Solo: 6300 },
      functions: { PIC: 6300 },
      rules: { VFR: 6300, 'Cross Country': 6300, Night: f.night_flight_time },
    });
    expect(await currency(pilot)).toEqual({
      landings: currencyBefore.landings + 2,
      night_landings: currencyBefore.night_landings + 1,
      hours: currencyBefore.hours + 6300,
    });

    // Editing the LANDED flight (Flight.edit) moves the totals by the difference.
    expect((await saveFlight(s, await t('ops@skyline.test'), { id, onblocks_time: '20:55' })).status).toBe(200);
    const edited = await stored(id);
    expect([edited.status, edited.block_time, edited.night_flight_time]).toEqual(['LANDED', 6900, f.night_flight_time]);
    expect(delta(landed, await totals(pilot))).toEqual({
      total_time: 600,
      flight_time: 600,
      flight_types: { Solo: 600 },
      functions: { PIC: 600 },
      rules: { VFR: 600, 'Cross Country': 600 },
    });

    // Cancelling a LANDED flight makes it DELETED: everything returns exactly.
    const r = await cancel(id);
    expect(r.body).toMatchObject({ result: true, status: 'DELETED' });
    expect((await flightRow(s, id)).status).toBe('DELETED');
    expect(await totals(pilot)).toEqual(before);
    expect(await currency(pilot)).toEqual(currencyBefore);
  });

  it('the SIC seat of a multipilot aircraft moves SIC (not PIC), on a single-pilot aircraft nothing; the PIC moves PIC', async () => {
    const pilot = 'pilot@skyline.test';
    const instructor = 'instructor@skyline.test';
    const pilotBefore = await totals(pilot);
    const instructorBefore = await totals(instructor);
    // Multi-crew: PIC seat `pic`, SIC seat `sic`. EC-JET is multipilot and multi-engine; an IFR leg by day.
    const crew = {
      flight_type_id: types['Multi-crew'],
      pic_id: s.userId(instructor),
      sic_id: s.userId(pilot),
      departure_airport: 'LELL',
      landing_airport: 'LECU',
      rules: 'IFR',
    };
    const jet = await createFlight(s, await t('dispatch@skyline.test'), {
      ...crew,
      date: daysAgo(5),
      aircraft_id: s.refs.aircraft['EC-JET'],
      offblocks_time: '09:00',
      takeoff_time: '09:15',
      landing_time: '10:25',
      onblocks_time: '10:40',
      landings: 1,
    });
    expect((await confirm(jet)).status).toBe(200);
    const f = await stored(jet);
    expect([f.block_time, f.flight_time, f.ifr_flight_time]).toEqual([6000, 4200, 4200]); // IFR time defaults to the airborne time
    const common = {
      total_time: 6000,
      flight_time: 6000,
      flight_types: { 'Multi-crew': 6000 },
      rules: moved({ IFR: 4200, 'Cross Country': 6000, 'Multi Engine': 6000, Night: f.night_flight_time }),
    };
    const pilotJet = await totals(pilot);
    const instructorJet = await totals(instructor);
    expect(delta(pilotBefore, pilotJet)).toEqual({ ...common, functions: { SIC: 6000 } });
    expect(delta(instructorBefore, instructorJet)).toEqual({ ...common, functions: { PIC: 6000 } });

    // The same crew on EC-DEF (multi-engine, single-pilot): the SIC seat logs nothing.
    const seneca = await createFlight(s, await t('dispatch@skyline.test'), {
      ...crew,
      date: daysAgo(5),
      aircraft_id: s.refs.aircraft['EC-DEF'],
      offblocks_time: '13:00',
      onblocks_time: '14:00',
      landings: 1,
    });
    expect((await confirm(seneca)).status).toBe(200);
    const g = await stored(seneca);
    expect(g.block_time).toBe(3600);
    expect(await totals(pilot)).toEqual(pilotJet);
    expect(delta(instructorJet, await totals(instructor))).toEqual({
      total_time: 3600,
      flight_time: 3600,
      flight_types: { 'Multi-crew': 3600 },
      functions: { PIC: 3600 },
      rules: moved({ IFR: g.ifr_flight_time, 'Cross Country': 3600, 'Multi Engine': 3600, Night: g.night_flight_time }),
    });

    for (const id of [jet, seneca]) expect((await cancel(id)).body.status).toBe('DELETED');
    expect(await totals(pilot)).toEqual(pilotBefore);
    expect(await totals(instructor)).toEqual(instructorBefore);
  });
});
