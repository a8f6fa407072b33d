/**
 * `npm run bench:stream-memory` (issue 34): what one idle live stream costs a
 * server process. One start:prod process on PostgreSQL (its own schema of
 * TEST_DATABASE_URL), one session per device (test/bench/fanout-sessions.ts),
 * then N stream connections (`GET /sync/stream.json?collections=fleet`) from a
 * separate client process that only reads. The server runs with `--expose-gc`
 * and collects on SIGUSR2 (server/src/main.ts); its V8 heap (`/metrics`) and
 * RSS (`/proc`) are read after a full collection before the devices connect and
 * once they are all connected and idle; the difference over N is the cost per
 * idle connection. Each size is measured on a fresh process.
 *
 * `--floor` also measures, before the app server at each size, the same
 * client against a bare `node:http` process writing the same frames
 * (bare-stream-server.ts: no Express, no database), and prints the
 * difference: what is Node's and what is ours. `--node-options="..."` adds
 * flags to the server process (both kinds).
 *
 * `--snapshot DIR` also writes a V8 heap snapshot of the server with the
 * devices idle (signal SIGTTIN, `--heapsnapshot-signal`) for
 * scripts/heap-classes.mjs to break down.
 *
 * Not part of CI. Loopback only.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/fanout_x npm run bench:stream-memory -- [--devices 1000,5000] [--floor] [--snapshot /tmp/snap]
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sleep, startCluster } from '../../scripts/chaos-cluster.ts';
import { deviceSessions } from './fanout-sessions.ts';

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

/** Client mode: open one stream per token and keep reading; report to the parent once every stream said `resync`. */
async function clientMain(): Promise<void> {
  // The tokens come over IPC: thousands of them do not fit in a command line (E2BIG).
  const { baseUrl, tokens } = await new Promise<{ baseUrl: string; tokens: string[] }>((resolve) =>
    process.once('message', (m: { baseUrl: string; tokens: string[] }) => resolve(m)),
  );
  let open = 0;
  let failed = 0;
  const report = () => process.send?.({ type: 'progress', open, failed });
  const connect = (token: string) =>
    new Promise<void>((resolve) => {
      const req = http.get(
        `${baseUrl}/sync/stream.json?collections=fleet`,
        { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) {
            failed++;
            res.resume();
            return resolve();
          }
          let seen = false;
          res.on('data', () => {
            if (!seen) {
              seen = true;
              open++;
              resolve();
            }
          });
          res.on('end', () => resolve());
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
    });
  // A few hundred handshakes at a time: the process under test is measured idle, not while flooded.
  for (let i = 0; i < tokens.length; i += 200) {
    await Promise.all(tokens.slice(i, i + 200).map(connect));
    report();
  }
  report();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stop') process.exit(0);
  });
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** V8 heap in use (after a collection: live objects) and committed (what RSS holds for it). */
async function heapBytes(url: string): Promise<{ used: number; committed: number }> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  return {
    used: Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? 0),
    committed: Number(/^nodejs_heap_size_total_bytes (\S+)/m.exec(text)?.[1] ?? 0),
  };
}

/** The process under test: its pid (RSS, signals), its `/metrics` URL, where the clients connect, one token each. */
interface Target {
  pid: number;
  url: string;
  baseUrl: string;
  tokens: string[];
  stop(): Promise<void>;
}

/** One start:prod process on PostgreSQL with one session per device. */
async function appServer(devices: number, options: string[]): Promise<Target> {
  // As the image runs the server (Dockerfile); MALLOC_ARENA_MAX=8 in the environment compares with glibc's default.
  const cluster = await startCluster(1, false, {
    NODE_OPTIONS: options.join(' '),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  });
  try {
    const proc = cluster.procs[0] as NonNullable<(typeof cluster.procs)[0]>;
    const tokens = await deviceSessions(cluster.schema, 'mechanic@skyline.test', devices);
    return { pid: proc.child.pid as number, url: proc.url, baseUrl: proc.baseUrl, tokens, stop: cluster.stop };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/** `--floor`: a bare node:http process writing the same frames (bare-stream-server.ts); tokens are not checked. */
async function bareServer(devices: number, options: string[]): Promise<Target> {
  const child = spawn(process.execPath, [...options, '--import', 'tsx', fileURLToPath(BARE)], {
    env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return {
    pid: child.pid as number,
    url,
    baseUrl: url,
    tokens: Array.from({ length: devices }, (_, i) => `bare-${i}`),
    async stop() {
      child.kill('SIGKILL');
    },
  };
}
const BARE = new URL('./bare-stream-server.ts', import.meta.url);

async function measure(
  devices: number,
  snapshotDir: string | null,
  floor: boolean,
): Promise<{ heapKb: number; rssKb: number }> {
  const options = ['--expose-gc', ...NODE_EXTRA];
  if (snapshotDir) options.push('--heapsnapshot-signal=SIGTTIN', `--diagnostic-dir=${snapshotDir}`);
  const target = floor ? await bareServer(devices, options) : await appServer(devices, options);
  const { pid, tokens } = target;
  const proc = { url: target.url, baseUrl: target.baseUrl };
  let client: ChildProcess | null = null;
  try {
    const settle = async () => {
      process.kill(pid, 'SIGUSR2');
      await sleep(1500);
      process.kill(pid, 'SIGUSR2');
      await sleep(500);
    };
    // Warm the stream path once (code compiled, caches made) so the first stream's one-off costs are in the baseline.
    client = fork(fileURLToPath(import.meta.url), ['--client'], {
      execArgv: ['--import', 'tsx'],
    });
    client.send({ baseUrl: proc.baseUrl, tokens: tokens.slice(0, 5) });
    await new Promise<void>((resolve) =>
      client?.on('message', (m: { open: number; failed: number }) => {
        if (m.open + m.failed >= 5) resolve();
      }),
    );
    client.send({ type: 'stop' });
    await sleep(6000);
    await settle();
    const rss0 = rssBytes(pid);
    const heap0 = await heapBytes(proc.url);
    if (snapshotDir) {
      process.kill(pid, 'SIGTTIN');
      await sleep(5000);
    }
    const t0 = performance.now();
    client = fork(fileURLToPath(import.meta.url), ['--client'], {
      execArgv: ['--max-old-space-size=2048', '--import', 'tsx'],
    });
    client.send({ baseUrl: proc.baseUrl, tokens });
    const { open, failed } = await new Promise<{ open: number; failed: number }>((resolve) =>
      client?.on('message', (m: { open: number; failed: number }) => {
        if (m.open + m.failed >= devices) resolve(m);
      }),
    );
    const connectS = (performance.now() - t0) / 1000;
    // Idle: the handshakes' garbage and keep-alive timers gone (the server's keep-alive timeout is 5 s).
    await sleep(6000);
    await settle();
    const rss1 = rssBytes(pid);
    const heap1 = await heapBytes(proc.url);
    if (snapshotDir) {
      process.kill(pid, 'SIGTTIN');
      await sleep(Math.max(5000, devices * 10));
    }
    const heapKb = (heap1.used - heap0.used) / 1024 / Math.max(1, open);
    const committedKb = (heap1.committed - heap0.committed) / 1024 / Math.max(1, open);
    const rssKb = (rss1 - rss0) / 1024 / Math.max(1, open);
    const line = `${floor ? 'bare node:http' : 'app server'}, ${devices} devices (${open} open, ${failed} failed, ${connectS.toFixed(1)} s): heap ${heapKb.toFixed(1)} kB (committed ${committedKb.toFixed(1)} kB), RSS ${rssKb.toFixed(1)} kB per idle connection (heap ${(heap0.used / 1e6).toFixed(1)} → ${(heap1.used / 1e6).toFixed(1)} MB, committed ${(heap0.committed / 1e6).toFixed(1)} → ${(heap1.committed / 1e6).toFixed(1)} MB, RSS ${(rss0 / 1e6).toFixed(1)} → ${(rss1 / 1e6).toFixed(1)} MB); load ${load()}`;
    console.log(line);
    return { heapKb, rssKb };
  } finally {
    client?.kill('SIGKILL');
    await target.stop();
  }
}

/** `--node-options="..."`: more flags for the server process (e.g. `--max-semi-space-size=1`). */
const NODE_EXTRA =
  process.argv[2] === '--client'
    ? []
    : ((
        parseArgs({ strict: false, options: { 'node-options': { type: 'string' } } }).values['node-options'] as
          | string
          | undefined
      )
        ?.split(' ')
        .filter(Boolean) ?? []);

if (process.argv[2] === '--client') await clientMain();
else {
  const { values } = parseArgs({
    options: {
      'node-options': { type: 'string' },
      devices: { type: 'string', default: '1000' },
      snapshot: { type: 'string' },
      /** Also measure the bare node:http floor (bare-stream-server.ts) at each size, before the app server. */
      floor: { type: 'boolean', default: false },
    },
  });
  if (values.snapshot) fs.mkdirSync(values.snapshot, { recursive: true });
  console.log(`bench:stream-memory; load ${load()}`);
  for (const n of values.devices.split(',').map(Number)) {
    if (values.floor) {
      const bare = await measure(n, values.snapshot ?? null, true);
      const app = await measure(n, values.snapshot ?? null, false);
      console.log(
        `  ${n} streams, kB per idle connection, app server minus bare node:http: heap ${(app.heapKb - bare.heapKb).toFixed(1)}, RSS ${(app.rssKb - bare.rssKb).toFixed(1)}`,
      );
    } else await measure(n, values.snapshot ?? null, false);
  }
  process.exit(0);
}
