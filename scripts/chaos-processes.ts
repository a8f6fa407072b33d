/**
 * `npm run chaos:processes` (issue 34 item 2): three server processes on one
 * PostgreSQL behind HAProxy (deploy/haproxy.local.cfg, health checks on
 * /health/ready), `--devices` live devices (real HTTP stream connections from
 * separate client processes, scripts/chaos-devices.ts) and two writers
 * through the balancer. One process is killed with SIGKILL mid-run. Devices
 * reconnect through the balancer and catch up from their checkpoints.
 * Checks: 0 lost (every device ends at the database's value), 0 doubled (no
 * device applies an older value after a newer one; a writer whose answer was
 * lost retries with the same assumed state, which the server turns into a
 * conflict rather than a second write), reconnect p99 printed (target < 5 s).
 *
 *   npm run chaos:processes -- [--devices 1000] [--clients 4] [--seconds 12] [--connect-seconds 120]
 */
import { parseArgs } from 'node:util';
import { fleetStart, percentile, sleep, startCluster, startDevices } from './chaos-cluster.ts';
import { push } from '../test/setup/sync.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '12' },
    // How long devices may take to connect before the run is given up (a loaded machine needs more).
    'connect-seconds': { type: 'string', default: '120' },
  },
});
const DEVICES = Math.min(20_000, Math.max(1, Number(values.devices)));
const CLIENTS = Math.min(16, Math.max(1, Number(values.clients)));
const SECONDS = Math.min(120, Math.max(4, Number(values.seconds)));
const CONNECT_MS = Math.min(1800, Math.max(10, Number(values['connect-seconds']))) * 1000;

const seqOf = (r: unknown) => Number(/^[A-Z]+-(\d+)$/.exec(String(r ?? ''))?.[1] ?? -1);

async function main(): Promise<number> {
  console.log(
    `chaos:processes: 3 processes behind HAProxy, ${DEVICES} devices in ${CLIENTS} client processes, writes for ${SECONDS} s, SIGKILL of one process after ${Math.round(SECONDS / 3)} s`,
  );
  const cluster = await startCluster(3, true, { AUTH_CACHE_MS: '500' });
  let devices: Awaited<ReturnType<typeof startDevices>> | null = null;
  try {
    const api = async (method: string, pathname: string, o: { token?: string; body?: unknown } = {}) => {
      const headers: Record<string, string> = {};
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      try {
        const res = await fetch(`${cluster.baseUrl}${pathname}`, {
          method,
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
      } catch {
        return { status: 0, body: null, headers: new Headers() };
      }
    };
    const { token } = await (cluster.procs[0] as NonNullable<(typeof cluster.procs)[0]>).login('mechanic@skyline.test');
    const start = await fleetStart({ api }, token, 2);
    const writers = start.aircraft.map((a, i) => ({
      tag: i ? 'CB' : 'CA',
      id: String(a.id),
      master: a,
      seq: 0,
      acked: 0,
      retried: 0,
      errors: 0,
      conflicts: 0,
    }));
    const t0 = performance.now();
    devices = await startDevices({
      baseUrl: cluster.baseUrl,
      token,
      total: DEVICES,
      processes: CLIENTS,
      ids: writers.map((w) => w.id),
      checkpoint: start.checkpoint,
      initial: {},
    });
    for (;;) {
      const rep = await devices.report({});
      const connected = rep.reduce((s, r) => s + r.connected, 0);
      if (connected >= DEVICES) break;
      if (performance.now() - t0 > CONNECT_MS)
        throw new Error(`only ${connected} of ${DEVICES} devices connected after ${CONNECT_MS / 1000} s`);
      await sleep(250);
    }
    console.log(
      `${DEVICES} devices connected in ${((performance.now() - t0) / 1000).toFixed(1)} s; per process: ${(await Promise.all(cluster.procs.map((p) => fetch(`${p.url}/metrics`).then((r) => r.text())))).map((m) => /^sync_streams_open (\d+)/m.exec(m)?.[1]).join(', ')} streams`,
    );

    // Writers: sequential pushes through the balancer; a failure is retried with the same assumed state.
    let writing = true;
    const writeLoop = async (w: (typeof writers)[number]) => {
      for (let n = 0; writing && n < 100_000; n++) {
        const marker = `${w.tag}-${w.seq + 1}`;
        const next = { ...w.master, registration: marker };
        const r = await push({ api }, token, 'aircraft', [{ assumedMasterState: w.master, newDocumentState: next }]);
        if (r.status === 200 && Array.isArray(r.body?.conflicts)) {
          if (r.body.conflicts.length === 0) {
            w.seq++;
            w.acked++;
            w.master = next;
          } else {
            // Our previous attempt did land (its answer was lost): the server kept one write, not two.
            const { _deleted, ...m } = r.body.conflicts[0];
            w.conflicts++;
            w.master = m;
            w.seq = Math.max(w.seq, seqOf(m.registration));
          }
        } else {
          if (w.errors < 3) console.log(`write ${marker}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          w.errors++;
          w.retried++;
          await sleep(50);
        }
        await sleep(20);
      }
    };
    const writes = Promise.all(writers.map(writeLoop));
    await sleep((SECONDS * 1000) / 3);
    const victim = cluster.procs[1] as NonNullable<(typeof cluster.procs)[1]>;
    const killAt = performance.now();
    await victim.kill();
    console.log(`SIGKILL process 1 at ${((killAt - t0) / 1000).toFixed(1)} s`);
    await sleep((SECONDS * 2000) / 3);
    writing = false;
    await writes;
    const expected = Object.fromEntries(writers.map((w) => [w.id, seqOf(w.master.registration)]));
    // Every device reaches the final values (bounded wait).
    let rep = await devices.report(expected);
    const w0 = performance.now();
    while (rep.some((r) => r.behind > 0 || r.connected < r.devices) && performance.now() - w0 < 30_000) {
      await sleep(250);
      rep = await devices.report(expected);
    }
    const failedBy: Record<string, number> = {};
    for (const r of rep) for (const [k, v] of Object.entries(r.failedBy)) failedBy[k] = (failedBy[k] ?? 0) + v;
    console.log(`device connection failures by cause: ${JSON.stringify(failedBy)}`);
    const behind = rep.reduce((s, r) => s + r.behind, 0);
    const regressions = rep.reduce((s, r) => s + r.regressions, 0);
    const reconnects = rep.flatMap((r) => r.reconnectMs);
    const connected = rep.reduce((s, r) => s + r.connected, 0);
    const p = (q: number) => Math.round(percentile(reconnects, q));
    console.log(
      `writes acknowledged ${writers.map((w) => w.acked).join(' + ')}, failed and retried ${writers.map((w) => w.errors).join(' + ')}, retries found already applied ${writers.map((w) => w.conflicts).join(' + ')}; final values ${writers.map((w) => w.master.registration).join(', ')}`,
    );
    console.log(
      `devices reconnected ${reconnects.length}: reconnect (stream lost → back and caught up) p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms (target p99 < 5 s)`,
    );
    console.log(
      `devices at the end: ${connected} connected, ${behind} behind the database (lost), ${regressions} older-after-newer (doubled/out of order)`,
    );
    const ok = behind === 0 && regressions === 0 && connected === DEVICES && reconnects.length > 0 && p(0.99) < 5000;
    console.log(ok ? 'PASS: 0 lost, 0 doubled' : 'FAIL');
    return ok ? 0 : 1;
  } finally {
    await devices?.stop();
    await cluster.stop();
  }
}

process.exit(await main());
