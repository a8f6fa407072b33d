/**
 * `tsx test/bench/server-start.ts`: what one test server start costs, split into migrations and the
 * fixture seed, per dialect (BENCH_DIALECTS=sqlite,postgres; BENCH_RUNS=5). Wall and this process's CPU;
 * PostgreSQL's own CPU is not in the figure. Then the same fixture server as a copy of a template
 * (test/setup/template.ts), as the test runs start it. Used to decide what the test setup copies (docs/testing.md).
 */
import fs from 'node:fs';
import type { TestDialect } from '../setup/dialects.ts';
import { startTestServer } from '../setup/server.ts';
import { makeTemplate, TEMPLATE_DIR_ENV, templateDir } from '../setup/template.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const dir = templateDir();
for (const dialect of dialects) {
  delete process.env[TEMPLATE_DIR_ENV];
  for (const seed of ['none', 'fixtures', 'copy'] as const) {
    if (seed === 'copy') {
      await makeTemplate(dir, dialect, 'fixtures', startTestServer);
      process.env[TEMPLATE_DIR_ENV] = dir;
    }
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const s = await startTestServer(dialect, { seed: seed === 'copy' ? 'fixtures' : seed });
      const wall = performance.now() - t;
      const used = process.cpuUsage(cpu);
      await s.close();
      // The first start also loads the modules: left out.
      if (i === 0) continue;
      walls.push(wall);
      cpus.push((used.user + used.system) / 1000);
    }
    console.log(
      `${dialect} seed=${seed}: median wall ${median(walls).toFixed(0)} ms, median CPU ${median(cpus).toFixed(0)} ms (${RUNS} runs)`,
    );
  }
}
fs.rmSync(dir, { recursive: true, force: true });
