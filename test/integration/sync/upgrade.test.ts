import { createOpsClient, databaseName, openDatabase, signIn } from '@ops/client-core';
import { LEGACY_COLLECTIONS, uuidv7 } from '@ops/shared';
import { getAllCollectionDocuments, type RxCollection } from 'rxdb';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';

type Doc = Record<string, unknown> & { id: string };

/**
 * A device that synced with the old layout (one collection per record type),
 * then worked offline: an edited aircraft, a new defect report and a queued
 * command sit unpushed in the old collections. The new client-core opens the
 * same local database, carries them into the area collections and pushes them.
 */
describe.each(DIALECTS)('old-layout client upgrade on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const OLD = ['aircraft', 'aircraft_reports', 'commands'];

  /** What an old client did: replicate each old collection (here through the new endpoints, converted back). */
  async function oldClientSync(name: string, token: string, collections: Record<string, RxCollection<Doc>>) {
    for (const old of OLD) {
      const legacy = LEGACY_COLLECTIONS.find((l) => l.def.name === old)!;
      const rs = replicateRxCollection<Doc, unknown>({
        collection: collections[old],
        replicationIdentifier: `${name}-${old}-v0`,
        live: false,
        waitForLeadership: false,
        pull: {
          batchSize: 1000,
          handler: async (checkpoint) => {
            if (checkpoint) return { documents: [], checkpoint };
            const { docs, checkpoint: cp } = await pullAll(s, token, old);
            return { documents: docs.filter((d) => !d._deleted) as never, checkpoint: cp };
          },
        },
        push: {
          handler: async (rows) => {
            const r = await s.api('POST', `/sync/${legacy.into}/push.json`, {
              token,
              body: {
                rows: rows.map((x) => ({
                  assumedMasterState: x.assumedMasterState ? legacy.convert(x.assumedMasterState) : null,
                  newDocumentState: legacy.convert(x.newDocumentState),
                })),
              },
            });
            return r.body.conflicts.map(legacy.back);
          },
        },
      });
      await rs.awaitInitialReplication();
      await rs.cancel();
    }
  }

  it('carries unpushed edits and queued commands into the area collections, pushes them, and removes the old collections', async () => {
    const login = await signIn(s.baseUrl, 'admin@skyline.test', 'demo1234');
    if (!login.result) throw new Error('sign-in failed');
    const name = databaseName(s.baseUrl, login.user.id, login.user.company_id);
    const storage = getRxStorageMemory();
    const oldDefs = OLD.map((o) => LEGACY_COLLECTIONS.find((l) => l.def.name === o)!.def);

    // 1. The old client syncs, then goes offline and works.
    const old = await openDatabase(name, storage as never, oldDefs);
    const collections = old.collections as unknown as Record<string, RxCollection<Doc>>;
    await oldClientSync(name, login.token, collections);
    const simId =
      s.refs.aircraft['SIM-01'] ??
      ((await collections.aircraft.findOne({ selector: { registration: 'SIM-01' } }).exec())!.primary as string);
    const sim = (await collections.aircraft.findOne(simId).exec())!;
    expect(sim).toBeTruthy();
    const pilot = s.userId('pilot@skyline.test');
    await sim.incrementalPatch({ user_id: pilot });
    const reportId = uuidv7();
    const now = Math.floor(Date.now() / 1000);
    await collections.aircraft_reports.insert({
      id: reportId,
      aircraft_id: simId,
      flight_id: null,
      user_id: login.user.id,
      type: 'DEFECT',
      title: 'Seat rail worn (written before the upgrade)',
      description: null,
      ata_chapter: '25',
      system: null,
      severity: 'LOW',
      aircraft_status: 'FLYABLE',
      dispatch_condition: 'NONE',
      status: 'OPEN',
      hours: null,
      cycles: null,
      deferred_until: null,
      deferred_reference: null,
      created: now,
      modified: now,
      closed: null,
      closed_by: null,
      maintenance_job_id: null,
      MelItem: null,
    });
    const commandId = uuidv7();
    const target = s.refs.bases['Cuatro Vientos'];
    await collections.commands.insert({
      id: commandId,
      name: 'base.set_default',
      args: { base_id: target },
      client_time: Date.now(),
      user_id: login.user.id,
      status: 'pending',
      reason: null,
      details: null,
      result: null,
      decided_at: null,
    });
    await old.close();

    // 2. The new client opens the same local database.
    const client = await createOpsClient({
      baseUrl: s.baseUrl,
      credentials: { token: login.token },
      user: login.user,
      storage: storage as never,
      retryTime: 200,
    });
    try {
      const names = new Set((await getAllCollectionDocuments(client.db.internalStore)).map((d) => d.data.name));
      for (const o of OLD) expect(names.has(o)).toBe(false);
      // Carried, still pending, before any replication ran.
      expect((await client.collections.fleet.findOne(reportId).exec())?.get('report_type')).toBe('DEFECT');
      expect((await client.collections.device.findOne(commandId).exec())?.get('status')).toBe('pending');
      await client.start();
      const decided = await client.commands.decided(commandId);
      expect(decided.status).toBe('accepted');
      await client.awaitInSync();
      expect(client.syncState$.value.pendingWrites).toBe(0);
    } finally {
      await client.destroy({ removeData: true });
    }

    // 3. The server has every carried write, and nothing was taken for a conflict.
    const aircraft = await s.ctx.db
      .selectFrom('aircraft')
      .select('user_id')
      .where('id', '=', simId)
      .executeTakeFirstOrThrow();
    expect(aircraft.user_id).toBe(pilot);
    expect(
      await s.ctx.db
        .selectFrom('sync_outcomes')
        .select(['collection', 'status', 'reason'])
        .where('user_id', '=', login.user.id)
        .execute(),
    ).toEqual([]);
    const report = await s.ctx.db
      .selectFrom('aircraft_reports')
      .selectAll()
      .where('id', '=', reportId)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({ type: 'DEFECT', title: 'Seat rail worn (written before the upgrade)' });
    const base = await s.ctx.db
      .selectFrom('bases')
      .select('is_default')
      .where('id', '=', target)
      .executeTakeFirstOrThrow();
    expect(!!base.is_default).toBe(true);
    const outcomes = await s.ctx.db
      .selectFrom('sync_outcomes')
      .selectAll()
      .where('user_id', '=', login.user.id)
      .execute();
    expect(outcomes).toEqual([]);
  });
});
