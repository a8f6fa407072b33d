/**
 * Server processes (start:prod) on one PostgreSQL schema behind a loopback
 * HAProxy (deploy/haproxy.local.cfg), and device processes
 * (scripts/chaos-devices.ts): the pieces `npm run chaos:processes` and
 * `npm run bench:fanout` are built from. Loopback addresses only.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgSchema, PG_URL } from '../test/setup/dialects.ts';
import { freePort } from '../test/setup/process.ts';
import { pullAll } from '../test/setup/sync.ts';
import { buildServer, type ProdProcess, startProd } from '../test/integration/ops/prod-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** HAProxy from Debian's packages; installed when missing (apt-get). */
export function ensureHaproxy(): string {
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  console.log('installing haproxy (apt-get)...');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
}

export interface Cluster {
  procs: ProdProcess[];
  /** The balancer's API base (or the single process's when there is no balancer). */
  baseUrl: string;
  url: string;
  /** With several balancers (`balancers` > 1), each one's API base; devices are spread over them. */
  baseUrls: string[];
  balancerPids: number[];
  /** Servers the balancers marked down and up again since they started (HAProxy's warnings on stderr), with the first reasons. */
  balancerEvents(): { down: number; up: number; reasons: string[] };
  schema: string;
  stop(): Promise<void>;
}

/**
 * `n` processes; with `balancer` they sit behind HAProxy (health checks on /health/ready). `balancers`
 * starts that many HAProxy instances in front of the same processes: one instance holds at most 9,900
 * connections here (two descriptors each, 20,000 per process and not raisable in this container).
 */
export async function startCluster(
  n: number,
  balancer: boolean,
  env: Record<string, string> = {},
  balancers = 1,
): Promise<Cluster> {
  buildServer();
  const schema = await createPgSchema();
  const procs: ProdProcess[] = [];
  const haproxies: ChildProcess[] = [];
  const events: Array<{ down: number; up: number; reasons: string[] }> = [];
  const balancerEvents = () => ({
    down: events.reduce((n, e) => n + e.down, 0),
    up: events.reduce((n, e) => n + e.up, 0),
    reasons: events.flatMap((e) => e.reasons),
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-chaos-'));
  const stop = async () => {
    for (const h of haproxies) h.kill('SIGTERM');
    await Promise.all(
      procs.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p.stop() : Promise.resolve())),
    );
    await schema.drop().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const base = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema.schema, LOG_LEVEL: 'warn', ...env };
    procs.push(await startProd({ ...base, SEED: 'fixtures' }));
    for (let i = 1; i < n; i++) procs.push(await startProd({ ...base, SEED: 'none', JOBS: 'off' }));
    if (!balancer) {
      const only = procs[0] as ProdProcess;
      return {
        procs,
        baseUrl: only.baseUrl,
        url: only.url,
        baseUrls: [only.baseUrl],
        balancerPids: [],
        balancerEvents,
        schema: schema.schema,
        stop,
      };
    }
    const urls: string[] = [];
    for (let b = 0; b < Math.max(1, balancers); b++) {
      const lb = await startHaproxy(
        procs.map((p) => new URL(p.url).host),
        tmp,
        `haproxy-${b}.cfg`,
      );
      haproxies.push(lb.child);
      events.push(lb.events);
      urls.push(lb.url);
    }
    const url = urls[0] as string;
    return {
      procs,
      baseUrl: `${url}/api/v1`,
      url,
      baseUrls: urls.map((u) => `${u}/api/v1`),
      balancerPids: haproxies.map((h) => h.pid ?? 0),
      balancerEvents,
      schema: schema.schema,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * HAProxy (deploy/haproxy.local.cfg) in front of `hosts` (127.0.0.1:port each), health checks on
 * /health/ready; resolves once every server is up in its eyes. `dir` holds the generated configuration.
 */
export async function startHaproxy(
  hosts: string[],
  dir: string,
  name = 'haproxy.cfg',
): Promise<{ url: string; child: ChildProcess; events: { down: number; up: number; reasons: string[] } }> {
  const bin = ensureHaproxy();
  const port = await freePort();
  // Each process twice: checked, and as an unchecked backup used only while every checked one is down
  // (deploy/haproxy.local.cfg, "fail open").
  const servers = hosts
    .flatMap((h, i) => [`    server app${i} ${h} check`, `    server open${i} ${h} backup`])
    .join('\n');
  const cfg = fs
    .readFileSync(path.join(root, 'deploy/haproxy.local.cfg'), 'utf8')
    .replace('@FRONT_PORT@', String(port))
    .replace('@SERVERS@', servers);
  const file = path.join(dir, name);
  fs.writeFileSync(file, cfg);
  const child = spawn(bin, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const events = { down: 0, up: 0, reasons: [] as string[] };
  child.stderr?.on('data', (d: Buffer) => {
    const text = d.toString();
    err = (err + text).slice(-2000);
    // "Server app/app0 is DOWN, reason: …" / "… is UP" (printed in -db mode); counted after startup below.
    events.down += text.match(/ is DOWN\b/g)?.length ?? 0;
    events.up += text.match(/ is UP\b/g)?.length ?? 0;
    for (const line of text.split('\n'))
      if (/ is DOWN\b/.test(line) && events.reasons.length < 5)
        events.reasons.push(line.replace(/^.*?Server /, '').trim());
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let t0 = performance.now(); ; ) {
      const ok = await fetch(`${url}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - t0 > 15_000) throw new Error(`haproxy not serving: ${err}`);
      await sleep(100);
    }
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }
  // Every server up in HAProxy's eyes (rise 2 × 500 ms).
  await sleep(1500);
  events.down = 0;
  events.up = 0;
  events.reasons.length = 0;
  return { url, child, events };
}

export interface DeviceReport {
  devices: number;
  connected: number;
  behind: number;
  regressions: number;
  connects: number;
  failures: number;
  failedBy: Record<string, number>;
  /** Catch-up pulls asked again after a 503 with Retry-After. */
  retried?: number;
  reconnectMs: number[];
  mem: number;
}

export interface DeviceGroup {
  children: ChildProcess[];
  report(expected: Record<string, number>): Promise<DeviceReport[]>;
  /** Per write (marker number → its start time): how long each device took to hold it or a later value. */
  latencies(starts: Record<number, number>): Promise<{ latencies: number[]; last: Record<number, number> }>;
  stop(): Promise<void>;
}

/** `total` devices over `processes` child processes, each opening its share of streams. */
export async function startDevices(o: {
  baseUrl: string;
  /** Device child process i connects through baseUrls[i % length] when given (several balancers). */
  baseUrls?: string[];
  token: string;
  /** Device n of a child uses tokens[n % length] when given (one session per device). */
  tokens?: string[];
  total: number;
  processes: number;
  ids: string[];
  checkpoint: unknown;
  initial: Record<string, number>;
}): Promise<DeviceGroup> {
  const children: ChildProcess[] = [];
  const per = Math.ceil(o.total / o.processes);
  for (let i = 0; i < o.processes; i++) {
    const count = Math.min(per, o.total - i * per);
    if (count <= 0) break;
    const arg = JSON.stringify({
      baseUrl: o.baseUrls?.length ? o.baseUrls[i % o.baseUrls.length] : o.baseUrl,
      token: o.token,
      tokens: o.tokens?.slice(i * per, i * per + count),
      count,
      ids: o.ids,
      checkpoint: o.checkpoint,
      initial: o.initial,
    });
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=2048', '--import', 'tsx', path.join(root, 'scripts/chaos-devices.ts'), arg],
      { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    children.push(child);
  }
  await Promise.all(children.map((c) => new Promise<void>((resolve) => c.once('message', () => resolve()))));
  const ask = <T>(c: ChildProcess, msg: unknown, type: string) =>
    new Promise<T>((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== type) return;
        c.off('message', on);
        resolve(m as T);
      };
      c.on('message', on);
      c.send(msg as never);
    });
  return {
    children,
    report: (expected) =>
      Promise.all(children.map((c) => ask<DeviceReport>(c, { type: 'report', expected }, 'report'))),
    latencies: async (starts) => {
      const parts = await Promise.all(
        children.map((c) =>
          ask<{ latencies: number[]; last: Record<number, number> }>(c, { type: 'latencies', starts }, 'latencies'),
        ),
      );
      const last: Record<number, number> = {};
      for (const p of parts)
        for (const [k, v] of Object.entries(p.last)) last[Number(k)] = Math.max(last[Number(k)] ?? 0, v);
      return { latencies: parts.flatMap((p) => p.latencies), last };
    },
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              c.once('exit', () => resolve());
              c.send({ type: 'stop' });
              setTimeout(() => c.kill('SIGKILL'), 3000);
            }),
        ),
      );
    },
  };
}

/** What a device starts from: the fleet as the mechanic pulls it, the aircraft to write, and the pull checkpoint. */
export async function fleetStart(api: Pick<ProdProcess, 'api'>, token: string, count: number) {
  const { docs, checkpoint } = await pullAll(api, token, 'aircraft');
  if (docs.length < count) throw new Error(`the fixtures hold ${docs.length} aircraft, ${count} needed`);
  return { aircraft: docs.slice(0, count).map(({ _deleted, ...d }) => d as Record<string, unknown>), checkpoint };
}

export const percentile = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] as number;
};
