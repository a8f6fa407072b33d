import { getAirport } from '@ops/shared/airports';
import { nightSeconds } from '@ops/shared/rules/airports/night-time';
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { changesOf, createFlight, flightRow, saveFlight, tokenCache, typeIds, utc } from './helpers.ts';

describe.each(DIALECTS)('POST /flights/edit.json on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let base: Record<string, unknown>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    base = {
      date: '2024-06-10',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types.Solo,
      pic_id: s.userId('pilot@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LELL',
      offblocks_time: '08:00',
      takeoff_time: '08:10',
      landing_time: '09:15',
      onblocks_time: '09:25',
      landings: 1,
    };
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await s.api('POST', '/flights/edit.json', { body: { Flight: base } })).status).toBe(401);
  });

  it('creates a DRAFT with block, flight and night times computed; a Skyline flight is in UTC', async () => {
    const pilot = await t('pilot@skyline.test');
    const r = await saveFlight(s, pilot, base);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: true, id: expect.any(String) });
    const row = await flightRow(s, r.body.id);
    expect(row).toMatchObject({
      company_id: s.refs.companies.skyline,
      status: 'DRAFT',
      offblocks: utc('2024-06-10T08:00:00'),
      takeoff: utc('2024-06-10T08:10:00'),
      landing: utc('2024-06-10T09:15:00'),
      onblocks: utc('2024-06-10T09:25:00'),
      starts: utc('2024-06-10T08:00:00'),
      block_time: 85 * 60,
      flight_time: 65 * 60,
      night_flight_time: 0,
      user_id: s.userId('pilot@skyline.test'),
      base_id: s.refs.bases['Cuatro Vientos'],
      multiengine: 0,
      crosscountry: 1,
      landings: 1,
    });
    expect(row.change_no).toBeGreaterThan(0);
    const history = await changesOf(s, r.body.id);
    expect(history.map((h) => h.action)).toEqual(['create']);
    expect(history[0].user_id).toBe(s.userId('pilot@skyline.test'));
  });

  it('a Harbor flight is in America/New_York (no flight zone: the company zone), read back as wall clock', async () => {
    const admin = await t('admin@harbor.test');
    const id = await createFlight(s, admin, {
      date: '2024-06-10',
      aircraft_id: s.refs.aircraft.N123HA,
      pic_id: s.userId('pilot@harbor.test', 'harbor'),
      departure_airport: 'KFRG',
      landing_airport: 'KFRG',
      offblocks_time: '08:00',
      onblocks_time: '09:00',
    });
    const row = await flightRow(s, id);
    expect(row.offblocks).toBe(utc('2024-06-10T12:00:00')); // EDT is UTC-4
    expect(row.onblocks).toBe(utc('2024-06-10T13:00:00'));
    expect(row.base_id).toBe(s.refs.bases.Republic);
    const view = await s.api('GET', `/flights/view/${id}.json`, { token: admin });
    expect(view.body.flight.Flight).toMatchObject({
      date: '2024-06-10',
      offblocks_time: '08:00',
      onblocks_time: '09:00',
      block_time: 3600,
    });
    // Winter: EST is UTC-5.
    const winter = await createFlight(s, admin, {
      date: '2024-01-15',
      aircraft_id: s.refs.aircraft.N123HA,
      departure_airport: 'KFRG',
      landing_airport: 'KFRG',
      pic_id: s.userId('pilot@harbor.test', 'harbor'),
      offblocks_time: '08:00',
      onblocks_time: '09:00',
    });
    expect((await flightRow(s, winter)).offblocks).toBe(utc('2024-01-15T13:00:00'));
  });

  it('a flight across midnight: a time earlier than the previous one is on the next day', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, {
      ...base,
      date: '2024-06-10',
      offblocks_time: '23:30',
      takeoff_time: '23:45',
      landing_time: '00:40',
      onblocks_time: '00:50',
    });
    const row = await flightRow(s, id);
    expect(row.offblocks).toBe(utc('2024-06-10T23:30:00'));
    expect(row.takeoff).toBe(utc('2024-06-10T23:45:00'));
    expect(row.landing).toBe(utc('2024-06-11T00:40:00'));
    expect(row.onblocks).toBe(utc('2024-06-11T00:50:00'));
    expect([row.block_time, row.flight_time, row.date]).toEqual([80 * 60, 55 * 60, '2024-06-10']);
    const view = await s.api('GET', `/flights/view/${id}.json`, { token: pilot });
    expect(view.body.flight.Flight).toMatchObject({ offblocks_time: '23:30', onblocks_time: '00:50' });
  });

  it('night time across sunset is computed from the airports, and a given value wins', async () => {
    const pilot = await t('pilot@skyline.test');
    // Madrid in June: sunset about 19:45 UTC. Airborne 19:10 to 20:40 UTC, Cuatro Vientos to Sabadell.
    const id = await createFlight(s, pilot, {
      ...base,
      offblocks_time: '19:00',
      takeoff_time: '19:10',
      landing_time: '20:40',
      onblocks_time: '20:50',
    });
    const row = await flightRow(s, id);
    const expected = nightSeconds({
      dep: getAirport('LECU')!,
      arr: getAirport('LELL')!,
      departure: utc('2024-06-10T19:10:00'),
      arrival: utc('2024-06-10T20:40:00'),
    });
    expect(row.night_flight_time).toBe(expected);
    expect(row.night_flight_time).toBeGreaterThan(20 * 60);
    expect(row.night_flight_time).toBeLessThan(row.flight_time);
    const online = await s.api(
      'GET',
      `/airports/night_time/LECU/LELL/${utc('2024-06-10T19:10:00')}/${utc('2024-06-10T20:40:00')}.json`,
      { token: pilot },
    );
    expect(online.body.seconds).toBe(row.night_flight_time);
    const given = await createFlight(s, pilot, {
      ...base,
      offblocks_time: '19:00',
      takeoff_time: '19:10',
      landing_time: '20:40',
      onblocks_time: '20:50',
      night_flight_time: 600,
    });
    expect((await flightRow(s, given)).night_flight_time).toBe(600);
    // Changing the times recomputes it unless a value is given again.
    await saveFlight(s, pilot, {
      id: given,
      takeoff_time: '08:10',
      landing_time: '09:15',
      offblocks_time: '08:00',
      onblocks_time: '09:25',
    });
    expect((await flightRow(s, given)).night_flight_time).toBe(0);
  });

  it('creates SCHEDULED when asked; edits keep absent fields and write a history row with the field changes', async () => {
    const dispatch = await t('dispatch@skyline.test');
    const id = await createFlight(s, dispatch, { ...base, status: 'SCHEDULED', callsign: 'SKY12' });
    expect((await flightRow(s, id)).status).toBe('SCHEDULED');
    const r = await saveFlight(s, dispatch, { id, onblocks_time: '09:45', remarks: 'Long taxi' });
    expect(r.body).toEqual({ result: true, id });
    const row = await flightRow(s, id);
    expect([row.callsign, row.block_time, row.remarks, row.takeoff]).toEqual([
      'SKY12',
      105 * 60,
      'Long taxi',
      utc('2024-06-10T08:10:00'),
    ]);
    const history = await changesOf(s, id);
    expect(history.map((h) => h.action)).toEqual(['create', 'edit']);
    const fields = JSON.parse(history[1].fields!);
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'onblocks', from: utc('2024-06-10T09:25:00'), to: utc('2024-06-10T09:45:00') },
        { field: 'block_time', from: 85 * 60, to: 105 * 60 },
        { field: 'remarks', from: null, to: 'Long taxi' },
      ]),
    );
    expect(fields).toHaveLength(3);
    // Saving the same values again changes nothing and writes no history.
    const before = row.change_no;
    await saveFlight(s, dispatch, { id, remarks: 'Long taxi' });
    expect((await flightRow(s, id)).change_no).toBe(before);
    expect(await changesOf(s, id)).toHaveLength(2);
  });

  it('accepts the form-encoded data[Flight][...] body', async () => {
    const r = await s.api('POST', '/flights/edit.json', {
      token: await t('pilot@skyline.test'),
      form: {
        'data[Flight][date]': '2024-06-12',
        'data[Flight][aircraft_id]': s.refs.aircraft['EC-DEF'],
        'data[Flight][pic_id]': s.userId('pilot@skyline.test'),
        'data[Flight][offblocks_time]': '10:00',
        'data[Flight][onblocks_time]': '11:30',
        'data[Flight][sic_id]': '',
        'data[Flight][departure_airport]': 'LECU',
        'data[Flight][landing_airport]': 'LECU',
        'data[Flight][landings]': '2',
      },
    });
    expect(r.status).toBe(200);
    const row = await flightRow(s, r.body.id);
    expect([row.block_time, row.multiengine, row.sic_id, row.landings]).toEqual([5400, 1, null, 2]);
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const pilot = await t('pilot@skyline.test');
    const count = async () =>
      (await s.ctx.db.selectFrom('flights').select('id').where('company_id', '=', s.refs.companies.skyline).execute())
        .length;
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, date: '2024-02-30' }, 'Flight.date'],
      [{ ...base, date: undefined }, 'Flight.date'],
      [{ ...base, offblocks_time: '25:00' }, 'Flight.offblocks_time'],
      [{ ...base, onblocks_time: null }, 'Flight.onblocks_time'],
      [{ ...base, landing_time: null }, 'Flight.landing_time'],
      [{ ...base, aircraft_id: s.refs.aircraft.N123HA }, 'Flight.aircraft_id'],
      [{ ...base, pic_id: s.userId('pilot@harbor.test', 'harbor') }, 'Flight.pic_id'],
      [{ ...base, sic_id: s.userId('pilot@skyline.test') }, 'Flight.sic_id'],
      [{ ...base, flight_type_id: uuidv7() }, 'Flight.flight_type_id'],
      [{ ...base, departure_airport: 'ZZZZ' }, 'Flight.departure_airport'],
      [{ ...base, landings: -1 }, 'Flight.landings'],
      [{ ...base, status: 'LANDED' }, 'Flight.status'],
      [{ ...base, night_flight_time: 99999 }, 'Flight.night_flight_time'],
    ];
    for (const [Flight, field] of cases) {
      const r = await saveFlight(s, pilot, Flight);
      expect(r.status, field).toBe(400);
      expect(r.body.result).toBe(false);
      expect(Object.keys(r.body.errors), field).toContain(field);
    }
    expect(await count()).toBe(before);
  });

  it('permissions: Flight.create to create (a student may not); pilots log only flights they crew', async () => {
    const student = await t('student@skyline.test');
    const denied = await saveFlight(s, student, { ...base, pic_id: s.userId('student@skyline.test') });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/Flight.create/);
    const pilot = await t('pilot@skyline.test');
    const other = await saveFlight(s, pilot, { ...base, pic_id: s.userId('instructor@skyline.test') });
    expect(other.status).toBe(403);
    // Supervisor is crew too.
    const sup = await saveFlight(s, pilot, {
      ...base,
      pic_id: s.userId('student@skyline.test'),
      supervisor_id: s.userId('pilot@skyline.test'),
      flight_type_id: types['Supervised solo'],
    });
    expect(sup.status).toBe(200);
    // Staff log anyone's flight.
    const instr = await saveFlight(s, await t('instructor@skyline.test'), {
      ...base,
      pic_id: s.userId('instructor@skyline.test'),
      sic_id: s.userId('student@skyline.test'),
      flight_type_id: types['Dual training'],
    });
    expect(instr.status).toBe(200);
    const mech = await saveFlight(s, await t('mechanic@skyline.test'), {
      ...base,
      pic_id: s.userId('mechanic@skyline.test'),
    });
    expect(mech.status).toBe(403);
  });

  it('edits: crew with Flight.create may edit an open flight; others 403; another company 404; nothing changes', async () => {
    const instructor = await t('instructor@skyline.test');
    const id = await createFlight(s, instructor, {
      ...base,
      pic_id: s.userId('instructor@skyline.test'),
      sic_id: s.userId('student@skyline.test'),
      flight_type_id: types['Dual training'],
    });
    const before = await flightRow(s, id);
    expect((await saveFlight(s, await t('student@skyline.test'), { id, remarks: 'x' })).status).toBe(403); // crew, but no Flight.create
    expect((await saveFlight(s, await t('pilot@skyline.test'), { id, remarks: 'x' })).status).toBe(403); // not involved
    expect((await saveFlight(s, await t('admin@harbor.test'), { id, remarks: 'x' })).status).toBe(404);
    expect((await saveFlight(s, instructor, { id: uuidv7(), remarks: 'x' })).status).toBe(404);
    expect(await flightRow(s, id)).toEqual(before);
    expect((await saveFlight(s, await t('dispatch@skyline.test'), { id, remarks: 'ok' })).status).toBe(200);
  });

  it('a LANDED flight changes only with Flight.edit; a pilot gets 403', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, { ...base, date: '2024-05-01' });
    expect(
      (await s.api('POST', `/flights/confirm/${id}.json`, { token: await t('dispatch@skyline.test') })).status,
    ).toBe(200);
    const denied = await saveFlight(s, pilot, { id, remarks: 'late note' });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/Flight.edit/);
    expect((await flightRow(s, id)).remarks).toBeNull();
    const ok = await saveFlight(s, await t('ops@skyline.test'), { id, remarks: 'late note' });
    expect(ok.status).toBe(200);
    expect((await flightRow(s, id)).status).toBe('LANDED');
    // A confirmed flight keeps its invariants.
    const bad = await saveFlight(s, await t('ops@skyline.test'), { id, aircraft_id: null });
    expect(bad.status).toBe(400);
    expect((await flightRow(s, id)).aircraft_id).toBe(s.refs.aircraft['EC-ABC']);
  });
});
