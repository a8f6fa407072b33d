import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addFlight, addUser, DAY, now, tokens } from './people-helpers.ts';

/**
 * Part A 4.8 item 6 through GET /pilots/totals: one flight per classification
 * of the Part B 2.6 table, each credited to a pilot of its own, so every line
 * of the response is checked class by class against the table.
 */
const ZERO = {
  PIC: 0,
  FI: 0,
  SIC: 0,
  DUAL: 0,
  PICUS: 0,
  CRI: 0,
  IRI: 0,
  FIFI: 0,
  SFI: 0,
  TRI: 0,
  EXA: 0,
  SUPERVISOR: 0,
};
const B = 1000;
/** Part B 2.6, "Logbook rollup" column, for a seat on a single-pilot aircraft. */
const TABLE: Array<[string, Partial<typeof ZERO>, number]> = [
  ['pic', { PIC: B }, B],
  ['picus', { PIC: B, PICUS: B }, B],
  ['sic', {}, 0],
  ['fi', { PIC: B, FI: B }, B],
  ['dual', { DUAL: B }, B],
  ['cri', { PIC: B, FI: B, CRI: B }, B],
  ['iri', { PIC: B, FI: B, IRI: B }, B],
  ['fifi', { PIC: B, FI: B, FIFI: B }, B],
  ['sfi', { PIC: B, FI: B, SFI: B }, B],
  ['tri', { PIC: B, FI: B, TRI: B }, B],
  ['exa', { PIC: B, FI: B, EXA: B }, B],
  ['sup', { SUPERVISOR: B }, 0],
  ['none', {}, 0],
];

describe.each(DIALECTS)('Pilot totals class by class on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  const typeIds: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
  });
  afterAll(() => s?.close());

  /** A flight type with the given seat classes, written through the data layer (the flight types admin is another area). */
  async function flightType(name: string, pic: string, sic = 'none', sup = 'none'): Promise<string> {
    if (typeIds[name]) return typeIds[name];
    const id = uuidv7();
    const t = now();
    await (s.ctx.db as any)
      .insertInto('flight_types')
      .values({
        id,
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: t,
        modified: t,
        name,
        color: '#000000',
        booking: 0,
        pic_flight_time: pic,
        sic_flight_time: sic,
        supervisor_flight_time: sup,
        sort_order: 99,
      })
      .execute();
    typeIds[name] = id;
    return id;
  }
  const totals = async (userId: string) => {
    const r = await s.api('GET', `/pilots/totals/${userId}.json`, { token: await tok('admin@skyline.test') });
    expect(r.status).toBe(200);
    return r.body;
  };
  const fn = (body: any) =>
    Object.fromEntries(Object.entries(body.functions).map(([k, v]: [string, any]) => [k, v.time]));

  it.each(TABLE)('class %s credits exactly its lines of the Part B 2.6 table', async (cls, lines, total) => {
    const pilot = await addUser(s, { name: 'Class', surname: cls });
    // `sup` belongs to the supervisor seat; every other class is tried in the PIC seat.
    const type =
      cls === 'sup' ? await flightType('Class sup', 'pic', 'none', 'sup') : await flightType(`Class ${cls}`, cls);
    await addFlight(s, {
      pic: cls === 'sup' ? s.userId('instructor@skyline.test') : pilot,
      supervisor: cls === 'sup' ? pilot : null,
      type,
      aircraft: s.refs.aircraft['EC-ABC'],
      block: B,
      onblocks: now() - DAY,
    });
    const body = await totals(pilot);
    expect(fn(body)).toEqual({ ...ZERO, ...lines });
    expect(body.total_time).toBe(total);
    expect(body.flight_types).toEqual(total ? { [`Class ${cls}`]: B } : {});
  });

  it('sic credits SIC only on a multipilot aircraft', async () => {
    const pilot = await addUser(s, { name: 'Second', surname: 'Officer' });
    const type = await flightType('Line SIC', 'pic', 'sic');
    await addFlight(s, {
      pic: s.userId('instructor@skyline.test'),
      sic: pilot,
      type,
      aircraft: s.refs.aircraft['EC-JET'],
      block: 2 * B,
      onblocks: now() - DAY,
    });
    await addFlight(s, {
      pic: s.userId('instructor@skyline.test'),
      sic: pilot,
      type,
      aircraft: s.refs.aircraft['EC-ABC'],
      block: B,
      onblocks: now() - 2 * DAY,
    });
    const body = await totals(pilot);
    expect(fn(body)).toEqual({ ...ZERO, SIC: 2 * B });
    expect(body.total_time).toBe(2 * B);
  });

  it('each seat class is credited to its own seat: pic_flight_time to pic_id, sic to sic_id, supervisor to supervisor_id', async () => {
    const [a, b, c] = [
      await addUser(s, { name: 'Seat', surname: 'Pic' }),
      await addUser(s, { name: 'Seat', surname: 'Sic' }),
      await addUser(s, { name: 'Seat', surname: 'Sup' }),
    ];
    const type = await flightType('Three Seats', 'fi', 'dual', 'exa');
    await addFlight(s, {
      pic: a,
      sic: b,
      supervisor: c,
      type,
      aircraft: s.refs.aircraft['EC-ABC'],
      block: B,
      onblocks: now() - DAY,
    });
    expect(fn(await totals(a))).toEqual({ ...ZERO, PIC: B, FI: B });
    expect(fn(await totals(b))).toEqual({ ...ZERO, DUAL: B });
    expect(fn(await totals(c))).toEqual({ ...ZERO, PIC: B, FI: B, EXA: B });
  });

  it('a simulator flight is in total_time but not in flight_time; only LANDED flights count', async () => {
    const pilot = await addUser(s, { name: 'Sim', surname: 'Only' });
    const type = await flightType('Class pic', 'pic');
    await addFlight(s, { pic: pilot, type, aircraft: s.refs.aircraft['SIM-01'], block: B, onblocks: now() - DAY });
    await addFlight(s, {
      pic: pilot,
      type,
      aircraft: s.refs.aircraft['EC-ABC'],
      block: 2 * B,
      onblocks: now() - 2 * DAY,
    });
    for (const status of ['DRAFT', 'SCHEDULED', 'DISPATCHED', 'CANCELED'])
      await addFlight(s, { status, pic: pilot, type, aircraft: s.refs.aircraft['EC-ABC'], block: 5 * B });
    const deleted = await addFlight(s, { pic: pilot, type, aircraft: s.refs.aircraft['EC-ABC'], block: 7 * B });
    await s.ctx.db.updateTable('flights').set({ deleted: 1 }).where('id', '=', deleted).execute();
    const body = await totals(pilot);
    expect(body.total_time).toBe(3 * B);
    expect(body.rules.SIM.time).toBe(B);
    expect(body.flight_time).toBe(2 * B);
    expect(body.functions.PIC.time).toBe(3 * B);
  });

  it('other_companies matches accounts by email too (no shared login), and never another company’s other pilots', async () => {
    const pilot = await addUser(s, { name: 'Mail', surname: 'Match', email: 'mail.match@people.test' });
    const harbor = await addUser(s, {
      company: 'harbor',
      name: 'Mail',
      surname: 'Match',
      email: 'mail.match@people.test',
    });
    await addFlight(s, { company: 'harbor', pic: harbor, aircraft: s.refs.aircraft.N123HA, type: null, block: 4 * B });
    await addFlight(s, {
      company: 'harbor',
      pic: s.userId('pilot@harbor.test', 'harbor'),
      aircraft: s.refs.aircraft.N123HA,
      type: null,
      block: 9 * B,
    });
    await s.ctx.db.updateTable('users').set({ flight_hours: 2 }).where('id', '=', pilot).execute();
    const body = await totals(pilot);
    expect(body.user).toEqual({ id: pilot, previous_time: 7200, other_companies: 4 * B });
    expect(body.total_time).toBe(0);
    // The Harbor side sees nothing of Skyline's other pilots either.
    const back = await s.api('GET', `/pilots/totals/${harbor}.json`, { token: await tok('admin@harbor.test') });
    expect(back.body.total_time).toBe(4 * B);
    expect(back.body.user.other_companies).toBe(0);
  });
});
