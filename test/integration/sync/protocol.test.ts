import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { openStream, pullAll, push } from '../../setup/sync.ts';
import { countQueries } from '../aircraft-reports/fleet-helpers.ts';

describe.each(DIALECTS)('sync protocol on %s', (dialect) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const t = async (email: string) => {
    tokens[email] ??= await s.login(email);
    return tokens[email];
  };
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('needs credentials and a known collection', async () => {
    expect((await s.api('POST', '/sync/aircraft/pull.json', { body: { checkpoint: null } })).status).toBe(401);
    expect(
      (
        await s.api('POST', '/sync/nope/pull.json', {
          token: await t('pilot@skyline.test'),
          body: { checkpoint: null },
        })
      ).status,
    ).toBe(404);
    const bad = await s.api('POST', '/sync/aircraft/pull.json', {
      token: await t('pilot@skyline.test'),
      body: { checkpoint: { seq: -1 } },
    });
    expect(bad.status).toBe(400);
  });

  it('lists the replicated collections (13 at most, the free RxDB limit)', async () => {
    const r = await s.api('GET', '/sync/collections.json', { token: await t('pilot@skyline.test') });
    expect(r.status).toBe(200);
    const names = r.body.collections.map((c: any) => c.name);
    // One collection per area (docs/sync.md, budget table).
    expect(names).toEqual(expect.arrayContaining(['reference', 'people', 'fleet', 'flights', 'inbox', 'device']));
    expect(names.length).toBeLessThanOrEqual(13);
    expect(r.body.collections.find((c: any) => c.name === 'fleet').writable).toBe(true);
    expect(r.body.collections.find((c: any) => c.name === 'people').writable).toBe(false);
  });

  it('a Harbor client never receives a Skyline document', async () => {
    const token = await t('admin@harbor.test');
    const aircraft = await pullAll(s, token, 'aircraft');
    expect(aircraft.docs.map((d) => d.registration)).toEqual(['N123HA']);
    const users = await pullAll(s, token, 'users');
    expect(users.docs.map((d) => d.id).sort()).toEqual(Object.values(s.refs.users.harbor).sort());
    const ref = await pullAll(s, token, 'reference');
    expect(ref.docs.find((d) => d.type === 'company').data.Company.name).toBe('Harbor Aero Club');
    expect(ref.docs.filter((d) => d.type === 'base').map((d) => d.name)).toEqual(['Republic']);
    // A Skyline id pushed by a Harbor client is not found and not leaked: the answer is the
    // content-free deletion any refused new document gets, so the device drops its copy.
    const r = await push(s, token, 'aircraft', [
      {
        assumedMasterState: null,
        newDocumentState: { id: s.refs.aircraft['EC-ABC'], registration: 'HACKED', active: true },
      },
    ]);
    expect(r.body.conflicts).toEqual([{ id: s.refs.aircraft['EC-ABC'], _deleted: true }]);
    const abc = await s.ctx.db
      .selectFrom('aircraft')
      .select('registration')
      .where('id', '=', s.refs.aircraft['EC-ABC'])
      .executeTakeFirstOrThrow();
    expect(abc.registration).toBe('EC-ABC');
  });

  it('field visibility is the REST visibility: pilots and auditors get personal fields nulled', async () => {
    const pilot = await pullAll(s, await t('pilot@skyline.test'), 'users');
    const other = pilot.docs.find((d) => d.id === s.userId('ops@skyline.test'));
    expect(other.email).toBeNull();
    expect(other.user_group_id).toBeNull();
    expect(other.name).toBe('Oscar');
    const self = pilot.docs.find((d) => d.id === s.userId('pilot@skyline.test'));
    expect(self.email).toBe('pilot@skyline.test');

    const auditor = await pullAll(
      s,
      await t('admin@skyline.test')
        .then(() => s.api('POST', '/login.json', { body: { email: 'auditor@skyline.test', password: 'demo1234' } }))
        .then(async (r) => {
          const mail = await s.ctx.db
            .selectFrom('mail_outbox')
            .select('body_text')
            .where('to_address', '=', 'auditor@skyline.test')
            .orderBy('created', 'desc')
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow();
          const code = /code is (\d{6})/.exec(mail.body_text)![1];
          return (await s.api('POST', '/login/verify.json', { body: { challenge: r.body.challenge, code } })).body
            .token as string;
        }),
      'users',
    );
    const seenByAuditor = auditor.docs.find((d) => d.id === s.userId('pilot@skyline.test'));
    for (const f of ['email', 'phone', 'phone2', 'address', 'city', 'pc', 'passport'])
      expect(seenByAuditor[f]).toBeNull();
    expect(auditor.docs.find((d) => d.id === s.userId('auditor@skyline.test')).email).toBe('auditor@skyline.test');

    const admin = await pullAll(s, await t('admin@skyline.test'), 'users');
    expect(admin.docs.find((d) => d.id === s.userId('ops@skyline.test')).email).toBe('ops@skyline.test');
  });

  it('pulls page by page with checkpoints and then nothing new', async () => {
    const token = await t('dispatch@skyline.test');
    const first = await s.api('POST', '/sync/people/pull.json', { token, body: { checkpoint: null, limit: 5 } });
    expect(first.body.documents).toHaveLength(5);
    const rest = await pullAll(s, token, 'people', first.body.checkpoint);
    const all = [...first.body.documents, ...rest.docs];
    // The directory plus the caller's own certificates and schedules, never another person's.
    expect(all.filter((d) => d.type === 'user')).toHaveLength(Object.keys(s.refs.users.skyline).length);
    expect(all.filter((d) => d.type !== 'user').every((d) => d.user_id === s.userId('dispatch@skyline.test'))).toBe(
      true,
    );
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    const again = await s.api('POST', '/sync/people/pull.json', {
      token,
      body: { checkpoint: rest.checkpoint, limit: 5 },
    });
    expect(again.body.documents).toEqual([]);
    expect(again.body.checkpoint).toEqual(rest.checkpoint);
  });

  it('a pull from a current checkpoint that read to the end costs one batched read, and a change is still read', async () => {
    const token = await t('mechanic@skyline.test');
    const loaded = await pullAll(s, token, 'fleet');
    // Read to the end: the checkpoint says so. A page cut short does not.
    expect(loaded.checkpoint).toMatchObject({ tail: true });
    const cut = await s.api('POST', '/sync/fleet/pull.json', {
      token,
      body: { checkpoint: { seq: 0, id: '', fp: loaded.checkpoint.fp }, limit: 1 },
    });
    expect(cut.body.documents).toHaveLength(1);
    expect(cut.body.checkpoint.tail).toBeUndefined();

    const pull = () => s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint: loaded.checkpoint } });
    const { tail: _, ...unmarked } = loaded.checkpoint;
    const reading = await countQueries(s, () =>
      s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint: unmarked } }),
    );
    const current = await countQueries(s, pull);
    // The credential (when not cached) and the company's change number, instead of the change number bounding
    // fleet's four sources (pull.ts, readSources), the four sources and the horizon.
    expect(current).toBeLessThanOrEqual(2);
    expect(reading - current).toBe(5);
    const idle = await pull();
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ documents: [], checkpoint: loaded.checkpoint });

    // A change committed since: the same checkpoint reads the collection and gets it.
    const aircraft = (await pullAll(s, token, 'aircraft')).docs[0];
    const { _deleted, ...master } = aircraft;
    const edited = { ...master, registration: 'EC-TAIL' };
    const pushed = await push(s, token, 'aircraft', [{ assumedMasterState: master, newDocumentState: edited }]);
    expect(pushed.body.conflicts).toEqual([]);
    const after = await pull();
    expect(after.body.documents.map((d: { id: string }) => d.id)).toContain(aircraft.id);
    expect(after.body.documents.find((d: { id: string }) => d.id === aircraft.id).registration).toBe('EC-TAIL');
    expect(after.body.checkpoint.seq).toBeGreaterThan(loaded.checkpoint.seq);
    expect(after.body.checkpoint.tail).toBe(true);
    // Put the registration back: later tests find aircraft by it.
    const { _deleted: _d, ...now } = (await pullAll(s, token, 'aircraft')).docs.find((d) => d.id === aircraft.id);
    const back = await push(s, token, 'aircraft', [
      { assumedMasterState: now, newDocumentState: { ...now, registration: master.registration } },
    ]);
    expect(back.body.conflicts).toEqual([]);
  });

  it('a role change restarts the pull: the client receives what it may now see', async () => {
    const email = 'dual@demo.test';
    const token = await s.login(email);
    const before = await pullAll(s, token, 'users');
    expect(before.docs.find((d) => d.id === s.userId('ops@skyline.test')).email).toBeNull();
    await s.ctx.db.updateTable('users').set({ user_group_id: 150 }).where('id', '=', s.userId(email)).execute();
    const after = await pullAll(s, token, 'users', before.checkpoint);
    expect(after.docs.find((d) => d.id === s.userId('ops@skyline.test')).email).toBe('ops@skyline.test');
    expect(after.checkpoint.fp).not.toBe(before.checkpoint.fp);
    await s.ctx.db.updateTable('users').set({ user_group_id: 190 }).where('id', '=', s.userId(email)).execute();
  });

  it('a pushed aircraft change goes through the domain service; the loser of a true conflict sees the outcome', async () => {
    const mech = await t('mechanic@skyline.test');
    const ops = await t('ops@skyline.test');
    const start = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-DEF');
    const { _deleted, ...master } = start;
    const sabadell = s.refs.bases.Sabadell;
    const cuatro = s.refs.bases['Cuatro Vientos'];
    const won = await push(s, mech, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, base_id: sabadell } },
    ]);
    expect(won.body.conflicts).toEqual([]);
    // ops edited offline from the same master: a true conflict.
    const lost = await push(s, ops, 'aircraft', [
      {
        assumedMasterState: master,
        newDocumentState: { ...master, base_id: cuatro, user_id: s.userId('pilot@skyline.test') },
      },
    ]);
    expect(lost.body.conflicts).toHaveLength(1);
    expect(lost.body.conflicts[0].base_id).toBe(sabadell);
    const stored = await s.ctx.db
      .selectFrom('aircraft')
      .select(['base_id', 'user_id'])
      .where('id', '=', master.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ base_id: sabadell, user_id: null });
    const outcomes = await pullAll(s, ops, 'outcomes');
    const o = outcomes.docs.find((d) => d.document_id === master.id);
    expect(o).toMatchObject({ collection_name: 'aircraft', status: 'conflict' });
    expect(o.reason).toMatch(/changed this record first/);
    // The mechanic's outcomes do not include the other user's.
    expect((await pullAll(s, mech, 'outcomes')).docs.find((d) => d.document_id === master.id)).toBeUndefined();
  });

  it('a second local edit pushed before the next pull is not a false conflict (non-writable fields ignored)', async () => {
    const mech = await t('mechanic@skyline.test');
    const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-ABC');
    const { _deleted, ...master } = doc;
    const r = await push(s, mech, 'aircraft', [
      { assumedMasterState: { ...master, hours: 1 }, newDocumentState: { ...master, active: false } },
    ]);
    expect(r.body.conflicts).toEqual([]);
    expect(
      (await s.ctx.db.selectFrom('aircraft').select('active').where('id', '=', master.id).executeTakeFirstOrThrow())
        .active,
    ).toBe(0);
  });

  it('a push replayed after its answer was lost is acknowledged: no conflict, no outcome, applied once', async () => {
    const mech = await t('mechanic@skyline.test');
    const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'SIM-01');
    const { _deleted, ...master } = doc;
    const row = { assumedMasterState: master, newDocumentState: { ...master, base_id: s.refs.bases.Sabadell } };
    expect((await push(s, mech, 'aircraft', [row])).body.conflicts).toEqual([]);
    // The device never saw that answer (partition, server killed after the commit) and sends the same row again.
    const replay = await push(s, mech, 'aircraft', [row]);
    expect(replay.status).toBe(200);
    expect(replay.body.conflicts).toEqual([]);
    expect((await pullAll(s, mech, 'outcomes')).docs.find((d) => d.document_id === master.id)).toBeUndefined();
    expect(
      (await s.ctx.db.selectFrom('aircraft').select('base_id').where('id', '=', master.id).executeTakeFirstOrThrow())
        .base_id,
    ).toBe(s.refs.bases.Sabadell);
  });

  it('a push the domain rejects changes nothing and records the reason', async () => {
    const mech = await t('mechanic@skyline.test');
    const pilot = await t('pilot@skyline.test');
    const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-JET');
    const { _deleted, ...master } = doc;
    const bad = await push(s, mech, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, base_id: s.refs.bases.Republic } },
    ]);
    expect(bad.body.conflicts[0].base_id).toBe(master.base_id);
    const denied = await push(s, pilot, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, registration: 'EC-ZZZ' } },
    ]);
    expect(denied.body.conflicts[0].registration).toBe('EC-JET');
    const mechOutcome = (await pullAll(s, mech, 'outcomes')).docs.find((d) => d.document_id === master.id);
    expect(mechOutcome).toMatchObject({ status: 'rejected', reason: 'Base not found in your company' });
    expect((await pullAll(s, pilot, 'outcomes')).docs.find((d) => d.document_id === master.id).reason).toMatch(
      /role cannot change/,
    );
    expect(
      await s.ctx.db
        .selectFrom('aircraft')
        .select(['registration', 'base_id'])
        .where('id', '=', master.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ registration: 'EC-JET', base_id: master.base_id });
  });

  it('a command is decided once by the server: replayed three times, applied once', async () => {
    const admin = await t('admin@skyline.test');
    const id = uuidv7();
    const cmd = {
      id,
      name: 'base.set_default',
      args: { base_id: s.refs.bases.Sabadell },
      client_time: Date.now(),
      user_id: null,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    };
    const first = await push(s, admin, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
    expect(first.body.conflicts[0]).toMatchObject({
      id,
      status: 'accepted',
      result: { base_id: s.refs.bases.Sabadell, previous: s.refs.bases['Cuatro Vientos'] },
    });
    const counter = async () =>
      (
        await s.ctx.db
          .selectFrom('sync_counters')
          .select('value')
          .where('company_id', '=', s.refs.companies.skyline)
          .executeTakeFirstOrThrow()
      ).value;
    const after = await counter();
    for (let i = 0; i < 3; i++) {
      const replay = await push(s, admin, 'commands', [{ assumedMasterState: null, newDocumentState: cmd }]);
      expect(replay.body.conflicts[0]).toMatchObject({ id, status: 'accepted' });
    }
    expect(await counter()).toBe(after);
    expect((await s.ctx.db.selectFrom('commands').select('id').where('id', '=', id).execute()).length).toBe(1);
    const bases = await s.ctx.db
      .selectFrom('bases')
      .select(['name', 'is_default'])
      .where('company_id', '=', s.refs.companies.skyline)
      .orderBy('name')
      .execute();
    expect(bases).toEqual([
      { name: 'Cuatro Vientos', is_default: 0 },
      { name: 'Sabadell', is_default: 1 },
    ]);
    const mine = await pullAll(s, admin, 'commands');
    expect(mine.docs.find((d) => d.id === id).status).toBe('accepted');
  });

  it('a command refused by the rules comes back rejected with its reason, and changes nothing', async () => {
    const pilot = await t('pilot@skyline.test');
    const id = uuidv7();
    const r = await push(s, pilot, 'commands', [
      {
        assumedMasterState: null,
        newDocumentState: {
          id,
          name: 'base.set_default',
          args: { base_id: s.refs.bases['Cuatro Vientos'] },
          client_time: Date.now(),
          status: 'pending',
        },
      },
    ]);
    expect(r.body.conflicts[0]).toMatchObject({
      id,
      status: 'rejected',
      reason: 'Only managers can change the default base',
    });
    const unknown = await push(s, pilot, 'commands', [
      {
        assumedMasterState: null,
        newDocumentState: { id: uuidv7(), name: 'nope', args: {}, client_time: 1, status: 'pending' },
      },
    ]);
    expect(unknown.body.conflicts[0].reason).toMatch(/Unknown command/);
    const badArgs = await push(s, pilot, 'commands', [
      {
        assumedMasterState: null,
        newDocumentState: { id: uuidv7(), name: 'base.set_default', args: {}, client_time: 1, status: 'pending' },
      },
    ]);
    expect(badArgs.body.conflicts[0].reason).toBe('Invalid command arguments');
    // A stored refusal is read later in any language: zod's texts stay English whatever the pusher asks (issue 33).
    const spanish = await push(
      s,
      pilot,
      'commands',
      [
        {
          assumedMasterState: null,
          newDocumentState: { id: uuidv7(), name: 'base.set_default', args: {}, client_time: 1, status: 'pending' },
        },
      ],
      { 'Accept-Language': 'es' },
    );
    expect(spanish.body.conflicts[0].details.errors).toEqual(badArgs.body.conflicts[0].details.errors);
    expect(JSON.stringify(badArgs.body.conflicts[0].details.errors)).toMatch(/Invalid input/);
    const def = await s.ctx.db
      .selectFrom('bases')
      .select('name')
      .where('company_id', '=', s.refs.companies.skyline)
      .where('is_default', '=', 1)
      .executeTakeFirstOrThrow();
    expect(def.name).toBe('Sabadell');
    // Another user's commands are not replicated to the pilot.
    expect((await pullAll(s, pilot, 'commands')).docs.every((d) => d.user_id === s.userId('pilot@skyline.test'))).toBe(
      true,
    );
  });

  it('the live stream sends resync at connect, then changes of the caller’s company only, filtered', async () => {
    const pilot = await t('pilot@skyline.test');
    const stream = await openStream(s.baseUrl, pilot, ['fleet', 'people']);
    expect(stream.status).toBe(200);
    expect(await stream.waitFor((e) => e.some((x) => x.event === 'resync'))).toBe(true);
    const harbor = await t('admin@harbor.test');
    const harborDoc = (await pullAll(s, harbor, 'aircraft')).docs[0];
    const { _deleted: _h, ...hm } = harborDoc;
    await push(s, harbor, 'aircraft', [{ assumedMasterState: hm, newDocumentState: { ...hm, active: false } }]);
    const mech = await t('mechanic@skyline.test');
    const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'SIM-01');
    const { _deleted, ...master } = doc;
    await push(s, mech, 'aircraft', [
      { assumedMasterState: master, newDocumentState: { ...master, user_id: s.userId('pilot@skyline.test') } },
    ]);
    const got = await stream.waitFor((e) =>
      e.some((x) => x.event === 'change' && x.data.documents.some((d: any) => d.id === master.id)),
    );
    expect(got).toBe(true);
    const changes = stream.events.filter((e) => e.event === 'change');
    expect(changes.flatMap((c) => c.data.documents).some((d: any) => d.registration === 'N123HA')).toBe(false);
    const change = changes.find((c) => c.data.documents.some((d: any) => d.id === master.id))!;
    expect(change.data.collection).toBe('fleet');
    expect(change.data.documents.find((d: any) => d.id === master.id).type).toBe('aircraft');
    expect(change.data.checkpoint.seq).toBeGreaterThan(0);
    await stream.close();
  });

  it('a revoked session ends its stream at the next change', async () => {
    const token = await s.login('ground@skyline.test');
    const stream = await openStream(s.baseUrl, token, ['fleet']);
    await stream.waitFor((e) => e.some((x) => x.event === 'resync'));
    await s.api('POST', '/logout.json', { token });
    const mech = await t('mechanic@skyline.test');
    const doc = (await pullAll(s, mech, 'aircraft')).docs.find((d) => d.registration === 'EC-ABC');
    const { _deleted, ...master } = doc;
    await push(s, mech, 'aircraft', [{ assumedMasterState: master, newDocumentState: { ...master, active: true } }]);
    expect(await stream.waitFor((e) => e.some((x) => x.event === 'error'))).toBe(true);
    expect(stream.events.find((e) => e.event === 'error')!.data.status).toBe(401);
    await stream.close();
  });
});
