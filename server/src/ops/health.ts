import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** Where a server process is in its life; only `ready` takes traffic. */
export type Phase = 'starting' | 'migrating' | 'seeding' | 'ready' | 'stopping';

export interface Readiness {
  phase: Phase;
  /** PostgreSQL: the change listener (LISTEN ops_changes) is connected; set by the change bus. */
  listening: boolean;
  /** Times the change listener came back after a loss. */
  listenerReconnects: number;
  /** The database as the last background ping found it (watchDatabase); probes read this, never the pool. */
  database: 'ok' | 'unreachable';
}

const states = new WeakMap<Database, Readiness>();

/** The readiness state of the server that owns `database` (one per server; tests run several in one process). */
export function readinessOf(database: Database): Readiness {
  let r = states.get(database);
  if (!r) {
    r = { phase: 'starting', listening: true, listenerReconnects: 0, database: 'ok' };
    states.set(database, r);
  }
  return r;
}

/** How long the readiness ping waits for the database before calling it unreachable. */
export const DB_PING_TIMEOUT_MS = 1500;
/** How often the database is pinged in the background: as often as the balancer checks (inter 500ms). */
export const DB_PING_INTERVAL_MS = 500;

const lastPingOk = new WeakMap<Database, number>();
/** A pool with requests queued is busy, not down: a ping that succeeded this recently stands (a ping must not queue behind real work). */
const BUSY_TRUST_MS = 5000;

/** `select 1` within the timeout; false when the database does not answer in time or fails. */
export async function pingDatabase(database: Database, timeoutMs = DB_PING_TIMEOUT_MS): Promise<boolean> {
  const pool = database.pool;
  // Busy: requests wait for a connection, or every connection the pool may open is in use (the ping would queue).
  const busy =
    pool !== null &&
    pool.totalCount > 0 &&
    (pool.waitingCount > 0 || (pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10)));
  if (busy && performance.now() - (lastPingOk.get(database) ?? Number.NEGATIVE_INFINITY) < BUSY_TRUST_MS) return true;
  const ok = await pingOnce(database, timeoutMs);
  if (ok) lastPingOk.set(database, performance.now());
  return ok;
}

async function pingOnce(database: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = sql`select 1 as one`
    .execute(database.db)
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keeps `readinessOf(database).database` current: a ping every DB_PING_INTERVAL_MS, one at a time. Probes
 * answer from that state (issue 34): a probe that pinged itself waited behind a herd of 5,000 connecting
 * devices, missed HAProxy's 3 s check, and the balancer then marked the process down and cut every stream.
 * Returns the stop function.
 */
export function watchDatabase(database: Database, intervalMs = DB_PING_INTERVAL_MS): () => void {
  const state = readinessOf(database);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pingDatabase(database)
      .then((ok) => {
        state.database = ok ? 'ok' : 'unreachable';
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface ReadyAnswer {
  status: 200 | 503;
  body: {
    status: 'ready' | 'unavailable';
    phase: Phase;
    database: 'ok' | 'unreachable' | 'not checked';
    listener?: 'down';
  };
}

/**
 * Readiness: the process finished migrating and seeding, is not stopping, its database answers and (PostgreSQL)
 * its change listener is connected: without it, streams opened here would not hear other processes' writes.
 * From state kept current in the background, so a probe costs no database round trip.
 */
export function readiness(database: Database): ReadyAnswer {
  const { phase, database: db, listening } = readinessOf(database);
  if (phase !== 'ready') return { status: 503, body: { status: 'unavailable', phase, database: 'not checked' } };
  if (db !== 'ok') return { status: 503, body: { status: 'unavailable', phase, database: 'unreachable' } };
  if (!listening) return { status: 503, body: { status: 'unavailable', phase, database: 'ok', listener: 'down' } };
  return { status: 200, body: { status: 'ready', phase, database: 'ok' } };
}

/** Liveness: the event loop answers. Never looks at the database, so a database outage does not restart every replica. */
export const liveness = (database: Database) => ({
  status: 200 as const,
  body: { status: 'alive', phase: readinessOf(database).phase },
});

export const LIVE_PATH = '/health/live';
export const READY_PATH = '/health/ready';

/**
 * Answers the health probes on the raw request, before Express and the API's middleware (issue 34: a probe
 * must not queue behind a herd of stream opens): true when `req` was one and is answered.
 */
export function answerProbe(database: Database, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path === LIVE_PATH) {
    const a = liveness(database);
    sendJson(res, a.status, a.body);
    return true;
  }
  if (path === READY_PATH) {
    const a = readiness(database);
    sendJson(res, a.status, a.body);
    return true;
  }
  return false;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(status === 503 ? { 'retry-after': '1' } : {}),
  });
  res.end(JSON.stringify(body));
}

/**
 * The handler while the process starts (migrations, seed): health probes get
 * their answers, everything else a 503 with Retry-After. The HTTP server
 * listens from the start so an orchestrator sees "alive, not ready".
 */
export function bootHandler(database: Database) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (answerProbe(database, req, res)) return;
    const { phase } = readinessOf(database);
    sendJson(res, 503, { result: false, message: `Starting (${phase}); try again shortly` });
  };
}
