import { recordChange, recordNote } from '@ops/server/areas/flights/history.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { recountDuty } from '../duty/recount.ts';
import { changesOf, createFlight, tokenCache, typeIds } from './helpers.ts';

/**
 * The flight history's two writes: a change re-settles what follows from the
 * flight (billing, duty totals), a note (readiness warnings) only adds its row.
 * The witness is the duty running total of a LANDED flight whose flight time
 * is changed behind the server's back: only a re-settle brings the total to it.
 */
describe.each(DIALECTS)('Flight history writes on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let sky: string;
  let flightId: string;
  let admin: string;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    sky = s.refs.companies.skyline;
    admin = s.userId('admin@skyline.test');
    const token = await t('admin@skyline.test');
    const types = await typeIds(s, token);
    flightId = await createFlight(s, token, {
      date: '2025-03-04',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types['Dual training'],
      pic_id: s.userId('pilot@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      offblocks_time: '09:00',
      takeoff_time: '09:10',
      landing_time: '10:10',
      onblocks_time: '10:20',
      landings: 1,
    });
    const r = await s.api('POST', `/flights/confirm/${flightId}.json`, { token, body: {} });
    expect(r.body.result, JSON.stringify(r.body)).toBe(true);
  });
  afterAll(async () => {
    if (s) expect(await recountDuty(s)).toEqual([]);
    await s?.close();
  });

  const counted = async () =>
    (await s.ctx.db.selectFrom('duty_flights').select('flight_time').where('flight_id', '=', flightId).execute()).map(
      (r) => Number(r.flight_time),
    );
  /** The flight's time changed without passing through the history (what a settle would have to follow). */
  const changeBehindTheBack = () =>
    s.ctx.db
      .updateTable('flights')
      .set({ flight_time: 4000 })
      .where('company_id', '=', sky)
      .where('id', '=', flightId)
      .execute();

  it('a note adds one history row and re-settles nothing', async () => {
    expect(await counted()).toEqual([3600]);
    await changeBehindTheBack();
    const before = (await changesOf(s, flightId)).length;
    await s.ctx.tx((uow) =>
      recordNote(uow, { companyId: sky, flightId, userId: admin, comments: 'Readiness warnings: MEL: open item' }),
    );
    const rows = await changesOf(s, flightId);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'edit', fields: null, comments: 'Readiness warnings: MEL: open item' });
    expect(await counted()).toEqual([3600]);
  });

  it('a change still re-settles the flight', async () => {
    expect(await counted()).toEqual([3600]);
    await s.ctx.tx((uow) => recordChange(uow, { companyId: sky, flightId, userId: admin, action: 'edit' }));
    expect(await counted()).toEqual([4000]);
  });
});
