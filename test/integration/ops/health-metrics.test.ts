import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, startServer } from '@ops/server';
import { runJob } from '@ops/server/ops/index';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSchema, DIALECTS, PG_URL } from '../../setup/dialects.ts';
import { freePort } from '../../setup/process.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { openStream } from '../../setup/sync.ts';

const origin = (s: TestServer) => s.url;
const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers });
  return { status: r.status, text: await r.text(), headers: r.headers };
};
/** Value of one sample line of the Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}
const waitUntil = async (pred: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

describe.each(DIALECTS)('health and metrics on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('liveness and readiness answer 200 once started, without credentials', async () => {
    const live = await get(`${origin(s)}/health/live`);
    expect(live.status).toBe(200);
    expect(JSON.parse(live.text)).toEqual({ status: 'alive', phase: 'ready' });
    const ready = await get(`${origin(s)}/health/ready`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', phase: 'ready', database: 'ok' });
  });

  it('probes are answered from state kept in the background: no SQL statement per probe', async () => {
    const executor = s.ctx.database.db.getExecutor();
    const original = executor.executeQuery;
    // The fewest over three rounds: the background ping (every 0.5 s) may fall inside one.
    let fewest = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      let n = 0;
      executor.executeQuery = function (this: typeof executor, ...args: Parameters<typeof original>) {
        n += 1;
        return original.apply(this, args);
      } as typeof original;
      try {
        for (let i = 0; i < 5; i++) expect((await get(`${origin(s)}/health/ready`)).status).toBe(200);
      } finally {
        executor.executeQuery = original;
      }
      fewest = Math.min(fewest, n);
    }
    expect(fewest).toBe(0);
  });

  it.runIf(dialect === 'postgres')(
    'readiness stays 200 and answers at once while every pooled connection is busy',
    async () => {
      const busy = Array.from({ length: 8 }, () =>
        sql`select pg_sleep(2)`.execute(s.ctx.database.db).catch(() => undefined),
      );
      try {
        await new Promise((r) => setTimeout(r, 300));
        for (let i = 0; i < 10; i++) {
          const t0 = performance.now();
          expect((await get(`${origin(s)}/health/ready`)).status).toBe(200);
          expect(performance.now() - t0).toBeLessThan(500);
          await new Promise((r) => setTimeout(r, 150));
        }
      } finally {
        await Promise.all(busy);
      }
    },
  );

  it('counts requests, errors and latency per route pattern, never per raw URL', async () => {
    const token = await s.login('admin@skyline.test');
    const before = (await get(`${origin(s)}/metrics`)).text;
    const route = '/flights/view/:id.json';
    const ft = '/flight_types/index{/:booking}.json';
    const okBefore = sample(before, 'http_requests_total', { method: 'GET', route: ft, status: '200' });
    for (let i = 0; i < 3; i++) expect((await s.api('GET', '/flight_types/index.json', { token })).status).toBe(200);
    expect((await s.api('GET', '/flights/view/does-not-exist.json', { token })).status).toBe(404);
    expect((await s.api('GET', '/flight_types/index.json')).status).toBe(401);
    const m = await get(`${origin(s)}/metrics`);
    expect(m.status).toBe(200);
    expect(m.headers.get('content-type')).toContain('text/plain');
    expect(sample(m.text, 'http_requests_total', { method: 'GET', route: ft, status: '200' })).toBe(okBefore + 3);
    expect(sample(m.text, 'http_requests_total', { method: 'GET', route, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(m.text, 'http_request_errors_total', { method: 'GET', route, kind: 'client' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(m.text, 'http_request_errors_total', { method: 'GET', route: ft, kind: 'client' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(m.text, 'http_request_duration_seconds_count', { method: 'GET', route: ft })).toBeGreaterThanOrEqual(
      4,
    );
    expect(m.text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/flight_types/index{/:booking}.json"}',
    );
    expect(m.text).not.toContain('does-not-exist');
    expect(sample(m.text, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(m.text).toContain('process_resident_memory_bytes');
  });

  it('gauges open sync streams, and counts job runs by outcome', async () => {
    const token = await s.login('admin@skyline.test');
    const streams = async () => sample((await get(`${origin(s)}/metrics`)).text, 'sync_streams_open');
    const base = await streams();
    const a = await openStream(s.baseUrl, token, ['flights']);
    const b = await openStream(s.baseUrl, token, ['flights']);
    expect(a.status).toBe(200);
    expect(await waitUntil(async () => (await streams()) === base + 2)).toBe(true);
    await a.close();
    await b.close();
    expect(await waitUntil(async () => (await streams()) === base)).toBe(true);
    expect(await runJob(s.ctx, 'test-job', async () => 42)).toBe(42);
    await expect(runJob(s.ctx, 'test-job', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const m = (await get(`${origin(s)}/metrics`)).text;
    expect(sample(m, 'job_runs_total', { job: 'test-job', outcome: 'ok' })).toBe(1);
    expect(sample(m, 'job_runs_total', { job: 'test-job', outcome: 'error' })).toBe(1);
    expect(sample(m, 'job_duration_seconds_count', { job: 'test-job' })).toBe(2);
    expect(m).toContain('sync_commands_pending 0');
  });

  it('METRICS_TOKEN protects /metrics with a bearer token', async () => {
    process.env.METRICS_TOKEN = 'scrape-secret';
    try {
      expect((await get(`${origin(s)}/metrics`)).status).toBe(401);
      expect((await get(`${origin(s)}/metrics`, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await get(`${origin(s)}/metrics`, { authorization: 'Bearer scrape-secret' })).status).toBe(200);
    } finally {
      delete process.env.METRICS_TOKEN;
    }
  });

  // SQLite migrates synchronously in-process (one process per file), so only PostgreSQL has a window to observe.
  it.runIf(dialect === 'postgres')(
    'readiness is 503 while migrations run (another process holds the migration lock), then 200',
    async () => {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-ready-'));
      const created = await createPgSchema();
      const schema = created.schema;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query('begin');
      // Kysely's PostgreSQL migration lock (PostgresAdapter.acquireMigrationLock).
      await client.query('select pg_advisory_xact_lock(3853314791062309107)');
      const release = async () => {
        await client.query('commit');
        await client.end();
      };
      const config = loadConfig({
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        LOG_LEVEL: 'silent',
        DATABASE_URL: PG_URL,
        DATABASE_SCHEMA: schema,
      });
      const starting = startServer(config, { poolSize: 2 });
      const url = `http://127.0.0.1:${port}`;
      expect(await waitUntil(async () => (await fetch(`${url}/health/live`).catch(() => null))?.status === 200)).toBe(
        true,
      );
      const ready = await get(`${url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toMatchObject({ status: 'unavailable', phase: 'migrating' });
      expect(ready.headers.get('retry-after')).toBe('1');
      const api = await get(`${url}/api/v1/flight_types/index.json`);
      expect(api.status).toBe(503);
      await release();
      const running = await starting;
      try {
        expect((await get(`${url}/health/ready`)).status).toBe(200);
      } finally {
        await running.close();
      }
    },
  );

  it.runIf(dialect === 'postgres')(
    'readiness is 503 while the database is unreachable, liveness stays 200, and it recovers',
    async () => {
      // The server reaches PostgreSQL through a TCP relay the test can cut.
      const target = new URL(PG_URL);
      const sockets = new Set<net.Socket>();
      let open = true;
      const relay = net.createServer((client) => {
        if (!open) return client.destroy();
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
      const relayUrl = new URL(PG_URL);
      relayUrl.hostname = '127.0.0.1';
      relayUrl.port = String((relay.address() as net.AddressInfo).port);
      const { schema } = await createPgSchema();
      const running = await startServer(
        loadConfig({
          NODE_ENV: 'test',
          PORT: '0',
          HOST: '127.0.0.1',
          SEED: 'none',
          LOG_LEVEL: 'silent',
          DATABASE_URL: relayUrl.href,
          DATABASE_SCHEMA: schema,
        }),
        { poolSize: 2 },
      );
      try {
        expect((await get(`${running.url}/health/ready`)).status).toBe(200);
        open = false;
        for (const sock of sockets) sock.destroy();
        // Probes answer from the background ping's state (every 0.5 s, 1.5 s timeout): the cut shows within ~2 s
        // (the listener may be reported down first, also a 503).
        let down = await get(`${running.url}/health/ready`);
        const unreachable = () => down.status === 503 && JSON.parse(down.text).database === 'unreachable';
        expect(
          await waitUntil(async () => {
            down = await get(`${running.url}/health/ready`);
            expect(down.status).toBe(503);
            return unreachable();
          }, 5000),
        ).toBe(true);
        expect(JSON.parse(down.text)).toMatchObject({ status: 'unavailable', database: 'unreachable' });
        expect((await get(`${running.url}/health/live`)).status).toBe(200);
        open = true;
        expect(await waitUntil(async () => (await get(`${running.url}/health/ready`)).status === 200)).toBe(true);
      } finally {
        await running.close().catch(() => {});
        relay.close();
      }
    },
  );
});
