/**
 * `npm run bench:auth`: requests per second of the same trivial endpoint
 * (`GET /home/version.json`) with and without a bearer session token, measured
 * in one run against a server in a child process, and their ratio. A public
 * route still authenticates a presented token, so the difference is exactly the
 * cost of authentication. Target: ratio >= 0.8, median added latency < 1 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { spawnServer } from '../../test/setup/process.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-bench-auth-'));
const server = await spawnServer('sqlite', { dataDir }, { SEED: 'fixtures', LOG_LEVEL: 'silent' });
try {
  const login = await fetch(`${server.baseUrl}/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'pilot@skyline.test', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const url = `${server.baseUrl}/home/version.json`;
  const run = (headers: Record<string, string>) =>
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, pipelining: 1 });
  // Warm up both paths (JIT, statement cache), then measure.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: { authorization: `Bearer ${token}` } });
  const anon = await run({});
  const authed = await run({ authorization: `Bearer ${token}` });
  if (authed.non2xx || anon.non2xx) throw new Error(`non-2xx answers: ${authed.non2xx} / ${anon.non2xx}`);
  const ratio = authed.requests.average / anon.requests.average;
  const added = authed.latency.p50 - anon.latency.p50;
  console.log(`unauthenticated: ${anon.requests.average.toFixed(0)} req/s, median latency ${anon.latency.p50} ms`);
  console.log(`authenticated:   ${authed.requests.average.toFixed(0)} req/s, median latency ${authed.latency.p50} ms`);
  console.log(`ratio authenticated/unauthenticated: ${ratio.toFixed(2)} (target >= 0.8)`);
  console.log(`median latency added over HTTP: ${added.toFixed(2)} ms (autocannon has 1 ms resolution)`);
  // In-process: the authenticate() call itself, per request, median over many calls.
  const { openDatabase } = await import('../src/db/database.ts');
  const { authenticate } = await import('../src/http/authenticate.ts');
  const database = openDatabase({ databaseUrl: null, dataDir });
  const samples: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t0 = process.hrtime.bigint();
    const r = await authenticate(database.db, token);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!r.ok) throw new Error('token refused');
  }
  await database.close();
  samples.sort((a, b) => a - b);
  console.log(
    `authenticate() median ${(samples[samples.length >> 1] * 1000).toFixed(0)} µs, p99 ${(samples[Math.floor(samples.length * 0.99)] * 1000).toFixed(0)} µs (target median < 1 ms)`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
