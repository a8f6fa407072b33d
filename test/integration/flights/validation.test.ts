import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { createFlight, flightRow, saveFlight, tokenCache, typeIds } from './helpers.ts';

/** Issue 28 item 5: the flight form's junk is refused by the server with the shared rule's sentences. */
describe.each(DIALECTS)('flight validation on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let base: Record<string, unknown>;
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('flights')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', s.refs.companies.skyline)
          .executeTakeFirstOrThrow()
      ).n,
    );
  beforeAll(async () => {
    s = await startTestServer(dialect);
    const types = await typeIds(s, await t('admin@skyline.test'));
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

  it('an empty save is a 400 naming date, aircraft, airports and block times, and creates nothing', async () => {
    const pilot = await t('pilot@skyline.test');
    const before = await count();
    const r = await saveFlight(s, pilot, { pic_id: s.userId('pilot@skyline.test') });
    expect(r.status).toBe(400);
    expect(r.body.result).toBe(false);
    expect(r.body.message).toMatch(/^The flight was not saved\. Pick the date of the flight\. Choose the aircraft\./);
    expect(r.body.errors).toMatchObject({
      'Flight.date': ['Pick the date of the flight.'],
      'Flight.aircraft_id': ['Choose the aircraft.'],
      'Flight.departure_airport': ['Give the departure airport (ICAO code such as LECU).'],
      'Flight.landing_airport': ['Give the landing airport (ICAO code such as LECU).'],
      'Flight.offblocks_time': ['Give the off-blocks time (HH:MM).'],
      'Flight.onblocks_time': ['Give the on-blocks time (HH:MM).'],
    });
    // Form posts send '' for the fields left empty: the same answer.
    const blanks = await saveFlight(s, pilot, {
      date: '2024-06-10',
      aircraft_id: '',
      departure_airport: '',
      landing_airport: '',
      offblocks_time: '',
      onblocks_time: '',
    });
    expect(blanks.status).toBe(400);
    expect(Object.keys(blanks.body.errors).sort()).toEqual(
      [
        'Flight.aircraft_id',
        'Flight.departure_airport',
        'Flight.landing_airport',
        'Flight.offblocks_time',
        'Flight.onblocks_time',
      ].sort(),
    );
    expect(await count()).toBe(before);
  });

  it('dates before 1950 or more than 366 days ahead, and 999 landings, are refused with the field named', async () => {
    const pilot = await t('pilot@skyline.test');
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ date: '1900-01-01' }, 'Flight.date', /before 1 January 1950/],
      [{ date: '2999-12-31' }, 'Flight.date', /more than 366 days ahead/],
      [{ landings: 999 }, 'Flight.landings', /At most 99 landings/],
      [{ landings: 3, night_landings: 4 }, 'Flight.night_landings', /more than the landings/],
      [{ onblocks_time: '08:00', takeoff_time: null, landing_time: null }, 'Flight.onblocks_time', /later than/],
      [{ departure_airport: 'MADRID' }, 'Flight.departure_airport', /ICAO/],
    ];
    for (const [over, field, message] of cases) {
      const r = await saveFlight(s, pilot, { ...base, ...over });
      expect(r.status, field).toBe(400);
      expect(r.body.errors[field]?.join(' '), field).toMatch(message);
    }
    expect(await count()).toBe(before);
    // The bounds themselves are fine.
    const edge = await createFlight(s, pilot, { ...base, date: '1950-01-01', landings: 99 });
    expect((await flightRow(s, edge)).landings).toBe(99);
  });

  it('a callsign over 20 or remarks over 2,000 characters are a 400 naming the field, never cut', async () => {
    const pilot = await t('pilot@skyline.test');
    const before = await count();
    const long = await saveFlight(s, pilot, { ...base, callsign: 'C'.repeat(21), remarks: 'r'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body.errors['Flight.callsign']).toEqual(['A callsign has at most 20 characters; this text has 21.']);
    expect(long.body.errors['Flight.remarks']).toEqual(['Remarks have at most 2000 characters; this text has 2001.']);
    expect(await count()).toBe(before);
    const id = await createFlight(s, pilot, { ...base, callsign: 'C'.repeat(20), remarks: 'r'.repeat(2000) });
    const row = await flightRow(s, id);
    expect([row.callsign?.length, row.remarks?.length]).toEqual([20, 2000]);
  });

  it('an edit is checked on the flight as it would be stored: clearing the aircraft is refused, nothing changes', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, base);
    const before = await flightRow(s, id);
    const r = await saveFlight(s, pilot, { id, aircraft_id: null, remarks: 'changed' });
    expect(r.status).toBe(400);
    expect(r.body.errors['Flight.aircraft_id']).toEqual(['Choose the aircraft.']);
    expect(await flightRow(s, id)).toEqual(before);
    // An edit that leaves the flight complete is fine.
    expect((await saveFlight(s, pilot, { id, remarks: 'changed' })).status).toBe(200);
  });

  it('a device pushing an incomplete flight gets the same refusal as an outcome, and nothing is stored', async () => {
    const pilot = await t('pilot@skyline.test');
    const doc = {
      id: uuidv7(),
      date: '2024-07-01',
      status: 'DRAFT',
      callsign: null,
      aircraft_id: null,
      flight_type_id: null,
      base_id: null,
      pic_id: s.userId('pilot@skyline.test'),
      sic_id: null,
      supervisor_id: null,
      user_id: s.userId('pilot@skyline.test'),
      departure_airport: null,
      landing_airport: null,
      offblocks_time: null,
      takeoff_time: null,
      landing_time: null,
      onblocks_time: null,
      offblocks: null,
      takeoff: null,
      landing: null,
      onblocks: null,
      starts: 0,
      block_time: 0,
      flight_time: 0,
      night_flight_time: null,
      ifr_flight_time: 0,
      rules: null,
      crosscountry: false,
      multiengine: false,
      landings: 0,
      night_landings: 0,
      pax: 0,
      route: null,
      remarks: null,
      confirmed_at: null,
      dispatched_at: null,
      modified: 0,
    };
    const r = await push(s, pilot, 'flights', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
    expect(await s.ctx.db.selectFrom('flights').select('id').where('id', '=', doc.id).execute()).toEqual([]);
    const outcome = (await pullAll(s, pilot, 'outcomes')).docs.find((o) => o.document_id === doc.id);
    expect(outcome.status).toBe('rejected');
    expect(outcome.reason).toMatch(/^The flight was not saved\. .*Choose the aircraft\./);
  });

  it('another company’s flight stays 404 whatever the body', async () => {
    const id = await createFlight(s, await t('pilot@skyline.test'), base);
    const r = await saveFlight(s, await t('admin@harbor.test'), { id, callsign: 'C'.repeat(30) });
    expect([400, 404]).toContain(r.status);
    const empty = await saveFlight(s, await t('admin@harbor.test'), { id });
    expect(empty.status).toBe(404);
  });
});
