import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { push } from '../../setup/sync.ts';
import { createFlight, flightRow, tokenCache, typeIds } from './helpers.ts';

/**
 * Issue 28 item 1: an open report that grounds the aircraft (`aircraft_status`
 * or `dispatch_condition` GROUNDED, Part B 2.2) refuses dispatch online and
 * offline, naming the report, and refuses bookings with AIRCRAFT_BLOCKED;
 * once the report is closed the aircraft is dispatchable again.
 */
describe.each(DIALECTS)('dispatch of a grounded aircraft on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let jet: string;
  let day = 0;
  const nextDate = () => {
    day += 1;
    // Well after the demo's bookings, inside the flight form's one-year horizon.
    return new Date(Date.now() + (200 + day) * 86400000).toISOString().slice(0, 10);
  };
  const flight = (over: Record<string, unknown> = {}) => ({
    date: nextDate(),
    status: 'SCHEDULED',
    aircraft_id: jet,
    flight_type_id: types.Solo,
    pic_id: s.userId('pilot@skyline.test'),
    departure_airport: 'LECU',
    landing_airport: 'LECU',
    offblocks_time: '10:00',
    onblocks_time: '11:00',
    ...over,
  });
  const dispatch = async (id: string, email = 'pilot@skyline.test') =>
    s.api('POST', `/flights/dispatch/${id}.json`, { token: await t(email) });
  const raise = async (AircraftReport: Record<string, unknown>, email = 'mechanic@skyline.test') => {
    const r = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
      token: await t(email),
      body: { AircraftReport: { aircraft_id: jet, type: 'DEFECT', severity: 'CRITICAL', ...AircraftReport } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as string;
  };
  const close = async (id: string, body: Record<string, unknown>, email = 'mechanic@skyline.test') =>
    s.api('POST', `/maintenance/aircraft_reports/close/${id}.json`, { token: await t(email), body });
  const report = (id: string) =>
    s.ctx.db
      .selectFrom('aircraft_reports')
      .select(['status', 'closed_by', 'description', 'aircraft_status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    jet = s.refs.aircraft['EC-JET'];
  });
  afterAll(() => s?.close());

  it('refuses dispatch naming the report while it is open, and dispatches once it is closed with a rectification', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, flight());
    const grounding = await raise({ title: 'Nose gear shimmy', ata_chapter: '32', aircraft_status: 'GROUNDED' });

    const refused = await dispatch(id);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ id, result: false, code: 'AIRCRAFT_GROUNDED' });
    expect(refused.body.message).toBe(
      'EC-JET cannot be dispatched: Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.',
    );
    expect((await flightRow(s, id)).status).toBe('SCHEDULED');

    // A pilot may not release it (not even through the spec's edit), and the edit needs the rectification.
    const byPilot = await s.api('POST', `/maintenance/aircraft_reports/edit/${grounding}.json`, {
      token: pilot,
      body: { AircraftReport: { status: 'CLOSED', rectification: 'Looked fine' } },
    });
    expect(byPilot.status).toBe(403);
    const bare = await s.api('POST', `/maintenance/aircraft_reports/edit/${grounding}.json`, {
      token: await t('mechanic@skyline.test'),
      body: { AircraftReport: { status: 'CLOSED' } },
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('rectification');
    const unground = await s.api('POST', `/maintenance/aircraft_reports/edit/${grounding}.json`, {
      token: await t('mechanic@skyline.test'),
      body: { AircraftReport: { aircraft_status: 'FLYABLE' } },
    });
    expect(unground.status).toBe(400);
    expect(await report(grounding)).toMatchObject({ status: 'OPEN', aircraft_status: 'GROUNDED' });
    expect((await dispatch(id)).body.result).toBe(false);

    // The app's close: password and rectification, and the answer says what it unblocked.
    const wrong = await close(grounding, { rectification: 'Shimmy damper replaced', password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/Wrong password/);
    const empty = await close(grounding, { rectification: '  ', password: 'demo1234' });
    expect(empty.status).toBe(400);
    expect(await report(grounding)).toMatchObject({ status: 'OPEN' });
    const byPilotClose = await close(grounding, { rectification: 'Done', password: 'demo1234' }, 'pilot@skyline.test');
    expect(byPilotClose.status).toBe(403);

    const ok = await close(grounding, { rectification: 'Shimmy damper replaced', password: 'demo1234' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ result: true, aircraft_id: jet, dispatchable: true, blockReason: null });
    expect(await report(grounding)).toMatchObject({
      status: 'CLOSED',
      closed_by: s.userId('mechanic@skyline.test'),
      description: 'Rectification: Shimmy damper replaced',
    });
    expect((await close(grounding, { rectification: 'Again', password: 'demo1234' })).status).toBe(400);

    const accepted = await dispatch(id);
    expect(accepted.body).toMatchObject({ result: true, status: 'DISPATCHED' });
  });

  it('dispatch_condition GROUNDED blocks too; a closed report leaves the aircraft dispatchable while another still blocks', async () => {
    const id = await createFlight(s, await t('pilot@skyline.test'), flight());
    const a = await raise({ title: 'Oil leak', severity: 'HIGH', dispatch_condition: 'GROUNDED' });
    const b = await raise({ title: 'Cracked windshield', aircraft_status: 'GROUNDED' });
    const refused = await dispatch(id, 'dispatch@skyline.test');
    expect(refused.body.message).toBe(
      'EC-JET cannot be dispatched: Open defect “Oil leak” (HIGH) grounds the aircraft. 1 other open report also blocks it.',
    );
    const first = await close(a, { rectification: 'Seal replaced', password: 'demo1234' });
    expect(first.body).toMatchObject({
      dispatchable: false,
      blockReason: expect.stringContaining('Cracked windshield'),
    });
    expect((await dispatch(id)).body).toMatchObject({ result: false, code: 'AIRCRAFT_GROUNDED' });
    // The spec's edit closes it too, when the rectification is given.
    const edit = await s.api('POST', `/maintenance/aircraft_reports/edit/${b}.json`, {
      token: await t('admin@skyline.test'),
      body: { AircraftReport: { status: 'CLOSED', rectification: 'Windshield replaced' } },
    });
    expect(edit.status).toBe(200);
    expect((await dispatch(id)).body.result).toBe(true);
  });

  it('a dispatch queued offline is re-decided by the server and rejected while the aircraft is grounded', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, flight());
    const cmd = {
      id: uuidv7(),
      name: 'flight.dispatch',
      args: { flight_id: id },
      client_time: Date.now(),
      user_id: null,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    const grounding = await raise({ title: 'Bird strike', aircraft_status: 'GROUNDED' });
    const r = await push(s, pilot, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
    expect(r.body.conflicts[0]).toMatchObject({
      id: cmd.id,
      status: 'rejected',
      reason: expect.stringContaining('“Bird strike”'),
      details: { code: 'AIRCRAFT_GROUNDED' },
    });
    expect((await flightRow(s, id)).status).toBe('SCHEDULED');
    expect((await close(grounding, { rectification: 'Inspected, no damage', password: 'demo1234' })).status).toBe(200);
  });

  it('refuses a booking on a grounded aircraft with AIRCRAFT_BLOCKED naming the report; books once it is closed', async () => {
    const grounding = await raise({ title: 'Flap asymmetry', ata_chapter: '27', aircraft_status: 'GROUNDED' });
    const start = Math.floor(Date.now() / 1000 / 86400) * 86400 + 40 * 86400 + 10 * 3600;
    const Schedule = {
      aircraft_id: jet,
      pilot_id: s.userId('pilot@skyline.test'),
      flight_type_id: types.Solo,
      start,
      end: start + 3600,
    };
    const book = async () =>
      s.api('POST', '/schedules/edit.json', { token: await t('dispatch@skyline.test'), body: { Schedule } });
    const count = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('schedules')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const refused = await book();
    expect(refused.body).toMatchObject({ result: false, code: 'AIRCRAFT_BLOCKED' });
    expect(refused.body.message).toBe(
      'EC-JET cannot be booked: Open defect “Flap asymmetry” (ATA 27, CRITICAL) grounds the aircraft.',
    );
    expect(await count()).toBe(before);
    expect((await close(grounding, { rectification: 'Flap rigging adjusted', password: 'demo1234' })).status).toBe(200);
    const booked = await book();
    expect(booked.body.result, JSON.stringify(booked.body)).toBe(true);
  });

  it('another company’s report is 404 to the close, a free plan is refused, bad input is a 400', async () => {
    const grounding = await raise({ title: 'Strobe inop', aircraft_status: 'GROUNDED' });
    const harbor = s.refs.companies.harbor;
    const { plan } = await s.ctx.db
      .selectFrom('companies')
      .select('plan')
      .where('id', '=', harbor)
      .executeTakeFirstOrThrow();
    await s.ctx.db.updateTable('companies').set({ plan: 'premium' }).where('id', '=', harbor).execute();
    try {
      const other = await close(grounding, { rectification: 'x fixed', password: 'demo1234' }, 'admin@harbor.test');
      expect(other.status).toBe(404);
    } finally {
      await s.ctx.db.updateTable('companies').set({ plan }).where('id', '=', harbor).execute();
    }
    const free = await close(grounding, { rectification: 'x fixed', password: 'demo1234' }, 'admin@harbor.test');
    expect(free.status).toBe(403);
    const missing = await close(grounding, { password: 'demo1234' });
    expect(missing.status).toBe(400);
    expect((await close(uuidv7(), { rectification: 'fixed', password: 'demo1234' })).status).toBe(404);
    expect(await report(grounding)).toMatchObject({ status: 'OPEN' });
  });
});
