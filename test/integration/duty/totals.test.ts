import { flightSecondsBy } from '@ops/server/areas/duty/duty.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, tokenCache, typeIds, utc } from '../flights/helpers.ts';
import { recountDuty } from './recount.ts';

/**
 * The duty running totals (`duty_flights`, `duty_months`, issue 30): kept in
 * the transaction of every flight change, so the year read from them equals
 * the flights; checked against a full recount after each step.
 */
describe.each(DIALECTS)('Duty running totals on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let sky: string;
  let paula: string;
  let ivan: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    sky = s.refs.companies.skyline;
    paula = s.userId('pilot@skyline.test');
    ivan = s.userId('instructor@skyline.test');
  });
  afterAll(async () => {
    if (s) expect(await recountDuty(s)).toEqual([]);
    await s?.close();
  });

  const api = async (method: string, path: string, body?: unknown) =>
    s.api(method, path, { token: await t('admin@skyline.test'), body });
  /** A flight in UTC wall clock (Skyline's flight zone), confirmed unless `draft`. */
  const flight = async (date: string, off: string, takeoff: string, landing: string, on: string, sic?: string) => {
    const id = await createFlight(s, await t('admin@skyline.test'), {
      date,
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types['Dual training'],
      pic_id: paula,
      ...(sic ? { sic_id: sic } : {}),
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: off,
      takeoff_time: takeoff,
      landing_time: landing,
      onblocks_time: on,
      landings: 1,
    });
    const r = await api('POST', `/flights/confirm/${id}.json`, {});
    expect(r.body.result, JSON.stringify(r.body)).toBe(true);
    return id;
  };
  const rows = (flightId: string) =>
    s.ctx.db
      .selectFrom('duty_flights')
      .select(['user_id', 'offblocks', 'flight_time'])
      .where('flight_id', '=', flightId)
      .orderBy('user_id')
      .execute();
  const board = async (from: string) => {
    const r = await s.api('GET', `/duty/board.json?from=${from}`, { token: await t('dispatch@skyline.test') });
    expect(r.status).toBe(200);
    return r.body.people as { user_id: string; year_flight_seconds: number }[];
  };
  const yearOnBoard = async (from: string, userId: string) =>
    (await board(from)).find((p) => p.user_id === userId)?.year_flight_seconds;

  it('a confirm counts the flight for each crew member once; edits move it; a crew change moves it between people; cancel takes it out', async () => {
    const id = await flight('2025-06-10', '10:00', '10:10', '11:10', '11:20', ivan);
    expect((await rows(id)).map((r) => [r.user_id, Number(r.flight_time)]).sort()).toEqual(
      [
        [paula, 3600],
        [ivan, 3600],
      ].sort(),
    );
    // A second confirm changes nothing (already LANDED).
    await api('POST', `/flights/confirm/${id}.json`, {});
    expect(await rows(id)).toHaveLength(2);
    expect(await recountDuty(s)).toEqual([]);

    // Later landing: 1:30 of flight time, same month.
    expect(
      (await api('POST', '/flights/edit.json', { Flight: { id, landing_time: '11:40', onblocks_time: '11:50' } }))
        .status,
    ).toBe(200);
    expect((await rows(id)).map((r) => Number(r.flight_time))).toEqual([5400, 5400]);
    // Another month (the flight was logged on the wrong day).
    expect((await api('POST', '/flights/edit.json', { Flight: { id, date: '2025-07-01' } })).status).toBe(200);
    expect((await rows(id)).every((r) => Number(r.offblocks) === utc('2025-07-01T10:00'))).toBe(true);
    // Ivan leaves the flight.
    expect((await api('POST', '/flights/edit.json', { Flight: { id, sic_id: '' } })).status).toBe(200);
    expect((await rows(id)).map((r) => r.user_id)).toEqual([paula]);
    expect(await recountDuty(s)).toEqual([]);

    const cancel = await api('POST', '/flights/cancel.json', { id, reason: 'Logged twice' });
    expect(cancel.status).toBe(200);
    expect(await rows(id)).toEqual([]);
    const months = await s.ctx.db
      .selectFrom('duty_months')
      .select(['month', 'flight_seconds', 'flights'])
      .where('company_id', '=', sky)
      .where('user_id', '=', paula)
      .execute();
    expect(months.every((m) => Number(m.flight_seconds) === 0 && Number(m.flights) === 0)).toBe(true);
    expect(await recountDuty(s)).toEqual([]);
  });

  it('the year on the board is the company-zone calendar year: a flight at 23:35 UTC on 31 December is in the next year in Madrid', async () => {
    // 00:35 on 1 January 2026 in Madrid: in 2026.
    await flight('2025-12-31', '23:35', '23:40', '23:50', '23:55');
    // 23:30 on 31 December in Madrid: in 2025.
    await flight('2025-12-31', '22:30', '22:35', '22:50', '22:55');
    await flight('2026-01-15', '10:00', '10:05', '11:05', '11:10');
    // The week of 29 December 2025 ends in 2026; the week of 22 December is in 2025.
    expect(await yearOnBoard('2025-12-29', paula)).toBe(600 + 3600);
    expect(await yearOnBoard('2025-12-22', paula)).toBe(900);
    // The person's own report counts the same year from the flights themselves.
    const own = await s.api('GET', `/duty/${paula}.json?from=2026-01-01&to=2026-01-20`, {
      token: await t('pilot@skyline.test'),
    });
    expect(own.body.year.flight_seconds).toBe(600 + 3600);
  });

  it('any range read from the month totals equals the sum of the flights in it (boundaries on either side of a month)', async () => {
    const flown = await s.ctx.db
      .selectFrom('duty_flights')
      .select(['offblocks', 'flight_time', 'simulator'])
      .where('company_id', '=', sky)
      .where('user_id', '=', paula)
      .execute();
    const direct = (a: number, b: number) =>
      flown
        .filter((f) => Number(f.offblocks) >= a && Number(f.offblocks) < b && Number(f.simulator) === 0)
        .reduce((x, f) => x + Number(f.flight_time), 0);
    const points = [
      utc('2025-06-01T00:00'),
      utc('2025-06-15T12:00'),
      utc('2025-06-17T00:00'),
      utc('2025-12-31T23:00'),
      utc('2025-12-31T23:36'),
      utc('2026-01-01T05:00'),
      utc('2026-01-15T10:00'),
      utc('2026-01-20T00:00'),
      utc('2027-01-01T00:00'),
    ];
    for (const a of points)
      for (const b of points) {
        if (a >= b) continue;
        const got = (await flightSecondsBy(s.ctx.db, sky, [paula], a, b)).get(paula) ?? 0;
        expect(got, `${a}..${b}`).toBe(direct(a, b));
      }
    expect(direct(utc('2025-12-31T23:00'), utc('2027-01-01T00:00'))).toBe(4200);
  });
});
