import { registerJob, runJob } from '@ops/server/jobs/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('job scheduler on %s', (dialect) => {
  let a: TestServer;
  let b: TestServer;
  let runs = 0;
  let release: (() => void) | null = null;
  const name = `test-job-${dialect}`;

  beforeAll(async () => {
    a = await startTestServer(dialect, { env: { JOBS: 'off' } });
    // A second server process on the same database.
    b = await startTestServer(dialect, {
      env: { JOBS: 'off' },
      reuse: { dataDir: a.where.dataDir, schema: a.where.schema },
      seed: 'none',
    });
    registerJob({
      name,
      everySeconds: 3600,
      leaseSeconds: 60,
      run: async () => {
        runs++;
        if (release === null) return;
        await new Promise<void>((r) => {
          release = r;
        });
      },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('runs a due job in exactly one of two processes', async () => {
    const [ranA, ranB] = await Promise.all([runJob(a.ctx, name, false), runJob(b.ctx, name, false)]);
    expect([ranA, ranB].filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
  });

  it('does not run again before its interval, unless forced', async () => {
    expect(await runJob(b.ctx, name, false)).toBe(false);
    expect(runs).toBe(1);
    expect(await runJob(b.ctx, name, true)).toBe(true);
    expect(runs).toBe(2);
  });

  it('a live lease keeps the other process out even when forced', async () => {
    release = () => {};
    const first = runJob(a.ctx, name, true);
    await new Promise((r) => setTimeout(r, 100));
    expect(await runJob(b.ctx, name, true)).toBe(false);
    const done = release as () => void;
    release = null;
    done();
    expect(await first).toBe(true);
    expect(runs).toBe(3);
  });
});
