/**
 * The server alone answering a first sync (issue 35, third round): on the database kept by
 * `BENCH_KEEP=<name> npm run bench:device` (seed it there first), signs in as the office user and the
 * pilot and times each collection's whole load from nothing (first page with `count`, pages of 1,000)
 * over HTTP, `BENCH_RUNS` times (default 5). Prints the median wall time and the CPU time of this process
 * (server and client in one process: the steadier figure on a loaded machine) per collection, with the
 * load average. `BENCH_DIALECT=postgres` for PostgreSQL.
 *
 *   BENCH_KEEP=s35 npx tsx test/bench/device-server.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COLLECTIONS } from '@ops/shared';
import { startTestServer } from '../setup/server.ts';

const KEEP = process.env.BENCH_KEEP;
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WHO = (process.env.BENCH_WHO ?? 'office,pilot').split(',');
const PEOPLE: Record<string, string> = { office: 'admin@skyline.test', pilot: 'pilot@skyline.test' };
if (!KEEP || !/^[a-z0-9_]+$/.test(KEEP)) throw new Error('BENCH_KEEP=<name> of a database kept by bench:device');
const reuse =
  DIALECT === 'sqlite' ? { dataDir: path.join(os.tmpdir(), `ops-devbench-${KEEP}`) } : { schema: `devbench_${KEEP}` };
if (reuse.dataDir && !fs.existsSync(reuse.dataDir)) throw new Error(`no kept database at ${reuse.dataDir}`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const s = await startTestServer(DIALECT, { seed: 'none', reuse });
try {
  for (const who of WHO) {
    const token = await s.login(PEOPLE[who]);
    console.log(`\n${DIALECT} ${who}: load average before ${load()}`);
    const rows: Array<Record<string, unknown>> = [];
    for (const def of COLLECTIONS) {
      const wall: number[] = [];
      const cpu: number[] = [];
      let docs = 0;
      for (let run = 0; run < RUNS; run++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        let checkpoint: unknown = null;
        docs = 0;
        for (let first = true; ; first = false) {
          const r = await s.api('POST', `/sync/${def.name}/pull.json`, {
            token,
            body: { checkpoint, limit: 1000, ...(first ? { count: true } : {}) },
          });
          if (r.status !== 200) throw new Error(`${def.name}: ${r.status} ${JSON.stringify(r.body)}`);
          docs += r.body.documents.length;
          checkpoint = r.body.checkpoint;
          if (r.body.documents.length < 1000) break;
        }
        const c = process.cpuUsage(c0);
        wall.push(performance.now() - t0);
        cpu.push((c.user + c.system) / 1000);
      }
      rows.push({
        collection: def.name,
        docs,
        'median ms': Math.round(median(wall)),
        'CPU ms': Math.round(median(cpu)),
      });
    }
    console.table(rows);
    console.log(`load average after ${load()}`);
  }
} finally {
  await s.close();
}
