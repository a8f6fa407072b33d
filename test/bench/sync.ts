/**
 * `npm run bench:sync`: (1) seeds 100,000 documents of one record type (the
 * company directory, `user` documents of `people`) and measures the initial
 * pull into a fresh Node client (client-core, memory storage); (2) in the same
 * run, the RxDB ingestion ceiling: the same documents handed to
 * `replicateRxCollection` by an in-process pull handler (no network, memory
 * storage), and the ratio of the two; (3) measures the delay from an HTTP
 * write to a live client seeing it, over 200 writes (median and p99).
 * The server runs in a child process on SQLite. Targets (2 cores): 100,000
 * documents in under 10 s; live median under 100 ms. Each phase also prints the
 * bench process's CPU time and event-loop use (a loaded machine stretches the
 * wall clock, much less the CPU). BENCH_DOCS, BENCH_WRITES, BENCH_PULL_BATCH
 * (the client's pull page size, default client-core's) for comparisons.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOpsClient, openDatabase as openLocal, signIn } from '@ops/client-core';
import { peopleCollection } from '@ops/shared';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { uuidv7 } from '@ops/shared';
import { openDatabase } from '../../server/src/db/database.ts';
import { inTransaction } from '../../server/src/db/unit-of-work.ts';
import { spawnServer } from '../setup/process.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-sync-'));
const server = await spawnServer('sqlite', { dataDir }, { SEED: 'fixtures', LOG_LEVEL: 'silent' });
const database = openDatabase({ databaseUrl: null, dataDir });
const db = database.db;

try {
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', 'Skyline Flight Academy')
    .executeTakeFirstOrThrow();
  const t0 = performance.now();
  const now = Math.floor(Date.now() / 1000);
  for (let done = 0; done < DOCS; ) {
    const n = Math.min(2000, DOCS - done);
    await inTransaction(db, null, async (uow) => {
      const changeNo = await uow.changeNo(company.id, 'users');
      const rows = Array.from({ length: n }, (_, i) => ({
        id: uuidv7(),
        company_id: company.id,
        change_no: changeNo,
        deleted: 0,
        created: now,
        modified: now,
        identity_id: null,
        email: `member${done + i}@bench.test`,
        email_status: 'confirmed',
        active: 1,
        pilot: 1,
        billing: 0,
        user_group_id: 190,
        language: 'en',
        api: 0,
        two_factor: 'OFF',
        name: `Member ${done + i}`,
        surname: 'Bench',
        public_phone: 0,
        flight_hours: 0,
      }));
      for (let i = 0; i < rows.length; i += 200)
        await uow.trx
          .insertInto('users')
          .values(rows.slice(i, i + 200))
          .execute();
    });
    done += n;
  }
  console.log(`seeded ${DOCS} users in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const login = await signIn(server.baseUrl, 'admin@skyline.test', 'demo1234');
  if (!login.result) throw new Error('sign-in failed');
  const client = await createOpsClient({
    baseUrl: server.baseUrl,
    credentials: { token: login.token },
    user: login.user,
    storage: 'memory',
    ...(process.env.BENCH_PULL_BATCH ? { pullBatchSize: Number(process.env.BENCH_PULL_BATCH) } : {}),
  });
  const p0 = performance.now();
  const pCpu = process.cpuUsage();
  const pElu = performance.eventLoopUtilization();
  await client.start();
  await client.awaitInSync();
  const seconds = (performance.now() - p0) / 1000;
  const count = await client.collections.people.count().exec();
  const pullRate = count / seconds;
  const cpuOf = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(2);
  const busy = (e: { utilization: number }) => `${Math.round(e.utilization * 100)} % of the event loop busy`;
  console.log(
    `initial pull: ${count} documents in ${seconds.toFixed(2)} s = ${Math.round(pullRate)} documents/s (target 100,000 in < 10 s); client CPU ${cpuOf(process.cpuUsage(pCpu))} s, ${busy(performance.eventLoopUtilization(pElu))}`,
  );

  // The ceiling: the same documents, fetched beforehand, handed to RxDB by an in-process pull handler.
  const pages: Array<{ documents: Record<string, unknown>[]; checkpoint: unknown }> = [];
  for (let cp: unknown = null; ; ) {
    const r = await fetch(`${server.baseUrl}/sync/people/pull.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkpoint: cp, limit: 500 }),
    });
    const page = (await r.json()) as { documents: Record<string, unknown>[]; checkpoint: unknown };
    pages.push(page);
    cp = page.checkpoint;
    if (page.documents.length < 500) break;
  }
  const local = await openLocal('bench_ceiling', getRxStorageMemory() as never, [peopleCollection as never]);
  const c0 = performance.now();
  const cCpu = process.cpuUsage();
  const cElu = performance.eventLoopUtilization();
  let served = 0;
  const rs = replicateRxCollection({
    collection: local.collections.people,
    replicationIdentifier: 'bench-ceiling',
    live: false,
    waitForLeadership: false,
    pull: {
      batchSize: 500,
      handler: async () => pages[served++] ?? { documents: [], checkpoint: pages.at(-1)?.checkpoint ?? null },
    } as never,
  });
  await rs.awaitInitialReplication();
  const ceilingSeconds = (performance.now() - c0) / 1000;
  const ceilingCpu = cpuOf(process.cpuUsage(cCpu));
  const ceilingBusy = busy(performance.eventLoopUtilization(cElu));
  const ceilingCount = await local.collections.people.count().exec();
  const ceiling = ceilingCount / ceilingSeconds;
  await rs.cancel();
  await local.remove();
  console.log(
    `RxDB ingestion ceiling (in-process pull handler, memory storage): ${ceilingCount} documents in ${ceilingSeconds.toFixed(2)} s = ${Math.round(ceiling)} documents/s; CPU ${ceilingCpu} s, ${ceilingBusy}`,
  );
  console.log(`pull / ceiling = ${(pullRate / ceiling).toFixed(2)} (target >= 0.8)`);

  // Live: an HTTP write (a mechanic reassigning an aircraft) until the client has it.
  const mech = await signIn(server.baseUrl, 'mechanic@skyline.test', 'demo1234');
  if (!mech.result) throw new Error('sign-in failed');
  const aircraft = client.collections.fleet;
  const target = (await aircraft.findOne({ selector: { type: 'aircraft', registration: 'EC-ABC' } }).exec())!;
  const users = [login.user.id, null];
  const delays: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const current = (await aircraft.findOne(target.primary).exec())!.toJSON() as Record<string, unknown>;
    const { _meta, _rev, _attachments, _deleted, ...master } = current;
    const next = users[i % 2];
    const seen = new Promise<void>((resolve) => {
      const sub = aircraft.findOne(target.primary).$.subscribe((d) => {
        if (d && d.get('user_id') === next) {
          sub.unsubscribe();
          resolve();
        }
      });
    });
    const w0 = performance.now();
    const res = await fetch(`${server.baseUrl}/sync/fleet/push.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mech.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rows: [{ assumedMasterState: master, newDocumentState: { ...master, user_id: next } }] }),
    });
    if (!res.ok) throw new Error(`write failed ${res.status}`);
    await seen;
    delays.push(performance.now() - w0);
  }
  delays.sort((a, b) => a - b);
  const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor(delays.length * p))];
  console.log(
    `live: write to client over ${WRITES} writes: median ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms (target median < 100 ms)`,
  );
  await client.destroy();
} finally {
  await database.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
