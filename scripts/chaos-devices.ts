/**
 * Live devices for `npm run chaos:processes` and `npm run bench:fanout`: one
 * child process holding many real HTTP stream connections
 * (GET /sync/stream.json?collections=fleet), each a device. Started by the
 * scenario with an IPC channel; loopback only.
 *
 * A device follows the protocol a client follows: it keeps its pull
 * checkpoint, and whenever its stream (re)opens (event `resync`) it pulls from
 * that checkpoint, so whatever changed while it was away comes in. It orders
 * the pull and the stream's `change` events as client-core's replication does
 * (RxDB's downstream, rxdb/src/replication-protocol/downstream.ts): one queue
 * of tasks per device, run one at a time; a change event that arrived before
 * the latest pull request began is dropped (that pull read its rows), and one
 * that arrives while a pull runs waits for it; and, as client-core does on top
 * of RxDB (replication.ts, deliverAfterPulls), a change the last pull already
 * read past is dropped. Applying events as they came, concurrently with the
 * pull, let a pull answer read before a change overwrite that change: the 29
 * "older-after-newer" of the 1,000-device run. RxDB's order alone still gave 58
 * in 300 devices (a change streamed after the pull read a newer state). When its
 * stream ends or fails it reconnects through the same address (the balancer)
 * after client-core's back-off function (`backoffDelay`) with a 250 ms base and
 * a 2 s cap: 125-250 ms, doubling with jitter on every failed attempt, reset
 * once it is back. So a herd of devices that lost their process spreads out
 * instead of retrying every few hundred milliseconds for ever, and a device
 * still tries again within 2 s (the 30 s cap of the app's own reconnect made
 * the reconnect p99 40 s when the loaded balancer marked healthy processes down). For the tracked aircraft it keeps the highest
 * marker number seen (`<tag>-<n>` in registration): a lower one after a higher
 * one counts as a regression; the scenario compares the finals with the
 * database. Latency: a device records when it first holds each marker number
 * (a later value covers the earlier writes it superseded); the parent sends
 * the writes' start times at the end and gets arrival minus start back.
 */
import http from 'node:http';
import { firstConnectDelay, retryAfterMs, retryDelay } from '../client-core/src/backoff.ts';

interface Args {
  baseUrl: string;
  token: string;
  /** One per device when given (device n uses tokens[n]); else every device uses `token`. */
  tokens?: string[];
  count: number;
  ids: string[];
  checkpoint: unknown;
  initial: Record<string, number>;
  /** Milliseconds over which the devices open their first stream (client-core's firstStreamSpreadMs). */
  spreadMs?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const send = (m: unknown) => process.send?.(m);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const now = () => performance.timeOrigin + performance.now();
const seqOf = (registration: unknown) => {
  const m = /^[A-Z]+-(\d+)$/.exec(String(registration ?? ''));
  return m ? Number(m[1]) : -1;
};
const tracked = new Set(args.ids);
/** Marker number → when each device first held it (or a later one). */
const arrivals = new Map<number, number[]>();
const MAX_ARRIVALS = 4_000_000;
let arrivalCount = 0;

/** A downstream task: pull from the checkpoint (`resync`) or a stream's change event. */
interface Cp {
  seq: number;
  id: string;
  fp: string;
}
/** client-core's readPast: a pull answered at `pulled` read every row of a change at `cp` in the same or a newer state. */
const readPast = (pulled: Cp | null, cp: Cp) =>
  !!pulled && pulled.fp === cp.fp && (cp.seq < pulled.seq || (cp.seq === pulled.seq && cp.id === pulled.id));
type Task = 'resync' | { documents: Array<Record<string, unknown>>; checkpoint: unknown };

interface Device {
  n: number;
  token: string;
  seq: Map<string, number>;
  checkpoint: unknown;
  /** RxDB's downstream clock: tasks are stamped when queued; every pull request takes a new stamp. */
  timer: number;
  lastPullStamp: number;
  /** The furthest checkpoint a pull answered (client-core drops a change it covers: readPast). */
  pulled: Cp | null;
  /** The tasks run one after the other on this chain. */
  queue: Promise<void>;
  connected: boolean;
  downAt: number | null;
  req: http.ClientRequest | null;
  /** Failed attempts since it was last connected (the back-off's exponent). */
  attempt: number;
}
let stopping = false;
let regressions = 0;
let connects = 0;
let failures = 0;
/** Catch-up pulls asked again after a 503 with Retry-After. */
let retried = 0;
/** Why connections failed: HTTP status, or `error` / `end` / `pull` (catch-up failed). */
const failedBy: Record<string, number> = {};
const reconnectMs: number[] = [];
const devices: Device[] = Array.from({ length: args.count }, (_, n) => ({
  n,
  token: args.tokens?.[n] ?? args.token,
  seq: new Map(Object.entries(args.initial)),
  checkpoint: args.checkpoint,
  timer: 0,
  lastPullStamp: -1,
  pulled: null,
  queue: Promise.resolve(),
  connected: false,
  downAt: null,
  req: null,
  attempt: 0,
}));

function apply(d: Device, docs: Array<Record<string, unknown>>, at: number) {
  for (const doc of docs) {
    const id = String(doc.id);
    if (!tracked.has(id)) continue;
    const s = seqOf(doc.registration);
    const had = d.seq.get(id) ?? -1;
    if (s < had) regressions++;
    else if (s > had) {
      d.seq.set(id, s);
      // Writes it skipped were superseded by this value: they reached the device now too.
      for (let k = Math.max(had + 1, s - 1000); k <= s && arrivalCount < MAX_ARRIVALS; k++, arrivalCount++) {
        const list = arrivals.get(k);
        if (list) list.push(at);
        else arrivals.set(k, [at]);
      }
    }
  }
}

function post(
  token: string,
  path: string,
  body: unknown,
): Promise<{
  status: number;
  body: { documents?: Array<Record<string, unknown>>; checkpoint?: unknown } | null;
  retryAfter: number | null;
}> {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(
      `${args.baseUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          const retryAfter = retryAfterMs(res.headers['retry-after']);
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), retryAfter });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: null, retryAfter });
          }
        });
        res.on('error', () => resolve({ status: 0, body: null, retryAfter: null }));
      },
    );
    req.setTimeout(15_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: null, retryAfter: null }));
    req.end(data);
  });
}

/** Pulls everything after the device's checkpoint (bounded: 50 pages); runs as a task of the queue. */
async function catchUp(d: Device): Promise<boolean> {
  for (let page = 0; page < 50; page++) {
    // As RxDB: events queued before this request began are covered by its answer and will be dropped.
    d.lastPullStamp = d.timer++;
    let r = await post(d.token, '/sync/fleet/pull.json', { checkpoint: d.checkpoint, limit: 200 });
    // As client-core: a busy server's 503 is asked again when it said (a few times).
    for (let attempt = 0; r.status === 503 && r.retryAfter !== null && attempt < 4 && !stopping; attempt++) {
      retried++;
      await new Promise((done) => setTimeout(done, retryDelay(attempt, r.retryAfter)));
      r = await post(d.token, '/sync/fleet/pull.json', { checkpoint: d.checkpoint, limit: 200 });
    }
    if (r.status !== 200 || !Array.isArray(r.body?.documents)) return false;
    apply(d, r.body.documents, now());
    d.checkpoint = r.body.checkpoint;
    const cp = r.body.checkpoint as Cp;
    if (!(d.pulled && readPast(d.pulled, cp))) d.pulled = cp;
    if (r.body.documents.length < 200) return true;
  }
  return true;
}

/**
 * Queues a downstream task the way RxDB's `addNewTask` does: stamped now, run after the tasks before it; a
 * change event stamped before the latest pull request began is skipped when its turn comes.
 */
function enqueue(d: Device, task: Task, done?: (ok: boolean) => void) {
  const stamp = d.timer++;
  d.queue = d.queue.then(async () => {
    if (task === 'resync') {
      const ok = await catchUp(d);
      done?.(ok);
      return;
    }
    if (stamp < d.lastPullStamp) return;
    // What client-core adds to RxDB: a change the last pull read past would put an older version back.
    if (readPast(d.pulled, task.checkpoint as Cp)) return;
    apply(d, task.documents, now());
    d.checkpoint = task.checkpoint;
  });
}

function down(d: Device, retryAfter: number | null = null) {
  if (d.req) d.req.destroy();
  d.req = null;
  d.downAt ??= now();
  d.connected = false;
  if (!stopping) setTimeout(() => connect(d), retryDelay(d.attempt++, retryAfter, Math.random, 250, 2000));
}

function connect(d: Device) {
  if (stopping) return;
  let ended = false;
  const fail = (why: string, retryAfter: number | null = null) => {
    if (ended) return;
    ended = true;
    failures++;
    failedBy[why] = (failedBy[why] ?? 0) + 1;
    down(d, retryAfter);
  };
  const req = http.get(
    `${args.baseUrl}/sync/stream.json?collections=fleet`,
    { agent: false, headers: { authorization: `Bearer ${d.token}`, accept: 'text/event-stream' } },
    (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        // The server's own refusals carry Retry-After; the balancer's (no server up in its eyes) do not.
        const retryAfter = retryAfterMs(res.headers['retry-after']);
        return fail(retryAfter === null ? `${res.statusCode} (no Retry-After)` : String(res.statusCode), retryAfter);
      }
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i = buf.indexOf('\n\n');
        while (i !== -1) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          i = buf.indexOf('\n\n');
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || !data) continue;
          if (event === 'resync') {
            // (Re)connected: pull what changed meanwhile from the checkpoint, then count the device as back.
            enqueue(d, 'resync', (ok) => {
              if (!ok) return fail('pull');
              connects++;
              d.attempt = 0;
              if (d.downAt !== null) reconnectMs.push(now() - d.downAt);
              d.downAt = null;
              d.connected = true;
            });
          } else if (event === 'change') {
            enqueue(d, JSON.parse(data) as Exclude<Task, 'resync'>);
          } else if (event === 'error') fail('event error');
        }
      });
      res.on('end', () => fail('end'));
      res.on('error', () => fail('error'));
    },
  );
  req.on('error', (err) => fail((err as NodeJS.ErrnoException).code ?? 'error'));
  d.req = req;
}

process.on('message', (m: { type: string; expected?: Record<string, number>; starts?: Record<string, number> }) => {
  if (m.type === 'report') {
    const expected = m.expected ?? {};
    const behind = devices.filter((d) => Object.entries(expected).some(([id, s]) => (d.seq.get(id) ?? -1) < s)).length;
    send({
      type: 'report',
      devices: devices.length,
      connected: devices.filter((d) => d.connected).length,
      behind,
      regressions,
      connects,
      failures,
      failedBy,
      retried,
      reconnectMs,
      mem: process.memoryUsage().rss,
    });
  } else if (m.type === 'latencies') {
    const latencies: number[] = [];
    const last: Record<number, number> = {};
    for (const [k, t0] of Object.entries(m.starts ?? {})) {
      const list = arrivals.get(Number(k)) ?? [];
      for (const at of list) latencies.push(at - t0);
      if (list.length) last[Number(k)] = Math.max(...list.map((at) => at - t0));
    }
    send({ type: 'latencies', latencies, last });
  } else if (m.type === 'stop') {
    stopping = true;
    for (const d of devices) d.req?.destroy();
    setTimeout(() => process.exit(0), 100);
  }
});

// Each device opens its first stream at a random point of the spread, as client-core does (firstStreamSpreadMs).
const SPREAD_MS = args.spreadMs ?? 1000;
for (const d of devices) {
  d.downAt = null;
  setTimeout(() => connect(d), firstConnectDelay(SPREAD_MS));
}
send({ type: 'started' });
