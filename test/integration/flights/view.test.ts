import { getAirport } from '@ops/shared/airports';
import { greatCircleDistanceNm } from '@ops/shared/rules/airports/night-time';
import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { createFlight, tokenCache, typeIds } from './helpers.ts';

describe.each(DIALECTS)('GET /flights/view on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let dual: string;
  const view = async (id: string, email: string) => s.api('GET', `/flights/view/${id}.json`, { token: await t(email) });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    dual = await createFlight(s, await t('instructor@skyline.test'), {
      date: '2024-06-10',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types['Dual training'],
      pic_id: s.userId('instructor@skyline.test'),
      sic_id: s.userId('student@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LELL',
      offblocks_time: '08:00',
      takeoff_time: '08:10',
      landing_time: '09:20',
      onblocks_time: '09:30',
      landings: 2,
      callsign: 'SKY1',
    });
  });
  afterAll(() => s?.close());

  it('needs credentials', async () => {
    expect((await s.api('GET', `/flights/view/${dual}.json`)).status).toBe(401);
  });

  it('shows the flight with related records, airports, distance, history, flags and change names', async () => {
    const r = await view(dual, 'dispatch@skyline.test');
    expect(r.status).toBe(200);
    const f = r.body.flight;
    expect(f.Flight).toMatchObject({
      id: dual,
      callsign: 'SKY1',
      status: 'DRAFT',
      offblocks_time: '08:00',
      takeoff_time: '08:10',
      landing_time: '09:20',
      onblocks_time: '09:30',
      block_time: 5400,
      flight_time: 4200,
      landings: 2,
    });
    expect(f.Base).toMatchObject({ id: s.refs.bases['Cuatro Vientos'], name: 'Cuatro Vientos' });
    expect(f.Aircraft).toMatchObject({ registration: 'EC-ABC', AircraftModel: { name: 'Cessna 172S' } });
    expect(f.FlightType).toMatchObject({ name: 'Dual training', pic_flight_time: 'fi', sic_flight_time: 'dual' });
    expect(f.Pic).toMatchObject({
      id: s.userId('instructor@skyline.test'),
      user_group_id: 150,
      active: true,
      pilot: true,
      deleted: false,
      UserGroup: { role: 150, name: 'Flight instructor' },
      UserDetail: { name: 'Ivan', surname: 'Instructor' },
    });
    expect(f.Sic).toMatchObject({
      id: s.userId('student@skyline.test'),
      UserGroup: { role: 200, name: 'Student pilot' },
    });
    expect(f.Supervisor).toBeNull();
    const lecu = getAirport('LECU')!;
    const lell = getAirport('LELL')!;
    expect(f.DepartureAirport).toEqual({ id: 'LECU', name: lecu.name, lat: lecu.lat, lon: lecu.lon });
    expect(f.LandingAirport).toMatchObject({ id: 'LELL', name: lell.name });
    expect(r.body.distance).toBeCloseTo(greatCircleDistanceNm(lecu, lell), 0);
    expect(r.body.distance).toBeGreaterThan(250);
    expect(f.FlightChange).toHaveLength(1);
    expect(f.FlightChange[0]).toMatchObject({
      flight_id: dual,
      action: 'create',
      user_id: s.userId('instructor@skyline.test'),
      User: { UserDetail: { name: 'Ivan', surname: 'Instructor' } },
    });
    expect(f.Upload).toEqual([]);
    expect(f.SafetyReport).toEqual([]);
    expect(r.body).toMatchObject({ canConfirm: true, canEdit: true, canCreate: true, canDelete: true });
    expect(Object.keys(r.body.changeNames)).toEqual(
      expect.arrayContaining(['create', 'edit', 'confirm', 'dispatch', 'cancel']),
    );
    expect(r.body.changeNames.cancel).toEqual({
      icon: expect.any(String),
      name: 'Canceled',
      class: expect.any(String),
    });
  });

  it('the can* flags follow the caller: a student in the flight may look but not edit or confirm', async () => {
    const r = await view(dual, 'student@skyline.test');
    expect(r.status).toBe(200);
    // A lesson under an instructor PIC is not the student's to cancel or delete (issue 28 item 8).
    expect(r.body).toMatchObject({ canConfirm: false, canEdit: false, canCreate: false, canDelete: false });
  });

  it('roles above 170 see only flights they are involved in (403); the aircraft owner may look', async () => {
    const r = await view(dual, 'pilot@skyline.test');
    expect(r.status).toBe(403);
    expect(r.body.result).toBe(false);
    expect((await view(dual, 'mechanic@skyline.test')).status).toBe(403);
    await s.ctx.db
      .updateTable('aircraft')
      .set({ user_id: s.userId('pilot@skyline.test') })
      .where('id', '=', s.refs.aircraft['EC-ABC'])
      .execute();
    try {
      expect((await view(dual, 'pilot@skyline.test')).status).toBe(200);
    } finally {
      await s.ctx.db
        .updateTable('aircraft')
        .set({ user_id: null })
        .where('id', '=', s.refs.aircraft['EC-ABC'])
        .execute();
    }
  });

  it('another company gets 404, as does an unknown id', async () => {
    expect((await view(dual, 'admin@harbor.test')).status).toBe(404);
    expect((await view(uuidv7(), 'admin@skyline.test')).status).toBe(404);
  });
});
