import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import {
  createFlight,
  flightRow,
  insertExpiredMel,
  setFlag,
  setPermission,
  tokenCache,
  typeIds,
  utc,
} from './helpers.ts';

const command = (name: string, args: Record<string, unknown>) => ({
  id: uuidv7(),
  name,
  args,
  client_time: Date.now(),
  user_id: null,
  status: 'pending',
  reason: null,
  details: null,
  result: null,
  decided_at: null,
});

describe.each(DIALECTS)('flights offline on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let dualFlight: string;
  let pilotFlight: string;
  /** dual@demo.test has accounts in both companies: sign in to the Skyline one. */
  const dualToken = async () => {
    const r = await s.api('POST', '/login.json', {
      body: { email: 'dual@demo.test', password: 'demo1234', company_id: s.refs.companies.skyline },
    });
    return r.body.token as string;
  };
  const blankDoc = (over: Record<string, unknown>) => ({
    id: uuidv7(),
    date: '2024-07-01',
    status: 'DRAFT',
    callsign: null,
    aircraft_id: s.refs.aircraft['EC-ABC'],
    flight_type_id: types.Solo,
    base_id: null,
    pic_id: s.userId('pilot@skyline.test'),
    sic_id: null,
    supervisor_id: null,
    user_id: null,
    departure_airport: 'LECU',
    landing_airport: 'LELL',
    offblocks_time: '09:00',
    takeoff_time: '09:10',
    landing_time: '10:10',
    onblocks_time: '10:20',
    offblocks: null,
    takeoff: null,
    landing: null,
    onblocks: null,
    starts: 0,
    block_time: 0,
    flight_time: 0,
    night_flight_time: null,
    ifr_flight_time: 0,
    rules: 'VFR',
    crosscountry: true,
    multiengine: false,
    landings: 1,
    night_landings: 0,
    pax: 0,
    route: null,
    remarks: null,
    confirmed_at: null,
    dispatched_at: null,
    modified: 0,
    ...over,
  });

  beforeAll(async () => {
    s = await startTestServer(dialect);
    types = await typeIds(s, await t('admin@skyline.test'));
    const dispatch = await t('dispatch@skyline.test');
    pilotFlight = await createFlight(s, dispatch, {
      date: '2024-06-20',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('pilot@skyline.test'),
      offblocks_time: '10:00',
      onblocks_time: '11:00',
    });
    dualFlight = await createFlight(s, dispatch, {
      date: '2024-06-20',
      aircraft_id: s.refs.aircraft['EC-ABC'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('dual@demo.test'),
      offblocks_time: '10:30',
      onblocks_time: '11:30',
    });
  });
  afterAll(() => s?.close());

  it('the flights collection replicates staff every company flight, others only flights naming them', async () => {
    // A fresh staff device loads the last 12 months only (docs/sync.md, "Bounded devices"): these 2024 flights are
    // older. Read as changes from zero (what a device that held them gets), staff receive every company flight.
    const fresh = await pullAll(s, await t('dispatch@skyline.test'), 'flights');
    expect(fresh.docs).toEqual([]);
    const staff = await pullAll(s, await t('dispatch@skyline.test'), 'flights', { seq: 0, id: '', fp: '' });
    expect(staff.docs.map((d) => d.id).sort()).toEqual([pilotFlight, dualFlight].sort());
    const doc = staff.docs.find((d) => d.id === pilotFlight);
    expect(doc).toMatchObject({
      date: '2024-06-20',
      status: 'DRAFT',
      offblocks_time: '10:00',
      onblocks_time: '11:00',
      offblocks: utc('2024-06-20T10:00:00'),
      block_time: 3600,
      base_id: s.refs.bases['Cuatro Vientos'],
      _deleted: false,
    });
    const pilot = await pullAll(s, await t('pilot@skyline.test'), 'flights');
    expect(pilot.docs.map((d) => d.id)).toEqual([pilotFlight]);
    expect((await pullAll(s, await t('student@skyline.test'), 'flights')).docs).toEqual([]);
    expect((await pullAll(s, await t('admin@harbor.test'), 'flights')).docs).toEqual([]);
    // The same rows as REST lists for that pilot.
    const rest = await s.api('GET', '/flights/load/limit:100.json', { token: await t('pilot@skyline.test') });
    expect(rest.body.flights.map((f: any) => f.Flight.id)).toEqual([pilotFlight]);
  });

  it('a flight logged offline goes through the same service: derived fields come back, history is written', async () => {
    const pilot = await t('pilot@skyline.test');
    const doc = blankDoc({});
    const r = await push(s, pilot, 'flights', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toHaveLength(1);
    const master = r.body.conflicts[0];
    expect(master).toMatchObject({
      id: doc.id,
      user_id: s.userId('pilot@skyline.test'),
      offblocks: utc('2024-07-01T09:00:00'),
      block_time: 80 * 60,
      flight_time: 3600,
      base_id: s.refs.bases['Cuatro Vientos'],
      status: 'DRAFT',
    });
    const row = await flightRow(s, doc.id);
    expect(row.company_id).toBe(s.refs.companies.skyline);
    const history = await s.ctx.db
      .selectFrom('flight_changes')
      .select('action')
      .where('flight_id', '=', doc.id)
      .execute();
    expect(history.map((h) => h.action)).toEqual(['create']);
    // An offline edit of one field: the computed night time stays computed, only remarks change.
    const { _deleted, ...m } = master;
    const edited = await push(s, pilot, 'flights', [
      { assumedMasterState: m, newDocumentState: { ...m, remarks: 'Logged on the apron' } },
    ]);
    expect(edited.status).toBe(200);
    expect((await flightRow(s, doc.id)).remarks).toBe('Logged on the apron');
    const times = await push(s, pilot, 'flights', [
      {
        assumedMasterState: { ...m, remarks: 'Logged on the apron' },
        newDocumentState: { ...m, remarks: 'Logged on the apron', onblocks_time: '10:40' },
      },
    ]);
    expect(times.body.conflicts[0].block_time).toBe(100 * 60);
  });

  it('a push the service refuses changes nothing and leaves an outcome with the reason', async () => {
    const student = await t('student@skyline.test');
    const doc = blankDoc({ pic_id: s.userId('student@skyline.test') });
    const r = await push(s, student, 'flights', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(r.status).toBe(200);
    // The device gets a deletion for the record it created, so it does not keep a flight the server never had.
    expect(r.body.conflicts).toEqual([expect.objectContaining({ id: doc.id, _deleted: true })]);
    expect(await s.ctx.db.selectFrom('flights').select('id').where('id', '=', doc.id).execute()).toEqual([]);
    const outcomes = await pullAll(s, student, 'outcomes');
    expect(outcomes.docs.find((o) => o.document_id === doc.id)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/Flight.create/),
    });
    // Bad data from a device is the same 400 as REST.
    const pilot = await t('pilot@skyline.test');
    const bad = blankDoc({ onblocks_time: '25:99' });
    const badPush = await push(s, pilot, 'flights', [{ assumedMasterState: null, newDocumentState: bad }]);
    expect(badPush.body.conflicts).toEqual([expect.objectContaining({ id: bad.id, _deleted: true })]);
    expect(await s.ctx.db.selectFrom('flights').select('id').where('id', '=', bad.id).execute()).toEqual([]);
    expect((await pullAll(s, pilot, 'outcomes')).docs.find((o) => o.document_id === bad.id).status).toBe('rejected');
    // Deleting from a device is refused: flights are canceled.
    const { docs } = await pullAll(s, pilot, 'flights');
    const mine = docs.find((d) => d.id === pilotFlight);
    const { _deleted, ...m } = mine;
    await push(s, pilot, 'flights', [{ assumedMasterState: m, newDocumentState: { ...m, _deleted: true } }]);
    expect((await flightRow(s, pilotFlight)).status).toBe('DRAFT');
  });

  it('flight types and the company airports are reference documents', async () => {
    const ref = await pullAll(s, await t('pilot@skyline.test'), 'reference');
    const ft = ref.docs.filter((d) => d.type === 'flight_type');
    expect(ft.map((d) => d.name).sort()).toEqual([
      'Checkride',
      'Dual training',
      'Multi-crew',
      'Solo',
      'Supervised solo',
    ]);
    expect(ft.find((d) => d.name === 'Dual training').data).toMatchObject({
      FlightType: { pic_flight_time: 'fi', sic_flight_time: 'dual', booking: true },
      RequiredCertificate: [],
    });
    const airports = ref.docs.filter((d) => d.type === 'airport');
    const codes = [...new Set(airports.map((d) => d.data.Airport.id))].sort();
    expect(codes).toEqual(['LECU', 'LELL']);
    const lecu = airports.find((d) => d.id === 'airport:LECU');
    expect(lecu.data).toMatchObject({
      Airport: { id: 'LECU', lat: expect.any(Number), lon: expect.any(Number) },
      Country: { id: 'ES' },
      Timezone: { id: 'Europe/Madrid' },
    });
    const harbor = await pullAll(s, await t('admin@harbor.test'), 'reference');
    expect(harbor.docs.filter((d) => d.type === 'flight_type')).toEqual([]);
    expect([...new Set(harbor.docs.filter((d) => d.type === 'airport').map((d) => d.data.Airport.id))]).toEqual([
      'KFRG',
    ]);
    // A change to a type's requirements reaches devices at the next pull.
    const admin = await t('admin@skyline.test');
    await s.api('POST', `/flight_types/manager_edit/${types.Solo}.json`, {
      token: admin,
      body: { syncRequiredCertificates: true, RequiredCertificate: [{ role: 'pic', certificate_type: 'SEP' }] },
    });
    const next = await pullAll(s, await t('pilot@skyline.test'), 'reference', ref.checkpoint);
    expect(next.docs.find((d) => d.id === types.Solo).data.RequiredCertificate).toEqual([
      { role: 'pic', certificate_type: 'SEP' },
    ]);
  });

  it('two pilots confirming overlapping flights of one aircraft offline: exactly one LANDED, the other rejected with its conflicts', async () => {
    await setPermission(s, s.refs.companies.skyline, 190, 'Flight.confirm', true);
    try {
      const a = command('flight.confirm', { flight_id: pilotFlight });
      const b = command('flight.confirm', { flight_id: dualFlight });
      const [ra, rb] = await Promise.all([
        push(s, await t('pilot@skyline.test'), 'commands', [{ assumedMasterState: null, newDocumentState: a }]),
        push(s, await dualToken(), 'commands', [{ assumedMasterState: null, newDocumentState: b }]),
      ]);
      const decided = [ra.body.conflicts[0], rb.body.conflicts[0]];
      expect(decided.map((d) => d.status).sort()).toEqual(['accepted', 'rejected']);
      const rejected = decided.find((d) => d.status === 'rejected');
      const winner = rejected.id === a.id ? dualFlight : pilotFlight;
      expect(rejected.reason).toMatch(/overlaps 1 confirmed flight/);
      expect(rejected.details).toMatchObject({
        code: 'FLIGHT_OVERLAP',
        conflicts: [{ id: winner, link: `/flights/view/${winner}.json` }],
      });
      const statuses = await s.ctx.db
        .selectFrom('flights')
        .select(['id', 'status'])
        .where('id', 'in', [pilotFlight, dualFlight])
        .execute();
      expect(statuses.filter((f) => f.status === 'LANDED').map((f) => f.id)).toEqual([winner]);
      // Replaying the rejected command answers the stored decision and runs nothing.
      const replay = await push(
        s,
        rejected.id === a.id ? await t('pilot@skyline.test') : await dualToken(),
        'commands',
        [{ assumedMasterState: null, newDocumentState: rejected.id === a.id ? a : b }],
      );
      expect(replay.body.conflicts[0]).toMatchObject({ id: rejected.id, status: 'rejected' });
    } finally {
      await setPermission(s, s.refs.companies.skyline, 190, 'Flight.confirm', false);
      await s.ctx.db
        .deleteFrom('company_permissions')
        .where('company_id', '=', s.refs.companies.skyline)
        .where('role', '=', 190)
        .execute();
    }
  });

  it('a dispatch decided after an MEL item of the aircraft expired is rejected with the reason', async () => {
    const aircraft = s.refs.aircraft['EC-DEF'];
    const pilot = await t('pilot@skyline.test');
    const id = await createFlight(s, pilot, {
      date: '2024-08-01',
      status: 'SCHEDULED',
      aircraft_id: aircraft,
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('pilot@skyline.test'),
      offblocks_time: '10:00',
      onblocks_time: '11:00',
    });
    // The pilot queued the dispatch offline; meanwhile the item's window ended.
    const cmd = command('flight.dispatch', { flight_id: id });
    await insertExpiredMel(s, s.refs.companies.skyline, aircraft, { ata: '33', category: 'C', title: 'Landing light' });
    const r = await push(s, pilot, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
    expect(r.body.conflicts[0]).toMatchObject({
      id: cmd.id,
      status: 'rejected',
      reason: expect.stringMatching(/33.*category C/),
      details: { code: 'MEL_EXPIRED' },
    });
    expect((await flightRow(s, id)).status).toBe('SCHEDULED');
    const mine = await pullAll(s, pilot, 'commands');
    expect(mine.docs.find((d) => d.id === cmd.id).status).toBe('rejected');
  });

  it('an offline confirm is refused when the company wants a password (it is never stored in a command)', async () => {
    const id = await createFlight(s, await t('dispatch@skyline.test'), {
      date: '2024-08-02',
      aircraft_id: s.refs.aircraft['EC-JET'],
      departure_airport: 'LECU',
      landing_airport: 'LECU',
      pic_id: s.userId('instructor@skyline.test'),
      offblocks_time: '10:00',
      onblocks_time: '11:00',
    });
    await setFlag(s, s.refs.companies.skyline, 'require_flight_password', true);
    try {
      const cmd = command('flight.confirm', { flight_id: id });
      const r = await push(s, await t('dispatch@skyline.test'), 'commands', [
        { assumedMasterState: null, newDocumentState: cmd },
      ]);
      expect(r.body.conflicts[0]).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/password/) });
      expect((await flightRow(s, id)).status).toBe('DRAFT');
    } finally {
      await setFlag(s, s.refs.companies.skyline, 'require_flight_password', false);
    }
    const ok = command('flight.confirm', { flight_id: id });
    const r = await push(s, await t('dispatch@skyline.test'), 'commands', [
      { assumedMasterState: null, newDocumentState: ok },
    ]);
    expect(r.body.conflicts[0]).toMatchObject({ status: 'accepted', result: { flight_id: id, status: 'LANDED' } });
  });
});
