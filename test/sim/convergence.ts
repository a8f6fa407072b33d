/**
 * Convergence simulation (issue 14, item 4): N client-core devices, each in its
 * own process, against a real server process; a seeded random schedule of M
 * operations (online and offline edits of the same flights and aircraft, flight
 * creation, flight.confirm / flight.dispatch and mel.raise / mel.extend /
 * mel.close commands, partitions, reconnects) and one SIGKILL of the server in
 * the middle, restarted on the same database and port. At the end every device
 * must hold exactly what a pull as its user returns, every command must be
 * decided exactly once, and the server's invariants must hold.
 * Confirms are billed (a rate for every aircraft): each LANDED flight's
 * entries sum to its cost and hold one charge set, every other flight's sum
 * to 0, every balance equals its entries (CONTRACT 6); the duty running
 * totals equal a recount from the flights (issue 30).
 *
 * Cluster mode (issue 34 item 4, PostgreSQL only): three server processes on
 * one schema behind HAProxy (deploy/haproxy.local.cfg, health checks on
 * /health/ready); the devices talk to the balancer. Mid-run one process is
 * killed with SIGKILL (restarted on its port, so the balancer takes it back)
 * and PostgreSQL is restarted (`pg_ctlcluster restart`) while devices push, so
 * pushes meet 503s; PostgreSQL is always left running.
 *
 *   npm run sim:convergence -- [--dialect sqlite|postgres] [--devices 10] [--ops 1000] [--seed S]
 *   npm run sim:convergence -- --cluster [--pg-restarts 1] [--devices 50] [--ops 10000]
 */
import { uuidv7 } from '@ops/shared';
import { flightCharges, type Seats } from '@ops/shared/rules/billing/charges';
import { taxBasisPoints } from '@ops/shared/rules/billing/money';
import { billingSettingsOf, ratesOf } from '../../server/src/areas/billing/billing.repository.ts';
import { recountLedger } from '../integration/billing/recount.ts';
import { recountDutyOn } from '../integration/duty/recount.ts';
import { Device } from '../setup/device.ts';
import type { TestDialect } from '../setup/dialects.ts';
import { type ServerProcess, spawnServer } from '../setup/process.ts';
import { startTestServer, type TestServer } from '../setup/server.ts';
import { pullAll } from '../setup/sync.ts';
import { ensurePostgresRunning, restartPostgres } from '../integration/ops/pg-cluster.ts';
import { buildServer } from '../integration/ops/prod-process.ts';
import { startHaproxy } from '../../scripts/chaos-cluster.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';

export interface SimOptions {
  dialect: TestDialect;
  devices: number;
  ops: number;
  seed: number;
  log?: (line: string) => void;
  /** Three server processes behind HAProxy (PostgreSQL only), one SIGKILLed mid-run. */
  cluster?: boolean;
  /** PostgreSQL restarts (pg_ctlcluster) during the second half of the schedule (PostgreSQL only). */
  pgRestarts?: number;
}

export interface SimResult {
  seed: number;
  devices: number;
  operations: number;
  durationMs: number;
  /** PostgreSQL restarts done and pushes answered 503 by a server (seen by the devices). */
  pgRestarts: number;
  commands: number;
  accepted: number;
  rejected: number;
  edits: number;
  editRejections: number;
  violations: string[];
  lostWrites: string[];
  mismatches: string[];
  line: string;
}

/** mulberry32: small, fast, reproducible. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
  };
}

const USERS = [
  'mechanic@skyline.test',
  'dispatch@skyline.test',
  'pilot@skyline.test',
  'ops@skyline.test',
  'instructor@skyline.test',
  'admin@skyline.test',
  'student@skyline.test',
  'ground@skyline.test',
];
/** How long the devices get to push what they queued once everyone is back online (SIM_DRAIN_MS; a loaded machine needs more). */
const DRAIN_MS = Number(process.env.SIM_DRAIN_MS ?? 120_000);
/** The drain's limit in all, however it moves. */
const DRAIN_MAX_MS = Number(process.env.SIM_DRAIN_MAX_MS ?? 600_000);
/** The drain stopped moving (thrown out of `until`). */
class Stall extends Error {
  constructor(readonly left: number) {
    super(`drain stalled with ${left} queued`);
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Devices signing in and taking their first sync at the same time (SIM_OPEN). */
const OPEN_AT_ONCE = Math.max(1, Number(process.env.SIM_OPEN ?? 5));

/**
 * `f` over `xs`, at most `limit` at a time, each result handed to `done` as it comes (so the caller can clean up
 * what was made before a failure); after the first failure no new call starts, and it is thrown once the calls
 * in flight have ended.
 */
async function eachLimit<T, R>(
  xs: readonly T[],
  limit: number,
  f: (x: T) => Promise<R>,
  done: (r: R, i: number) => void,
): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < xs.length && failure === null) {
      const i = next++;
      try {
        done(await f(xs[i] as T), i);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
  if (failure !== null) throw failure;
}

/** An acknowledged local edit: `marker` written into `field`, over `prev` as the device saw it. */
interface Edit {
  device: number;
  collection: 'flights' | 'aircraft';
  id: string;
  field: 'remarks' | 'registration';
  marker: string;
  prev: string | null;
}

interface Cmd {
  device: number;
  id: string;
  name: string;
  args: Record<string, unknown>;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return true;
    await sleep(stepMs);
  }
  return false;
}

/** Canonical JSON (keys sorted at every depth), without RxDB's own `_` fields at the top. */
const canon = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // `derived_at` (an MEL item's status computed at read time) is the server's clock at each pull, not state.
    return Object.fromEntries(
      Object.keys(o)
        .filter((k) => k !== 'derived_at')
        .sort()
        .map((k) => [k, canon(o[k])]),
    );
  }
  return v;
};
const strip = (d: Record<string, unknown>) =>
  JSON.stringify(canon(Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith('_')))));

export async function runConvergence(opts: SimOptions): Promise<SimResult> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const rnd = prng(opts.seed);
  log(`seed: ${opts.seed} (${opts.dialect}, ${opts.devices} devices, ${opts.ops} operations)`);

  // Seed the fixtures in-process (it also gives direct DB access for the invariants), then run the real server as its own process.
  const s: TestServer = await startTestServer(opts.dialect);
  let server: ServerProcess | null = null;
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | null = null;
  const devices: Device[] = [];
  const cluster: { procs: ServerProcess[]; haproxy?: ChildProcess; tmp?: string } = { procs: [] };
  try {
    const company = s.refs.companies.skyline;
    const aircraftIds = Object.values(s.refs.aircraft);
    // One aircraft starts with an expired MEL item: its dispatches must be refused until the item is closed.
    const { insertExpiredMel } = await import('../integration/flights/helpers.ts');
    await insertExpiredMel(s, company, aircraftIds[0] as string, { ata: '33', category: 'C', title: 'Landing light' });
    // Billed confirms: 100.00 an hour on every aircraft (the fixed data has no rates).
    await s.ctx.db
      .insertInto('billing_rates')
      .values(
        aircraftIds.map((id) => ({
          id: uuidv7(),
          company_id: company,
          kind: 'aircraft',
          target_id: id as string,
          amount: 10_000,
          created: 1,
          modified: 1,
        })),
      )
      .execute();
    const types = await s.ctx.db
      .selectFrom('flight_types')
      .select(['id'])
      .where('company_id', '=', company)
      .where('deleted', '=', 0)
      .execute();

    if ((opts.cluster || opts.pgRestarts) && opts.dialect !== 'postgres')
      throw new Error('--cluster and --pg-restarts need --dialect postgres');
    // One process (the original mode), or three behind the balancer; `server` is the one killed mid-run.
    const procs: ServerProcess[] = [];
    const count = opts.cluster ? 3 : 1;
    // The cluster runs the production build, as an operator would: the killed process's restart must not
    // compile the server again under tsx on a machine the 50 device processes keep at load 80.
    const entry = opts.cluster ? 'built' : 'source';
    if (entry === 'built') buildServer();
    for (let i = 0; i < count; i++)
      procs.push(await spawnServer(opts.dialect, s.where, i > 0 ? { JOBS: 'off' } : {}, undefined, entry));
    cluster.procs = procs;
    // A server's 500s (unhandled errors) are part of the result: printed as they happen.
    const watch = (p: ServerProcess, i: number) =>
      p.child.stdout?.on('data', (x: Buffer) => {
        for (const l of x.toString().split('\n'))
          if (l.includes('unhandled error')) log(`server ${i}: ${l.slice(0, 1500)}`);
      });
    procs.forEach(watch);
    const victim = count > 1 ? 1 : 0;
    server = procs[victim] as ServerProcess;
    const port = new URL(server.baseUrl).port;
    let baseUrl = server.baseUrl;
    if (opts.cluster) {
      cluster.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-sim-'));
      const lb = await startHaproxy(
        procs.map((p) => new URL(p.baseUrl).host),
        cluster.tmp,
      );
      cluster.haproxy = lb.child;
      balancer = lb;
      baseUrl = `${lb.url}/api/v1`;
      log(`3 server processes behind HAProxy at ${lb.url}`);
    }
    const emails = Array.from({ length: opts.devices }, (_, i) => USERS[i % USERS.length] as string);
    // A few at a time: each device is a process with its own sign-in and first sync. Retried: on a loaded
    // machine the balancer may answer 503 for a moment (every process's health check slower than its timeout).
    // For up to SIM_OPEN_MS (10 min): at load 40 every process missed its 3 s health checks for minutes while
    // the devices signed in, and five attempts over 20 s ended a 50-device run before its first operation.
    const openUntil = Date.now() + Number(process.env.SIM_OPEN_MS ?? 600_000);
    const open = async (email: string): Promise<Device> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await Device.open(baseUrl, email);
        } catch (err) {
          if (Date.now() > openUntil) throw err;
          log(`device open failed (${(err as Error).message}); retrying`);
          await sleep(Math.min(2000 * attempt, 10_000));
        }
      }
    };
    const opened: Device[] = [];
    try {
      await eachLimit(emails, OPEN_AT_ONCE, open, (dev, i) => {
        opened[i] = dev;
      });
    } finally {
      // In schedule order; on a failure the ones already open are closed by the clean-up below.
      devices.push(...opened.filter((x) => x !== undefined));
    }
    log(`devices open after ${Date.now() - started} ms`);

    const offlineUntil = new Array<number>(opts.devices).fill(-1);
    const edits: Edit[] = [];
    const cmds: Cmd[] = [];
    const flightIds: string[] = [];
    const reportIds: string[] = [];
    let restart: Promise<ServerProcess> | null = null;
    let partitions = 0;
    const killAt = Math.floor(opts.ops / 2);
    // PostgreSQL restarts spread over the second half, away from the kill.
    const pgRestarts = opts.pgRestarts ?? 0;
    const pgAt = new Set(
      Array.from({ length: pgRestarts }, (_, i) => Math.floor(opts.ops * (0.6 + (0.35 * i) / pgRestarts))),
    );
    let pgRestart: Promise<void> = Promise.resolve();
    let pgDone = 0;
    let markerNo = 0;
    const marker = (d: number) => `S${d.toString(36)}${(markerNo++).toString(36)}`.toUpperCase();
    const today = new Date().toISOString().slice(0, 10);
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const userIdOf = (email: string) => s.userId(email);
    const mechanic = userIdOf('mechanic@skyline.test');

    const opMs = new Map<string, { n: number; ms: number }>();
    const tally = (k: string, t0: number) => {
      const e = opMs.get(k) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - t0;
      opMs.set(k, e);
    };
    // Devices work at the same time: each device runs its operations in schedule order (one chain per
    // device, so a device's edit still reads what that device holds), and at most WINDOW operations are
    // in flight. Every random choice is drawn here, in schedule order (an operation's own choices from
    // its own generator), so the seed fixes the schedule whatever the timing.
    const chains: Promise<void>[] = devices.map(() => Promise.resolve());
    const window = Math.max(1, Number(process.env.SIM_WINDOW ?? opts.devices));
    let inFlight = 0;
    let failure: Error | null = null;
    let freed: (() => void) | null = null;
    const enqueue = (d: number, kind: string, work: () => Promise<void>) => {
      inFlight++;
      chains[d] = (chains[d] as Promise<void>)
        .then(async () => {
          if (failure) return;
          const t0 = performance.now();
          await work();
          tally(kind, t0);
        })
        .catch((err: Error) => {
          failure ??= err;
        })
        .finally(() => {
          inFlight--;
          freed?.();
        });
    };
    const slot = async () => {
      while (inFlight >= window && !failure) await new Promise<void>((r) => (freed = r));
      if (failure) throw failure;
    };
    for (let op = 0; op < opts.ops; op++) {
      await slot();
      if (op % 500 === 0) log(`op ${op} at ${Date.now() - started} ms`);
      if (op === killAt) {
        log(`op ${op}: SIGKILL server`);
        await server.kill();
        // 10 minutes to start: the seed-34 run lost everything at op 5000 when the restart took over 120 s at load 76.
        restart = spawnServer(
          opts.dialect,
          s.where,
          { PORT: port, ...(victim > 0 ? { JOBS: 'off' } : {}) },
          600_000,
          entry,
        ).then((b) => {
          let tail = '';
          b.child.stderr?.on('data', (x: Buffer) => {
            tail = (tail + x.toString()).slice(-2000);
          });
          b.child.once('exit', (code) => log(`restarted server exited (${code}): ${tail}`));
          cluster.procs[victim] = b;
          watch(b, victim);
          return b;
        });
        // Handled where it is awaited (after the schedule): an unhandled rejection here ended the run at
        // once and left the other processes, the balancer and 50 device processes running.
        restart.catch(() => {});
      }
      if (pgAt.has(op)) {
        // Not awaited: the devices go on editing and pushing while the database is away (their pushes meet 503s).
        // After the killed process is back: a process starting while the database restarts is not what this measures.
        const prev = Promise.all([pgRestart, restart]);
        pgRestart = prev.then(async () => {
          const t0 = Date.now();
          log(`op ${op}: restarting PostgreSQL`);
          try {
            const ms = await restartPostgres();
            pgDone++;
            log(`op ${op}: PostgreSQL accepts connections again after ${Math.round(ms)} ms`);
          } catch (err) {
            log(`PostgreSQL restart failed after ${Date.now() - t0} ms: ${(err as Error).message}`);
            await ensurePostgresRunning();
          }
        });
      }
      const d = rnd.int(0, opts.devices - 1);
      const dev = devices[d] as Device;
      // Reconnect devices whose partition ended.
      for (let i = 0; i < opts.devices; i++) {
        if (offlineUntil[i] !== -1 && offlineUntil[i] <= op) {
          offlineUntil[i] = -1;
          const back = devices[i] as Device;
          enqueue(i, 'online', async () => {
            await back.online();
          });
        }
      }
      const r = rnd.next();
      const o = prng(rnd.int(0, 2 ** 31));
      if (r < 0.08) {
        // Partition: cut this device off for a random span of operations.
        if (offlineUntil[d] === -1) {
          offlineUntil[d] = op + rnd.int(5, Math.max(6, Math.floor(opts.ops / 8)));
          partitions++;
          enqueue(d, 'partition', async () => {
            await dev.offline();
          });
        }
        continue;
      }
      const kind =
        r < 0.33
          ? 'flight edit'
          : r < 0.45
            ? 'aircraft edit'
            : r < 0.6
              ? 'flight create'
              : r < 0.72
                ? 'flight command'
                : r < 0.82
                  ? 'mel.raise'
                  : r < 0.94
                    ? 'mel.extend'
                    : 'mel.close';
      enqueue(d, kind, async () => {
        if (r < 0.33) {
          const f = await dev.pick('flights', o.next());
          if (f) {
            const m = marker(d);
            await dev.save('flights', { ...f, remarks: m });
            edits.push({
              device: d,
              collection: 'flights',
              id: f.id,
              field: 'remarks',
              marker: m,
              prev: f.remarks ?? null,
            });
          }
        } else if (r < 0.45) {
          const a = await dev.pick('aircraft', o.next());
          if (a) {
            const m = marker(d);
            await dev.save('aircraft', { ...a, registration: m });
            edits.push({
              device: d,
              collection: 'aircraft',
              id: a.id,
              field: 'registration',
              marker: m,
              prev: a.registration ?? null,
            });
          }
        } else if (r < 0.6) {
          const start = o.int(6 * 60, 17 * 60);
          const id = uuidv7();
          const m = marker(d);
          const doc = {
            id,
            date: today,
            status: 'SCHEDULED',
            callsign: null,
            aircraft_id: o.pick(aircraftIds),
            flight_type_id: types.length ? o.pick(types).id : null,
            base_id: null,
            pic_id: userIdOf(o.pick(['pilot@skyline.test', 'instructor@skyline.test'])),
            sic_id: null,
            supervisor_id: null,
            user_id: null,
            departure_airport: 'LECU',
            landing_airport: 'LELL',
            offblocks_time: hhmm(start),
            takeoff_time: hhmm(start + 10),
            landing_time: hhmm(start + 50),
            onblocks_time: hhmm(start + 60),
            offblocks: null,
            takeoff: null,
            landing: null,
            onblocks: null,
            starts: 0,
            block_time: 0,
            flight_time: 0,
            night_flight_time: null,
            ifr_flight_time: 0,
            rules: 'VFR',
            crosscountry: true,
            multiengine: false,
            landings: 1,
            night_landings: 0,
            pax: 0,
            route: null,
            remarks: m,
            confirmed_at: null,
            dispatched_at: null,
            modified: 0,
          };
          await dev.save('flights', doc);
          flightIds.push(id);
          edits.push({ device: d, collection: 'flights', id, field: 'remarks', marker: m, prev: null });
        } else if (r < 0.72) {
          const f = await dev.pick('flights', o.next());
          if (f) {
            const name = o.next() < 0.5 ? 'flight.confirm' : 'flight.dispatch';
            const args = { flight_id: f.id };
            cmds.push({ device: d, id: await dev.run(name, args), name, args });
          }
        } else if (r < 0.82) {
          const id = uuidv7();
          const args = {
            id,
            AircraftReport: {
              aircraft_id: o.pick(aircraftIds),
              type: 'MEL',
              title: `Sim item ${op}`,
              ata_chapter: '33-41',
            },
            MelItem: { category: o.pick(['B', 'C']), released_by: mechanic },
          };
          cmds.push({ device: d, id: await dev.run('mel.raise', args), name: 'mel.raise', args });
          reportIds.push(id);
        } else if (r < 0.94) {
          if (reportIds.length) {
            const reportId = o.pick(reportIds);
            const item = await retrying(() =>
              s.ctx.db
                .selectFrom('mel_items')
                .select(['expires'])
                .where('aircraft_report_id', '=', reportId)
                .executeTakeFirst(),
            );
            const base = item?.expires ? Number(item.expires) : Math.floor(Date.now() / 1000) + 3 * 86400;
            const args = { report_id: reportId, extended_until: base + o.int(1, 3) * 86400, reason: `Sim ${op}` };
            cmds.push({ device: d, id: await dev.run('mel.extend', args), name: 'mel.extend', args });
          }
        } else {
          const pool =
            o.next() < 0.15 ? [await retrying(() => expiredReportId(s, aircraftIds[0] as string))] : reportIds;
          if (pool.length && pool[0]) {
            const args = { report_id: o.pick(pool) as string };
            cmds.push({ device: d, id: await dev.run('mel.close', args), name: 'mel.close', args });
          }
        }
      });
    }
    await Promise.all(chains);
    if (failure) throw failure;
    log(`op time: ${[...opMs].map(([k, v]) => `${k} ${v.n}x ${Math.round(v.ms)} ms`).join('; ')}`);
    if (restart) server = await restart;
    await pgRestart;
    log(
      `schedule done after ${Date.now() - started} ms (server restarted: ${restart !== null}; PostgreSQL restarts: ${pgDone})`,
    );

    // Reconnect everyone and let the queues drain.
    for (let i = 0; i < opts.devices; i++) if (offlineUntil[i] !== -1) await (devices[i] as Device).online();
    // Done when every queue is empty; given up after DRAIN_MS without the queues shrinking (a slow but
    // moving drain on a loaded machine is not a fault), or after DRAIN_MAX_MS in all.
    let least = Number.POSITIVE_INFINITY;
    let movedAt = Date.now();
    const drainStart = Date.now();
    const drained = await until(async () => {
      const states = await Promise.all(devices.map((x) => x.state()));
      const left = states.reduce((n, st) => n + st.pendingWrites + st.pendingCommands, 0);
      if (left < least) [least, movedAt] = [left, Date.now()];
      if (left > 0 && Date.now() - movedAt > DRAIN_MS) throw new Stall(left);
      return left === 0;
    }, DRAIN_MAX_MS).catch((e: unknown) => {
      if (e instanceof Stall) return false;
      throw e;
    });
    log(
      `drain: ${drained ? 'empty' : 'NOT empty'} after ${Date.now() - drainStart} ms; balancer: ${balancer ? JSON.stringify(balancer.events) : 'none'}`,
    );
    if (!drained)
      log(
        `warning: queues did not drain in ${DRAIN_MS / 1000} s: ${JSON.stringify(await Promise.all(devices.map((x) => x.state())))}`,
      );

    log(`drained after ${Date.now() - started} ms`);
    // Commands: decided exactly once, and the device knows the server's decision.
    const decisions = await Promise.all(
      cmds.map((c) => Promise.race([(devices[c.device] as Device).decided(c.id), sleep(30_000).then(() => null)])),
    );
    const stored = await s.ctx.db
      .selectFrom('commands')
      .select(['id', 'status', 'name'])
      .where('company_id', '=', company)
      .execute();
    const byId = new Map<string, { status: string; n: number }>();
    for (const row of stored) {
      const e = byId.get(row.id);
      byId.set(row.id, { status: row.status, n: (e?.n ?? 0) + 1 });
    }
    const violations: string[] = [];
    let accepted = 0;
    let rejected = 0;
    cmds.forEach((c, i) => {
      const row = byId.get(c.id);
      const dec = decisions[i] as { status?: string } | null;
      if (!row) violations.push(`command ${c.name} ${c.id} never reached the server`);
      else if (row.n !== 1) violations.push(`command ${c.name} ${c.id} stored ${row.n} times`);
      else if (row.status !== 'accepted' && row.status !== 'rejected')
        violations.push(`command ${c.id} not decided (${row.status})`);
      else if (dec?.status !== row.status)
        violations.push(`command ${c.id}: device says ${dec?.status}, server ${row.status}`);
      if (row?.status === 'accepted') accepted++;
      if (row?.status === 'rejected') rejected++;
    });

    log(`decisions known after ${Date.now() - started} ms`);
    violations.push(...(await serverInvariants(s, company)));
    violations.push(...(await billingInvariants(s, company)));

    // Every device holds exactly the server's visible state for its user.
    const tokens = new Map<string, string>();
    for (const email of new Set(emails)) tokens.set(email, await s.login(email));
    const api = {
      api: (method: string, pathname: string, o: { token?: string | null; body?: unknown } = {}) =>
        callApi(baseUrl, method, pathname, o, true),
    };
    const compare = async (): Promise<string[]> => {
      const problems: string[] = [];
      // A full pull depends only on the user: read once per user and collection in each comparison.
      const pulls = new Map<string, Promise<Map<string, string>>>();
      const serverView = (email: string, name: string) => {
        const key = `${email} ${name}`;
        let p = pulls.get(key);
        if (!p) {
          p = pullAll(api as never, tokens.get(email) as string, name).then(
            (r) => new Map(r.docs.filter((x) => x._deleted !== true).map((x) => [x.id as string, strip(x)])),
          );
          pulls.set(key, p);
        }
        return p;
      };
      for (let i = 0; i < opts.devices; i++) {
        const local = await (devices[i] as Device).dump();
        for (const [name, docs] of Object.entries(local)) {
          const theirs = await serverView(emails[i] as string, name);
          const mine = new Map(docs.map((x) => [x.id as string, strip(x)]));
          // Queued commands and outcomes the device wrote itself replicate too; both sides must agree on them as well.
          for (const [id, v] of theirs)
            if (mine.get(id) !== v)
              problems.push(
                `device ${i} ${name} ${id}: ${mine.has(id) ? `differs: ${diff(mine.get(id) as string, v)}` : `missing: ${v.slice(0, 300)}`}`,
              );
          for (const [id, v] of mine)
            if (!theirs.has(id)) problems.push(`device ${i} ${name} ${id}: not on the server: ${v.slice(0, 300)}`);
        }
      }
      return problems;
    };
    let mismatches: string[] = [];
    await until(
      async () => {
        mismatches = await compare();
        return mismatches.length === 0;
      },
      60_000,
      500,
    );

    log(`compared after ${Date.now() - started} ms`);
    // A device left behind: its sync state (last error, first-sync phases, queues), to tell a stuck downstream
    // from a change the server never sent (the rare missed change, docs/operations.md).
    for (const i of new Set(mismatches.map((m) => Number(/^device (\d+) /.exec(m)?.[1])))) {
      if (Number.isNaN(i)) continue;
      log(`  device ${i} state: ${JSON.stringify(await (devices[i] as Device).state()).slice(0, 1500)}`);
    }
    // Lost writes (after convergence, so every outcome has reached its device): every acknowledged edit is on the chain that leads to the server's value, or its device has a rejection outcome for the record.
    const lostWrites: string[] = [];
    let editRejections = 0;
    const finalValue = new Map<string, string | null>();
    const fRows = await s.ctx.db
      .selectFrom('flights')
      .select(['id', 'remarks'])
      .where('company_id', '=', company)
      .where('deleted', '=', 0)
      .execute();
    for (const f of fRows) finalValue.set(`flights:${f.id}`, f.remarks);
    const aRows = await s.ctx.db
      .selectFrom('aircraft')
      .select(['id', 'registration'])
      .where('company_id', '=', company)
      .execute();
    for (const a of aRows) finalValue.set(`aircraft:${a.id}`, a.registration);
    const byMarker = new Map(edits.map((e) => [e.marker, e]));
    const applied = new Set<string>();
    for (const v of finalValue.values()) {
      let e = v ? byMarker.get(v) : undefined;
      while (e && !applied.has(e.marker)) {
        applied.add(e.marker);
        e = e.prev ? byMarker.get(e.prev) : undefined;
      }
    }
    const outcomeCache = new Map<number, Set<string>>();
    for (const e of edits) {
      if (applied.has(e.marker)) continue;
      // Applied, then overwritten by a later edit: a created flight that exists, or the flight's history shows the value written.
      if (e.collection === 'flights' && e.prev === null && finalValue.has(`flights:${e.id}`)) continue;
      if (e.collection === 'flights') {
        const h = await s.ctx.db
          .selectFrom('flight_changes')
          .select('id')
          .where('flight_id', '=', e.id)
          .where('fields', 'like', `%"${e.marker}"%`)
          .executeTakeFirst();
        if (h) continue;
      }
      let out = outcomeCache.get(e.device);
      if (!out) {
        const docs = await (devices[e.device] as Device).find('outcomes');
        out = new Set(
          docs.filter((o) => o.status === 'conflict' || o.status === 'rejected').map((o) => o.document_id as string),
        );
        outcomeCache.set(e.device, out);
      }
      if (out.has(e.id)) editRejections++;
      else
        lostWrites.push(
          `${e.collection} ${e.id}: ${e.field}=${e.marker} by device ${e.device} neither applied nor rejected`,
        );
    }

    const ok = violations.length === 0 && lostWrites.length === 0 && mismatches.length === 0;
    for (const v of [...violations, ...lostWrites, ...mismatches].slice(0, 30)) log(`  ${v}`);
    const durationMs = Date.now() - started;
    log(`partitions: ${partitions}; server kills: ${restart ? 1 : 0}; PostgreSQL restarts: ${pgDone}`);
    log(
      `commands: ${cmds.length} decided once (${accepted} accepted, ${rejected} rejected); edits: ${edits.length} (${editRejections} rejected with an outcome); state mismatches: ${mismatches.length}; ${durationMs} ms`,
    );
    const line = `${ok ? 'converged' : 'NOT converged'}: ${opts.devices} devices, ${opts.ops} operations, ${violations.length + mismatches.length} invariant violations, ${lostWrites.length} lost writes`;
    log(
      `billing and duty totals checked on ${billingChecked.flights} flights, ${billingChecked.charged} LANDED with charges`,
    );
    return {
      seed: opts.seed,
      devices: opts.devices,
      operations: opts.ops,
      durationMs,
      pgRestarts: pgDone,
      commands: cmds.length,
      accepted,
      rejected,
      edits: edits.length,
      editRejections,
      violations,
      lostWrites,
      mismatches,
      line,
    };
  } finally {
    await Promise.all(devices.map((d) => d.close()));
    cluster.haproxy?.kill('SIGTERM');
    await Promise.all(cluster.procs.map((p) => p.stop().catch(() => {})));
    if (!cluster.procs.length) await server?.stop().catch(() => {});
    if (cluster.tmp) fs.rmSync(cluster.tmp, { recursive: true, force: true });
    if (opts.dialect === 'postgres' && opts.pgRestarts) await ensurePostgresRunning();
    await s.close();
  }
}

/** A read of the sim's own (in-process) connection, retried while PostgreSQL restarts. */
async function retrying<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= 100) throw err;
      await sleep(200);
    }
  }
}

function diff(a: string, b: string): string {
  const walk = (x: unknown, y: unknown, at: string): string[] => {
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      const xo = x as Record<string, unknown>;
      const yo = y as Record<string, unknown>;
      return [...new Set([...Object.keys(xo), ...Object.keys(yo)])].flatMap((k) =>
        walk(xo[k], yo[k], at ? `${at}.${k}` : k),
      );
    }
    return JSON.stringify(x) === JSON.stringify(y)
      ? []
      : [`${at}: device ${JSON.stringify(x)?.slice(0, 80)} server ${JSON.stringify(y)?.slice(0, 80)}`];
  };
  return walk(JSON.parse(a), JSON.parse(b), '').join('; ');
}

async function callApi(
  baseUrl: string,
  method: string,
  pathname: string,
  o: { token?: string | null; body?: unknown },
  /** A read (the comparison's pulls): the server's own 503 is repeated too. */
  read = false,
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  // HAProxy's own 503 (an HTML page: it held every server down) sent the request nowhere; the server's
  // (JSON: pool wait over, pull queue full, database restarting) is repeated for reads only, since a write
  // cut by a restart during its commit may have landed. Waited out, Retry-After when given, up to two minutes.
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${baseUrl}${pathname}`, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json');
    if (res.status === 503 && (read || !json) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, Math.min(5000, 1000 * Number(res.headers.get('retry-after') ?? 0.5))));
      continue;
    }
    return { status: res.status, body: text && json ? JSON.parse(text) : text || null, headers: res.headers };
  }
}

async function expiredReportId(s: TestServer, aircraftId: string): Promise<string | undefined> {
  const r = await s.ctx.db
    .selectFrom('aircraft_reports')
    .select('id')
    .where('aircraft_id', '=', aircraftId)
    .where('title', '=', 'Landing light')
    .executeTakeFirst();
  return r?.id;
}

/** The server-side invariants, read straight from the database. */
async function serverInvariants(s: TestServer, company: string): Promise<string[]> {
  const out: string[] = [];
  const flights = await s.ctx.db
    .selectFrom('flights')
    .select(['id', 'aircraft_id', 'status', 'offblocks', 'onblocks', 'starts', 'block_time', 'dispatched_at'])
    .where('company_id', '=', company)
    .where('deleted', '=', 0)
    .execute();
  // No two LANDED flights of one aircraft overlap.
  const landed = flights.filter((f) => f.status === 'LANDED' && f.aircraft_id);
  const span = (f: (typeof flights)[number]) => {
    const a = Number(f.offblocks ?? f.starts);
    return [a, Number(f.onblocks ?? a + Number(f.block_time))] as const;
  };
  for (let i = 0; i < landed.length; i++) {
    for (let j = i + 1; j < landed.length; j++) {
      const [x, y] = [landed[i]!, landed[j]!];
      if (x.aircraft_id !== y.aircraft_id) continue;
      const [a0, a1] = span(x);
      const [b0, b1] = span(y);
      if (a0 < b1 && b0 < a1) out.push(`LANDED flights ${x.id} and ${y.id} of aircraft ${x.aircraft_id} overlap`);
    }
  }
  // No flight DISPATCHED while its aircraft had an expired MEL/CDL item.
  const items = await s.ctx.db
    .selectFrom('mel_items')
    .innerJoin('aircraft_reports', 'aircraft_reports.id', 'mel_items.aircraft_report_id')
    .select([
      'aircraft_reports.id as report_id',
      'aircraft_reports.aircraft_id',
      'aircraft_reports.closed',
      'aircraft_reports.created',
      'mel_items.expires',
      'mel_items.extended',
      'mel_items.extended_until',
    ])
    .where('mel_items.company_id', '=', company)
    .execute();
  for (const f of flights) {
    if (f.dispatched_at === null || f.dispatched_at === undefined) continue;
    const at = Number(f.dispatched_at);
    for (const m of items) {
      if (m.aircraft_id !== f.aircraft_id || Number(m.created) > at) continue;
      const expires = Number(m.extended ? (m.extended_until ?? m.expires) : m.expires);
      const open = m.closed === null || Number(m.closed) > at;
      if (open && m.expires !== null && expires < at)
        out.push(`flight ${f.id} dispatched at ${at} while MEL item ${m.report_id} had expired at ${expires}`);
    }
  }
  // No MEL item extended twice.
  const ext = await s.ctx.db
    .selectFrom('commands')
    .select(['args'])
    .where('company_id', '=', company)
    .where('name', '=', 'mel.extend')
    .where('status', '=', 'accepted')
    .execute();
  const count = new Map<string, number>();
  for (const c of ext) {
    const args = (typeof c.args === 'string' ? JSON.parse(c.args) : c.args) as { report_id: string };
    count.set(args.report_id, (count.get(args.report_id) ?? 0) + 1);
  }
  for (const [id, n] of count) if (n > 1) out.push(`MEL item of report ${id} extended ${n} times`);
  return out;
}

/**
 * Billing and duty totals, read straight from the database: a LANDED flight's
 * live entries (not reversals, not reversed) are one charge set that sums to
 * what the flight costs now (the shared rule over its stored fields; the sim
 * sells no packages), any other flight's entries sum to 0 with none live;
 * every account's totals equal its entries; the duty totals equal a recount.
 */
async function billingInvariants(s: TestServer, company: string): Promise<string[]> {
  const db = s.ctx.db;
  const out: string[] = [];
  const settings = await billingSettingsOf(db, company);
  const rates = await ratesOf(db, company);
  const billed = new Set(
    (
      await db.selectFrom('users').select('id').where('company_id', '=', company).where('billing', '=', 1).execute()
    ).map((u) => u.id),
  );
  const flights = await db
    .selectFrom('flights as f')
    .leftJoin('flight_types as t', (j) =>
      j.onRef('t.id', '=', 'f.flight_type_id').onRef('t.company_id', '=', 'f.company_id'),
    )
    .select([
      'f.id',
      'f.status',
      'f.deleted',
      'f.aircraft_id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.block_time',
      'f.flight_time',
      't.pic_flight_time',
      't.sic_flight_time',
      't.supervisor_flight_time',
    ])
    .where('f.company_id', '=', company)
    .execute();
  const entries = await db
    .selectFrom('billing_entries')
    .select(['id', 'flight_id', 'kind', 'amount', 'reverses_id'])
    .where('company_id', '=', company)
    .where('flight_id', 'is not', null)
    .execute();
  const reversed = new Set(entries.map((e) => e.reverses_id).filter((x): x is string => !!x));
  let charged = 0;
  for (const f of flights) {
    const mine = entries.filter((e) => e.flight_id === f.id);
    const sum = mine.reduce((x, e) => x + Number(e.amount), 0);
    const live = mine.filter((e) => e.kind !== 'reversal' && !reversed.has(e.id));
    if (f.status !== 'LANDED' || Number(f.deleted) !== 0) {
      if (sum !== 0 || live.length)
        out.push(`flight ${f.id} is ${f.status} with entries summing to ${sum} (${live.length} live)`);
      continue;
    }
    const seats: Seats | null = f.pic_flight_time
      ? { pic: f.pic_flight_time, sic: f.sic_flight_time ?? 'none', supervisor: f.supervisor_flight_time ?? 'none' }
      : null;
    const want = flightCharges({
      flight: {
        status: f.status,
        aircraft_id: f.aircraft_id,
        pic_id: f.pic_id,
        sic_id: f.sic_id,
        supervisor_id: f.supervisor_id,
        block_time: Number(f.block_time),
        flight_time: Number(f.flight_time),
      },
      seats,
      billed,
      aircraftRates: new Map(rates.filter((r) => r.kind === 'aircraft').map((r) => [r.target_id, Number(r.amount)])),
      instructorRates: new Map(
        rates.filter((r) => r.kind === 'instructor').map((r) => [r.target_id, Number(r.amount)]),
      ),
      basis: settings.billing_basis === 'flight' ? 'flight' : 'block',
      taxBp: taxBasisPoints(Number(settings.billing_tax)),
      pools: [],
    });
    // A line's amount is the total (its tax is the part of it), as in the ledger.
    const cost = want.lines.reduce((x, l) => x + l.amount, 0);
    if (sum !== cost) out.push(`LANDED flight ${f.id}: entries sum to ${sum}, it costs ${cost}`);
    if (live.length !== want.lines.length)
      out.push(`LANDED flight ${f.id}: ${live.length} live entries, one charge set has ${want.lines.length}`);
    if (live.length) charged++;
  }
  for (const x of await recountLedger(db)) out.push(`account totals: ${x}`);
  for (const x of await recountDutyOn(db)) out.push(`duty totals: ${x}`);
  billingChecked.flights = flights.length;
  billingChecked.charged = charged;
  return out;
}

/** What the last billing check saw (for the summary line). */
const billingChecked = { flights: 0, charged: 0 };

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() as string)) {
  const dialect = arg('dialect', process.argv.includes('--cluster') ? 'postgres' : 'sqlite') as TestDialect;
  const result = await runConvergence({
    dialect,
    devices: Number(arg('devices', '10')),
    ops: Number(arg('ops', '1000')),
    cluster: process.argv.includes('--cluster'),
    pgRestarts: Number(arg('pg-restarts', process.argv.includes('--cluster') ? '1' : '0')),
    seed: Number(arg('seed', String(Math.floor(Math.random() * 2 ** 31)))),
    log: (l) => console.log(l),
  });
  console.log(result.line);
  process.exit(result.line.startsWith('converged') ? 0 : 1);
}
