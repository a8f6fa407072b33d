/**
 * `npm run bench:fanout` (issue 34 item 3): live devices on 1 and on 3 server
 * processes (PostgreSQL, behind HAProxy as `chaos:processes` runs them), writes
 * at a steady rate, and what it costs to deliver them.
 *
 * Each run starts a fresh cluster (scripts/chaos-cluster.ts), gives every device
 * a session of its own (rows inserted for the company's users, so streams of
 * different people and roles share the processes and the credential re-check
 * is real), opens N live streams from separate client processes
 * (scripts/chaos-devices.ts; 2,500 devices per process), then one writer
 * pushes an aircraft registration `FA-<n>` `--rate` times a second for
 * `--seconds`. Printed per run:
 *
 * - write-to-device latency p50 / p99 over every (device, write) pair, from the
 *   push's start to the device holding that value (or a later one), and the
 *   time until the LAST device held it (p50 / p99 over the writes);
 * - memory per idle connection: the server processes' RSS and V8 heap with
 *   all devices connected and idle, minus before they connected, over N;
 * - CPU per delivered change: the server processes' user+system CPU during the
 *   writes over the (device, write) pairs delivered, its kernel share (socket
 *   writes), and per write (one change to every stream: with P processes
 *   their sum, so the least the last device waits on one core is that over P);
 * - who had the cores during the writes (server, HAProxy, device clients, the
 *   rest of the machine) and which one bound the p99;
 * - where it breaks: devices that never connected or never caught up, writes
 *   the writer could not make at the rate, p99 over 250 ms.
 *
 * Not part of CI (a .ts under test/bench, not a .test.ts). Loopback only.
 *
 *   npm run bench:fanout -- [--runs 1x1000,1x5000,1x10000,3x3000,3x15000] [--rate 2] [--seconds 15]
 *
 * `--runs` takes `PxN` (P processes, N devices in all: `3x15000` is 5,000 per
 * process) or `PxNeach` (N devices per process: `3x5000each` is 15,000 in all).
 * The server processes run with MALLOC_ARENA_MAX=2 as the image does, unless
 * the environment sets another value.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fleetStart, percentile, sleep, startCluster, startDevices } from '../../scripts/chaos-cluster.ts';
import { push } from '../setup/sync.ts';
import { deviceSessions } from './fanout-sessions.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1x1000,1x5000,1x10000,3x1000,3x5000,3x10000,3x15000' },
    rate: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '15' },
    'per-client': { type: 'string', default: '2500' },
    'connect-timeout': { type: 'string', default: '240' },
    /** Also write V8 heap snapshots of the server processes before the devices connect and once they are idle. */
    snapshot: { type: 'string' },
    /** Write a V8 CPU profile of each server process into this folder (node --cpu-prof; written when it stops). */
    'cpu-prof': { type: 'string' },
  },
});
/** `PxN`: P processes, N devices in all; `PxNeach`: P processes, N devices each (P × N in all). */
const RUNS = values.runs.split(',').map((r) => {
  const m = /^\s*(\d+)x(\d+)(each)?\s*$/.exec(r);
  if (!m) throw new Error(`--runs: "${r}" is neither PxN (N devices in all) nor PxNeach (N devices per process)`);
  const processes = Math.min(5, Math.max(1, Number(m[1])));
  const devices = Number(m[2]) * (m[3] ? processes : 1);
  return { processes, devices: Math.min(30_000, Math.max(1, devices)) };
});
const RATE = Math.min(50, Math.max(0.2, Number(values.rate)));
const SECONDS = Math.min(120, Math.max(3, Number(values.seconds)));
const PER_CLIENT = Math.max(100, Number(values['per-client']));
const CONNECT_TIMEOUT_MS = Number(values['connect-timeout']) * 1000;
const SNAPSHOT_DIR = values.snapshot ?? null;
if (SNAPSHOT_DIR) fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
const CPU_PROF_DIR = values['cpu-prof'] ?? null;
if (CPU_PROF_DIR) fs.mkdirSync(CPU_PROF_DIR, { recursive: true });
/**
 * A balancer holds at most 9,900 proxied connections here (deploy/haproxy.local.cfg: 20,000 descriptors, two per
 * connection). A device catching up holds two (its stream and its pull, which waits in the server's pull gate while
 * a herd connects), so one balancer takes 4,000 devices: at 8,000, 5,000 devices could fill it while they connect.
 */
const PER_BALANCER = 4000;
/** /proc/<pid>/stat CPU times are in clock ticks, 1/100 s on Linux. */
const TICK = 100;

const now = () => performance.timeOrigin + performance.now();
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

/** User and system (kernel) CPU seconds of a process, from /proc (Linux); 0 once it is gone. */
function cpuSplit(pid: number): { user: number; sys: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICK, sys: Number(fields[12]) / TICK };
  } catch {
    return { user: 0, sys: 0 };
  }
}
const cpuSeconds = (pid: number) => {
  const c = cpuSplit(pid);
  return c.user + c.sys;
};
/** The whole machine's busy and total CPU seconds (every core), from /proc/stat: what else ran beside the bench. */
function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // idle and iowait
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / TICK, total: total / TICK };
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Open sockets of a process (its descriptors that are sockets). */
function socketCount(pid: number): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`))
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed meanwhile
    }
  return n;
}

/** 503s the server process answered itself (its own metrics), by route: apart from the balancer's. */
async function server503s(url: string): Promise<Record<string, number>> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const by: Record<string, number> = {};
  for (const m of text.matchAll(/^http_requests_total\{(.*)\} (\S+)$/gm)) {
    const labels = m[1] ?? '';
    if (!labels.includes('status="503"')) continue;
    const route = /route="([^"]*)"/.exec(labels)?.[1] ?? '?';
    by[route] = (by[route] ?? 0) + Number(m[2]);
  }
  return by;
}

async function heapBytes(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? 0);
}

interface RunResult {
  processes: number;
  devices: number;
  connected: number;
  connectS: number;
  writes: number;
  ratePerS: number;
  p50: number;
  p99: number;
  lastP50: number;
  lastP99: number;
  missing: number;
  kbPerConnRss: number;
  kbPerConnHeap: number;
  cpuUsPerDelivery: number;
  /** Share of the server CPU spent in the kernel (socket writes). */
  kernelShare: number;
  /** Server CPU per write (ms): one change to every stream, the least a push's answer to the last device can take. */
  cpuMsPerWrite: number;
  cpuS: number;
  haproxyCpuS: number;
  loadBefore: string;
  loadAfter: string;
  breaks: string[];
}

async function run(processes: number, devicesWanted: number): Promise<RunResult> {
  const balancers = Math.ceil(devicesWanted / PER_BALANCER);
  const clients = Math.max(2, Math.ceil(devicesWanted / PER_CLIENT));
  console.log(
    `\n== ${devicesWanted} devices on ${processes} process(es), ${balancers} HAProxy, ${clients} client processes, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}; load ${load()}`,
  );
  const loadBefore = load();
  // --expose-gc: the server collects on SIGUSR2 (server/src/main.ts), so memory is read without garbage.
  const nodeOptions = ['--expose-gc'];
  if (SNAPSHOT_DIR) nodeOptions.push('--heapsnapshot-signal=SIGTTIN', `--diagnostic-dir=${SNAPSHOT_DIR}`);
  const nodeArgs = CPU_PROF_DIR ? `--cpu-prof --cpu-prof-dir=${CPU_PROF_DIR}` : '';
  const cluster = await startCluster(
    processes,
    true,
    {
      AUTH_CACHE_MS: '500',
      NODE_OPTIONS: nodeOptions.join(' '),
      NODE_ARGS: nodeArgs,
      // As the image runs the server (Dockerfile); MALLOC_ARENA_MAX=8 in the environment compares with glibc's default.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    },
    balancers,
  );
  let devices: Awaited<ReturnType<typeof startDevices>> | null = null;
  const breaks: string[] = [];
  try {
    const first = cluster.procs[0] as NonNullable<(typeof cluster.procs)[0]>;
    const { token } = await first.login('mechanic@skyline.test');
    const api = first.api;
    const start = await fleetStart({ api }, token, 1);
    const aircraft = start.aircraft[0] as Record<string, unknown>;
    const tokens = await deviceSessions(cluster.schema, 'mechanic@skyline.test', devicesWanted);
    const pids = cluster.procs.map((p) => p.child.pid as number);
    const collect = async () => {
      for (const pid of pids) process.kill(pid, 'SIGUSR2');
      await sleep(1500);
    };
    const snapshot = async () => {
      if (!SNAPSHOT_DIR) return;
      for (const pid of pids) process.kill(pid, 'SIGTTIN');
      await sleep(5000 + devicesWanted * 5);
    };
    await sleep(1000);
    await collect();
    const rss0 = pids.map(rssBytes);
    const heap0 = await Promise.all(cluster.procs.map((p) => heapBytes(p.url)));
    await snapshot();

    const t0 = performance.now();
    devices = await startDevices({
      baseUrl: cluster.baseUrl,
      baseUrls: cluster.baseUrls,
      token,
      tokens,
      total: devicesWanted,
      processes: clients,
      ids: [String(aircraft.id)],
      checkpoint: start.checkpoint,
      initial: {},
    });
    let connected = 0;
    for (;;) {
      const rep = await devices.report({});
      connected = rep.reduce((s, r) => s + r.connected, 0);
      if (connected >= devicesWanted) break;
      if (performance.now() - t0 > CONNECT_TIMEOUT_MS) {
        const failedBy: Record<string, number> = {};
        for (const r of rep) for (const [k, v] of Object.entries(r.failedBy)) failedBy[k] = (failedBy[k] ?? 0) + v;
        breaks.push(
          `only ${connected} of ${devicesWanted} connected after ${CONNECT_TIMEOUT_MS / 1000} s (failures ${JSON.stringify(failedBy)})`,
        );
        break;
      }
      await sleep(500);
    }
    const connectS = (performance.now() - t0) / 1000;
    const perProcess = await Promise.all(
      cluster.procs.map((p) =>
        fetch(`${p.url}/metrics`)
          .then((r) => r.text())
          .then((m) => /^sync_streams_open (\d+)/m.exec(m)?.[1]),
      ),
    );
    const failedBy: Record<string, number> = {};
    let retried = 0;
    for (const r of await devices.report({})) {
      for (const [k, v] of Object.entries(r.failedBy)) failedBy[k] = (failedBy[k] ?? 0) + v;
      retried += r.retried ?? 0;
    }
    const answered503: Record<string, number> = {};
    for (const by of await Promise.all(cluster.procs.map((p) => server503s(p.url))))
      for (const [k, v] of Object.entries(by)) answered503[k] = (answered503[k] ?? 0) + v;
    const lb = cluster.balancerEvents();
    console.log(
      `${connected} connected in ${connectS.toFixed(1)} s; streams per process ${perProcess.join(', ')}; connection failures ${JSON.stringify(failedBy)}; catch-up pulls asked again after 503 + Retry-After ${retried}; ` +
        `503s answered by the servers ${JSON.stringify(answered503)}; HAProxy marked a server down ${lb.down} times (up ${lb.up})${lb.reasons.length ? ` ${JSON.stringify(lb.reasons)}` : ''}; load ${load()}`,
    );
    // Idle: every device connected, no writes; let the connect burst's garbage go, and the catch-up pulls'
    // keep-alive connections (HAProxy keeps them for reuse; the server closes them after 5 s idle), which are
    // not streams.
    await sleep(6000);
    await collect();
    const rss1 = pids.map(rssBytes);
    const heap1 = await Promise.all(cluster.procs.map((p) => heapBytes(p.url)));
    await snapshot();
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const kbPerConnRss = (sum(rss1) - sum(rss0)) / 1024 / Math.max(1, connected);
    const kbPerConnHeap = (sum(heap1) - sum(heap0)) / 1024 / Math.max(1, connected);
    // What the memory is spread over: the processes' TCP sockets (streams, plus pool and idle connections).
    const sockets = sum(pids.map(socketCount));
    console.log(`idle: ${sockets} server sockets for ${connected} streams`);

    // Steady writes through the balancer, one at a time, started every 1/RATE s.
    const cpu0 = pids.map(cpuSplit);
    const hcpu0 = cluster.balancerPids.map(cpuSeconds);
    const devicePids = devices.children.map((c) => c.pid ?? 0);
    const dcpu0 = devicePids.map(cpuSeconds);
    const m0 = machineCpu();
    const starts: Record<number, number> = {};
    /** When each write's push was answered: delivery is also measured from there, apart from the push's own time. */
    const answered: Record<number, number> = {};
    const pushMs: number[] = [];
    let master = aircraft;
    let seq = 0;
    let failed = 0;
    const interval = 1000 / RATE;
    const w0 = performance.now();
    for (let k = 0; performance.now() - w0 < SECONDS * 1000; k++) {
      const due = w0 + k * interval;
      if (performance.now() < due) await sleep(due - performance.now());
      const next = { ...master, registration: `FA-${seq + 1}` };
      const at = now();
      const r = await push({ api }, token, 'aircraft', [{ assumedMasterState: master, newDocumentState: next }]);
      pushMs.push(now() - at);
      if (r.status === 200 && Array.isArray(r.body?.conflicts) && r.body.conflicts.length === 0) {
        seq++;
        starts[seq] = at;
        answered[seq] = at + (pushMs.at(-1) ?? 0);
        master = next;
      } else failed++;
    }
    const writeS = (performance.now() - w0) / 1000;
    // Every device holds the last value (bounded wait).
    const expected = { [String(aircraft.id)]: seq };
    let rep = await devices.report(expected);
    for (const d0 = performance.now(); rep.some((r) => r.behind > 0) && performance.now() - d0 < 30_000; ) {
      await sleep(250);
      rep = await devices.report(expected);
    }
    const m1 = machineCpu();
    const cpu1 = pids.map(cpuSplit);
    const userS = sum(cpu1.map((c) => c.user)) - sum(cpu0.map((c) => c.user));
    const sysS = sum(cpu1.map((c) => c.sys)) - sum(cpu0.map((c) => c.sys));
    const cpuS = userS + sysS;
    const haproxyCpuS = sum(cluster.balancerPids.map(cpuSeconds)) - sum(hcpu0);
    const deviceCpuS = sum(devicePids.map(cpuSeconds)) - sum(dcpu0);
    const windowS = (performance.now() - w0) / 1000;
    const cores = os.cpus().length;
    const machineBusyS = m1.busy - m0.busy;
    const otherS = Math.max(0, machineBusyS - cpuS - haproxyCpuS - deviceCpuS);
    const behind = rep.reduce((s, r) => s + r.behind, 0);
    const { latencies, last } = await devices.latencies(starts);
    const afterAnswer = (await devices.latencies(answered)).latencies;
    const missing = seq * connected - latencies.length;
    const lasts = Object.values(last);
    const res: RunResult = {
      processes,
      devices: devicesWanted,
      connected,
      connectS,
      writes: seq,
      ratePerS: seq / writeS,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      lastP50: percentile(lasts, 0.5),
      lastP99: percentile(lasts, 0.99),
      missing,
      kbPerConnRss,
      kbPerConnHeap,
      cpuUsPerDelivery: (cpuS * 1e6) / Math.max(1, latencies.length),
      kernelShare: sysS / Math.max(1e-9, cpuS),
      cpuMsPerWrite: (cpuS * 1000) / Math.max(1, seq),
      cpuS,
      haproxyCpuS,
      loadBefore,
      loadAfter: load(),
      breaks,
    };
    if (failed) breaks.push(`${failed} writes failed`);
    if (res.ratePerS < RATE * 0.9) breaks.push(`writer reached ${res.ratePerS.toFixed(2)}/s of ${RATE}/s`);
    if (behind) breaks.push(`${behind} devices never caught up (30 s)`);
    if (missing > 0) breaks.push(`${missing} (device, write) deliveries missing`);
    if (res.p99 >= 250) breaks.push(`p99 ${Math.round(res.p99)} ms >= 250 ms`);
    if (res.kbPerConnRss >= 30) breaks.push(`${res.kbPerConnRss.toFixed(1)} kB RSS per idle connection >= 30`);
    console.log(
      `writes ${seq} at ${res.ratePerS.toFixed(2)}/s (push answered p50 ${percentile(pushMs, 0.5).toFixed(0)} ms, p99 ${percentile(pushMs, 0.99).toFixed(0)} ms); latency p50 ${res.p50.toFixed(0)} ms p99 ${res.p99.toFixed(0)} ms (after the push's answer p50 ${percentile(afterAnswer, 0.5).toFixed(0)} ms p99 ${percentile(afterAnswer, 0.99).toFixed(0)} ms); last device p50 ${res.lastP50.toFixed(0)} ms p99 ${res.lastP99.toFixed(0)} ms; ` +
        `idle ${kbPerConnRss.toFixed(1)} kB RSS (${kbPerConnHeap.toFixed(1)} kB heap) per connection; server CPU ${cpuS.toFixed(1)} s = ${res.cpuUsPerDelivery.toFixed(1)} µs per delivery, HAProxy ${haproxyCpuS.toFixed(1)} s; load ${res.loadAfter}` +
        (breaks.length ? `\n   BREAKS: ${breaks.join('; ')}` : ''),
    );
    // Where the time went while writing: who had the cores, and how much server CPU one write to every stream takes.
    const pct = (x: number) => `${((100 * x) / windowS).toFixed(0)}%`;
    const afterP99 = percentile(afterAnswer, 0.99);
    // Each process writes to its own streams: the last device waits for the busiest one, about the sum over P.
    const perProcessMs = res.cpuMsPerWrite / processes;
    console.log(
      `   CPU during the ${windowS.toFixed(1)} s of writes (share of one core): server ${pct(cpuS)} (user ${userS.toFixed(1)} s, kernel ${sysS.toFixed(1)} s = ${(100 * res.kernelShare).toFixed(0)}%), ` +
        `HAProxy ${pct(haproxyCpuS)}, device clients ${pct(deviceCpuS)}, everything else (PostgreSQL, other work) ${pct(otherS)}; machine ${((100 * machineBusyS) / (m1.total - m0.total || 1)).toFixed(0)}% busy of ${cores} cores`,
    );
    console.log(
      `   server CPU per write ${perProcessMs.toFixed(0)} ms per process (${connected} streams on ${processes}): a push's answer to the last device takes at least that; ` +
        `delivery p99 after the answer ${afterP99.toFixed(0)} ms = ${perProcessMs > 0 ? (afterP99 / perProcessMs).toFixed(1) : '-'} × it` +
        (res.p99 >= 250
          ? perProcessMs >= 0.6 * afterP99
            ? ' (bound by the server process: its CPU per write is most of the p99)'
            : machineBusyS / (m1.total - m0.total || 1) > 0.85
              ? ' (bound by the machine: the cores were busy with the other processes too)'
              : ' (not CPU-bound: the wait is elsewhere, the balancer or the clients)'
          : ''),
    );
    return res;
  } finally {
    await devices?.stop();
    await cluster.stop();
  }
}

const results: RunResult[] = [];
for (const r of RUNS) {
  try {
    results.push(await run(r.processes, r.devices));
  } catch (err) {
    console.log(`run ${r.processes}x${r.devices} failed: ${(err as Error).message}`);
  }
}
console.log(
  `\nbench:fanout (writes ${RATE}/s for ${SECONDS} s; latency from push start; CPU = server processes)\n` +
    '| Processes | Devices | Connected (s) | Writes/s | p50 / p99 ms | last device p50 / p99 ms | kB per idle conn (RSS / heap) | CPU µs per delivery (kernel share) | Server CPU ms per write | Load before → after | Breaks |\n' +
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
);
for (const r of results)
  console.log(
    `| ${r.processes} | ${r.devices} | ${r.connected} (${r.connectS.toFixed(0)}) | ${r.ratePerS.toFixed(2)} | ${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} | ${r.lastP50.toFixed(0)} / ${r.lastP99.toFixed(0)} | ${r.kbPerConnRss.toFixed(1)} / ${r.kbPerConnHeap.toFixed(1)} | ${r.cpuUsPerDelivery.toFixed(1)} (${(100 * r.kernelShare).toFixed(0)}%) | ${r.cpuMsPerWrite.toFixed(0)} | ${r.loadBefore} → ${r.loadAfter} | ${r.breaks.join('; ') || 'none'} |`,
  );
process.exit(0);
