import { computeMelWindow, melStatus } from '@ops/shared/rules/aircraft-reports/mel';
import { melItemStateOf, uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { addUser, createReport, melBody, tokens } from './fleet-helpers.ts';

/** The technical log offline: the collection, plain pushes, and the server-decided `mel.*` commands. */
describe.each(DIALECTS)('aircraft reports offline on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let mech: string;
  let abc: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    mech = s.userId('mechanic@skyline.test');
    abc = s.refs.aircraft['EC-ABC'];
    await addUser(s, { email: 'mechanic2@skyline.test', role: 300, name: 'Second' });
  });
  afterAll(() => s?.close());

  const command = (name: string, args: Record<string, unknown>, clientTime = Date.now()) => ({
    id: uuidv7(),
    name,
    args,
    client_time: clientTime,
    status: 'pending',
  });
  const send = async (email: string, cmd: ReturnType<typeof command>) => {
    const r = await push(s, await t(email), 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
    expect(r.status).toBe(200);
    return r.body.conflicts.find((c: any) => c.id === cmd.id);
  };
  const raiseB = async () =>
    (await createReport(s, await t('mechanic@skyline.test'), melBody(abc, mech, { category: 'B' }))).body.id as string;
  const melRow = (reportId: string) =>
    s.ctx.db.selectFrom('mel_items').selectAll().where('aircraft_report_id', '=', reportId).executeTakeFirstOrThrow();

  it('replicates the fleet records in one `fleet` collection within the 13-collection limit', async () => {
    const r = await s.api('GET', '/sync/collections.json', { token: await t('mechanic@skyline.test') });
    const names = r.body.collections.map((c: any) => c.name);
    expect(names).toContain('fleet');
    expect(names).not.toEqual(expect.arrayContaining(['aircraft_reports']));
    const fleet = await pullAll(s, await t('mechanic@skyline.test'), 'fleet');
    const kinds = ['aircraft', 'aircraft_report', 'maintenance_job', 'inventory_part'];
    expect(fleet.docs.map((d: any) => d.type)).toContain('aircraft');
    expect(fleet.docs.every((d: any) => kinds.includes(d.type))).toBe(true);
    // A report's own type (DEFECT, MEL...) travels as report_type.
    expect(
      fleet.docs.filter((d: any) => d.type === 'aircraft_report').every((d: any) => typeof d.report_type === 'string'),
    ).toBe(true);
    expect(names.length).toBeLessThanOrEqual(13);
  });

  it('replicates reports with their MEL item, limitations and derived status; an extension travels with its report', async () => {
    const token = await t('mechanic@skyline.test');
    const id = (
      await createReport(s, token, {
        ...melBody(abc, mech, { category: 'C' }),
        MelItemLimitation: [{ code: 'NO_IFR' }],
      })
    ).body.id;
    const first = await pullAll(s, await t('pilot@skyline.test'), 'aircraft_reports');
    const doc = first.docs.find((d) => d.id === id);
    expect(doc).toMatchObject({
      type: 'MEL',
      dispatch_condition: 'MEL',
      status: 'OPEN',
      MelItem: { category: 'C', status: 'OPEN', extended: false, MelItemLimitation: [{ code: 'NO_IFR' }] },
    });
    // The client reaches the same status from the document with the shared rules.
    const state = melItemStateOf(doc)!;
    expect(melStatus(state, Math.floor(Date.now() / 1000), { flights: 0, cycles: 0, flightDays: 0 })).toBe(
      doc.MelItem.status,
    );
    const ext = await s.api('POST', `/maintenance/aircraft_reports/extend/${id}.json`, {
      token,
      body: { extended_until: doc.MelItem.expires + 86400 },
    });
    expect(ext.status).toBe(200);
    const next = await pullAll(s, await t('pilot@skyline.test'), 'aircraft_reports', first.checkpoint);
    expect(next.docs.map((d) => d.id)).toEqual([id]);
    expect(next.docs[0].MelItem).toMatchObject({ extended: true, extended_until: doc.MelItem.expires + 86400 });
  });

  it('two mechanics extend the same item offline: exactly one extension is accepted, the other is rejected with its reason', async () => {
    const id = await raiseB();
    const m = await melRow(id);
    const a = command('mel.extend', {
      report_id: id,
      extended_until: Number(m.expires) + 86400,
      reason: 'Part ordered',
    });
    const b = command('mel.extend', {
      report_id: id,
      extended_until: Number(m.expires) + 2 * 86400,
      reason: 'Waiting for a slot',
    });
    const [ra, rb] = await Promise.all([send('mechanic@skyline.test', a), send('mechanic2@skyline.test', b)]);
    const outcomes = [ra, rb].map((r) => r.status).sort();
    expect(outcomes).toEqual(['accepted', 'rejected']);
    const rejected = [ra, rb].find((r) => r.status === 'rejected');
    expect(rejected.reason).toBe('The item has already been extended once.');
    const accepted = [ra, rb].find((r) => r.status === 'accepted');
    const row = await melRow(id);
    expect(row.extended).toBe(1);
    expect(Number(row.extended_until)).toBe(accepted.args.extended_until);
    expect(accepted.result).toMatchObject({ report_id: id, extended_until: accepted.args.extended_until });
    // Each device learns its own outcome through the replicated commands.
    const mine = await pullAll(
      s,
      await t(rejected.user_id === mech ? 'mechanic@skyline.test' : 'mechanic2@skyline.test'),
      'commands',
    );
    expect(mine.docs.find((d) => d.id === rejected.id)).toMatchObject({
      status: 'rejected',
      reason: 'The item has already been extended once.',
    });
  });

  it('re-decides with the role at push time: a mechanic demoted before pushing is refused', async () => {
    const id = await raiseB();
    const m = await melRow(id);
    const cmd = command('mel.extend', { report_id: id, extended_until: Number(m.expires) + 86400 });
    const second = await s.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'mechanic2@skyline.test')
      .executeTakeFirstOrThrow();
    await s.ctx.db.updateTable('users').set({ user_group_id: 190 }).where('id', '=', second.id).execute();
    try {
      const r = await send('mechanic2@skyline.test', cmd);
      expect(r).toMatchObject({ status: 'rejected', reason: 'Your role is not allowed to extend MEL or CDL items.' });
      expect((await melRow(id)).extended).toBe(0);
    } finally {
      await s.ctx.db.updateTable('users').set({ user_group_id: 300 }).where('id', '=', second.id).execute();
    }
  });

  it('an extension of an item closed meanwhile is rejected; a second close is rejected too', async () => {
    const id = await raiseB();
    const m = await melRow(id);
    const close = await send('mechanic@skyline.test', command('mel.close', { report_id: id }));
    expect(close).toMatchObject({ status: 'accepted', result: { report_id: id } });
    const report = await s.ctx.db
      .selectFrom('aircraft_reports')
      .select(['status', 'closed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(report).toEqual({ status: 'CLOSED', closed_by: mech });
    const ext = await send(
      'mechanic2@skyline.test',
      command('mel.extend', { report_id: id, extended_until: Number(m.expires) + 86400 }),
    );
    expect(ext).toMatchObject({ status: 'rejected', reason: 'The item is closed.' });
    const again = await send('mechanic2@skyline.test', command('mel.close', { report_id: id }));
    expect(again).toMatchObject({ status: 'rejected', reason: 'The item is already closed.' });
    const pilotClose = await send('pilot@skyline.test', command('mel.close', { report_id: await raiseB() }));
    expect(pilotClose).toMatchObject({
      status: 'rejected',
      reason: 'Only managers and mechanics can close MEL or CDL items',
    });
  });

  it('raises an item offline: the server keeps the device’s id and time, and reaches the deadline the device computed', async () => {
    const clientMs = Date.now() - 10 * 60 * 1000;
    const raisedAt = Math.floor(clientMs / 1000);
    const aircraft = await s.ctx.db
      .selectFrom('aircraft')
      .select(['flights', 'landings'])
      .where('id', '=', abc)
      .executeTakeFirstOrThrow();
    // What the device shows at once, pending:
    const local = computeMelWindow({
      raisedAt,
      timeZone: 'Europe/Madrid',
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
      aircraftFlights: aircraft.flights,
      aircraftCycles: aircraft.landings,
    });
    const reportId = uuidv7();
    const cmd = command(
      'mel.raise',
      {
        id: reportId,
        AircraftReport: { aircraft_id: abc, type: 'MEL', title: 'Strobe inoperative', ata_chapter: '33-41' },
        MelItem: { category: 'B', released_by: mech },
        MelItemLimitation: [{ code: 'NO_NIGHT' }],
      },
      clientMs,
    );
    const r = await send('mechanic@skyline.test', cmd);
    expect(r.status).toBe('accepted');
    expect(r.result).toMatchObject({ report_id: reportId, starts: local.starts, expires: local.expires });
    const docs = await pullAll(s, await t('mechanic@skyline.test'), 'aircraft_reports');
    const doc = docs.docs.find((d) => d.id === reportId);
    expect(doc).toMatchObject({
      created: raisedAt,
      user_id: mech,
      MelItem: { starts: local.starts, expires: local.expires, MelItemLimitation: [{ code: 'NO_NIGHT' }] },
    });
  });

  it('refuses a raise by a role that may not raise, or with an invalid item, and writes nothing', async () => {
    const count = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('aircraft_reports')
            .select((eb) => eb.fn.countAll<number>().as('c'))
            .executeTakeFirstOrThrow()
        ).c,
      );
    const before = await count();
    const student = await send(
      'student@skyline.test',
      command('mel.raise', {
        AircraftReport: { aircraft_id: abc, type: 'MEL', title: 'x' },
        MelItem: { category: 'B', released_by: mech },
      }),
    );
    expect(student.status).toBe('rejected');
    expect(student.reason).toMatch(/Only managers, mechanics or the aircraft.s assigned pilot/);
    const bad = await send(
      'mechanic@skyline.test',
      command('mel.raise', {
        AircraftReport: { aircraft_id: abc, type: 'MEL', title: 'x' },
        MelItem: { released_by: mech },
      }),
    );
    expect(bad.status).toBe('rejected');
    expect(bad.reason).toContain('MelItem.category');
    const notMel = await send(
      'mechanic@skyline.test',
      command('mel.raise', { AircraftReport: { aircraft_id: abc, type: 'DEFECT', title: 'x' } }),
    );
    expect(notMel.status).toBe('rejected');
    expect(notMel.reason).toContain('MEL or CDL items only');
    expect(await count()).toBe(before);
  });

  it('plain report documents push through the same service; MEL items must be raised by command', async () => {
    const token = await t('pilot@skyline.test');
    const now = Math.floor(Date.now() / 1000);
    const doc = {
      id: uuidv7(),
      aircraft_id: abc,
      flight_id: null,
      type: 'DEFECT',
      title: 'Cracked fairing',
      description: null,
      ata_chapter: '32',
      system: null,
      severity: 'MEDIUM',
      aircraft_status: 'FLYABLE',
      dispatch_condition: 'NONE',
      status: 'OPEN',
      hours: null,
      cycles: null,
      deferred_until: null,
      deferred_reference: null,
      created: now,
      modified: now,
      MelItem: null,
    };
    const created = await push(s, token, 'aircraft_reports', [{ assumedMasterState: null, newDocumentState: doc }]);
    expect(created.status).toBe(200);
    const master = created.body.conflicts.find((c: any) => c.id === doc.id);
    expect(master).toMatchObject({ title: 'Cracked fairing', user_id: s.userId('pilot@skyline.test'), hours: 2450.5 });
    const row = await s.ctx.db
      .selectFrom('aircraft_reports')
      .select(['title', 'user_id'])
      .where('id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Cracked fairing');

    const edited = await push(s, token, 'aircraft_reports', [
      { assumedMasterState: master, newDocumentState: { ...master, title: 'Cracked wheel fairing', _deleted: false } },
    ]);
    expect(edited.status).toBe(200);
    expect(
      (await s.ctx.db.selectFrom('aircraft_reports').select('title').where('id', '=', doc.id).executeTakeFirstOrThrow())
        .title,
    ).toBe('Cracked wheel fairing');

    const mel = { ...doc, id: uuidv7(), type: 'MEL', MelItem: { category: 'B' } };
    const refused = await push(s, await t('mechanic@skyline.test'), 'aircraft_reports', [
      { assumedMasterState: null, newDocumentState: mel },
    ]);
    expect(refused.status).toBe(200);
    expect(
      await s.ctx.db.selectFrom('aircraft_reports').select('id').where('id', '=', mel.id).executeTakeFirst(),
    ).toBeUndefined();
    const outcomes = await pullAll(s, await t('mechanic@skyline.test'), 'outcomes');
    expect(outcomes.docs.find((o) => o.document_id === mel.id)).toMatchObject({
      status: 'rejected',
      reason: 'Raise MEL and CDL items with the mel.raise command',
    });
  });

  it('a pushed edit the caller may not make is rejected, recorded, and changes nothing', async () => {
    const id = await raiseB();
    const pilot = await t('pilot@skyline.test');
    const { docs } = await pullAll(s, pilot, 'aircraft_reports');
    const master = docs.find((d) => d.id === id);
    const r = await push(s, pilot, 'aircraft_reports', [
      { assumedMasterState: master, newDocumentState: { ...master, status: 'CLOSED' } },
    ]);
    expect(r.body.conflicts[0]).toMatchObject({ id, status: 'OPEN' });
    const outcomes = await pullAll(s, pilot, 'outcomes');
    expect(outcomes.docs.find((o) => o.document_id === id)).toMatchObject({
      status: 'rejected',
      reason: 'Only managers and mechanics can change MEL or CDL items',
    });
    expect(
      (await s.ctx.db.selectFrom('aircraft_reports').select('status').where('id', '=', id).executeTakeFirstOrThrow())
        .status,
    ).toBe('OPEN');
  });

  it('a Harbor device never receives a Skyline report', async () => {
    const harbor = await pullAll(s, await t('admin@harbor.test'), 'aircraft_reports');
    expect(harbor.docs).toEqual([]);
  });
});
