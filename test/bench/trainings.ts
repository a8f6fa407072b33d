/**
 * `npm run bench:trainings` (issue 18 numbers), on SQLite then PostgreSQL
 * (BENCH_DIALECTS=sqlite to run one):
 * - GET /trainings/students/summary/{id}.json and GET /trainings.json for a
 *   student of a training with 40 subjects, 400 activities (320 lessons, 80
 *   exams) and 2,000 progress rows (5 enrollments x 400): median under 20 ms;
 * - GET /manager/trainings.json over 500 trainings and 20,000 enrollments:
 *   median under 30 ms.
 * Times are whole HTTP round trips against a real server process, sequential.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/database.ts';
import { PG_URL, type TestDialect } from '../setup/dialects.ts';
import { spawnServer } from '../setup/process.ts';
import { seedTrainingsBench } from './trainings-seed.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

async function run(dialect: TestDialect) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-trainings-'));
  const schema = dialect === 'postgres' ? `bench_tr_${Date.now().toString(36)}` : undefined;
  if (schema) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
  }
  const server = await spawnServer(dialect, { dataDir, schema }, { SEED: 'fixtures', LOG_LEVEL: 'silent' });
  const database = openDatabase({
    databaseUrl: dialect === 'postgres' ? PG_URL : null,
    dataDir,
    pgSchema: schema ?? null,
  });
  const db = database.db;
  try {
    const { bigEnrollments, activities, progress } = await seedTrainingsBench(db, dialect);

    const login = async (email: string) =>
      (
        (await (
          await fetch(`${server.baseUrl}/login.json`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: 'demo1234' }),
          })
        ).json()) as { token: string }
      ).token;
    const studentToken = await login('student@skyline.test');
    const managerToken = await login('headtraining@skyline.test');
    const time = async (url: string, token: string) => {
      const times: number[] = [];
      let body = '';
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const r = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
        body = await r.text();
        if (r.status !== 200) throw new Error(`${url}: ${r.status} ${body}`);
        times.push(performance.now() - t0);
      }
      return { median: median(times), body };
    };
    const baseline = await time('/notifications.json', studentToken);
    const summary = await time(`/trainings/students/summary/${bigEnrollments[0]?.id}.json`, studentToken);
    const mine = await time('/trainings.json', studentToken);
    const list = await time('/manager/trainings.json', managerToken);
    const check = JSON.parse(summary.body) as { theory: { progress: { total: number } } };
    const counted = JSON.parse(list.body) as { pagination: { count: number } };
    const fmt = (ms: number, target: number) =>
      `${ms.toFixed(1)} ms (target < ${target} ms) ${ms < target ? 'OK' : 'OVER'}`;
    console.log(
      `${dialect}: baseline GET /notifications.json (authentication and HTTP alone): median ${baseline.median.toFixed(1)} ms`,
    );
    console.log(
      `${dialect}: summary of an enrollment over ${activities.length} activities, ${progress.length} progress rows (theory total ${check.theory.progress.total}): median ${fmt(summary.median, 20)}`,
    );
    console.log(`${dialect}: GET /trainings.json for that student: median ${fmt(mine.median, 20)}`);
    console.log(
      `${dialect}: GET /manager/trainings.json over ${counted.pagination.count} trainings and 20000 enrollments: median ${fmt(list.median, 30)}`,
    );
  } finally {
    await server.stop();
    await database.close();
    if (schema) {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const d of dialects) await run(d);
