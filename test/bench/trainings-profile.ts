/**
 * Profile of the trainings bench requests: queries per request with their
 * times, in process (BENCH_DIALECTS). Seeds the same data as bench:trainings.
 */
import type { TestDialect } from '../setup/dialects.ts';
import { startTestServer } from '../setup/server.ts';
import { seedTrainingsBench } from './trainings-seed.ts';

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
for (const dialect of dialects) {
  const s = await startTestServer(dialect);
  const db = s.ctx.db;
  try {
    const { bigEnrollments } = await seedTrainingsBench(db, dialect);
    const studentToken = await s.login('student@skyline.test');
    if (process.env.DIRECT) {
      const { authenticate } = await import('../../server/src/http/authenticate.ts');
      const { listMyTrainings } = await import('../../server/src/areas/trainings/catalog.service.ts');
      const auth = await authenticate(db, studentToken);
      if (!auth.ok) throw new Error('auth');
      const ts: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t0 = performance.now();
        const r = await listMyTrainings(s.ctx, auth.actor, { page: 1 });
        JSON.stringify(r);
        ts.push(performance.now() - t0);
      }
      console.log(`direct listMyTrainings median ${median(ts).toFixed(2)} ms`);
    }
    const executor = db.getExecutor() as unknown as { executeQuery: (...a: unknown[]) => Promise<unknown> };
    const original = executor.executeQuery;
    for (const url of [
      '/notifications.json',
      `/trainings/students/summary/${bigEnrollments[0]?.id}.json`,
      '/trainings.json',
    ]) {
      await s.api('GET', url, { token: studentToken });
      let log: { sql: string; parameters: readonly unknown[]; ms: number }[] = [];
      executor.executeQuery = async function (this: unknown, ...args: unknown[]) {
        const t = performance.now();
        try {
          return await original.apply(this, args);
        } finally {
          const q = args[0] as { sql: string; parameters: readonly unknown[] };
          log.push({ sql: q.sql, parameters: q.parameters, ms: performance.now() - t });
        }
      };
      const times: number[] = [];
      let last: typeof log = [];
      for (let i = 0; i < CALLS; i++) {
        log = [];
        const t0 = performance.now();
        const r = await s.api('GET', url, { token: studentToken });
        if (r.status !== 200) throw new Error(`${url} ${r.status}`);
        times.push(performance.now() - t0);
        last = log;
      }
      executor.executeQuery = original;
      console.log(`${dialect} ${url}: ${last.length} queries, median ${median(times).toFixed(1)} ms`);
      for (const q of last) {
        console.log(`   ${q.ms.toFixed(2).padStart(7)} ms  ${q.sql.slice(0, 160)}`);
        if (!process.env.EXPLAIN || q.sql.includes('"k"."id" as "credential_id"')) continue;
        const plan = (await db.executeQuery({
          sql: `${dialect === 'postgres' ? 'EXPLAIN (ANALYZE, BUFFERS off)' : 'EXPLAIN QUERY PLAN'} ${q.sql}`,
          parameters: q.parameters,
          query: { kind: 'RawNode' },
        } as never)) as { rows: Record<string, unknown>[] };
        for (const r of plan.rows) console.log(`        ${dialect === 'postgres' ? r['QUERY PLAN'] : r.detail}`);
      }
    }
  } finally {
    await s.close();
  }
}
