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
}

const states = new WeakMap<Database, Readiness>();

/** The readiness state of the server that owns `database` (one per server; tests run several in one process). */
export function readinessOf(database: Database): Readiness {
  let r = states.get(database);
  if (!r) {
    r = { phase: 'starting', listening: true, listenerReconnects: 0 };
    states.set(database, r);
  }
  return r;
}

/** How long the readiness probe waits for the database before calling it unreachable. */
export const DB_PING_TIMEOUT_MS = 1500;

const lastPingOk = new WeakMap<Database, number>();
/** A pool with requests queued is busy, not down: a ping that succeeded this recently stands (a probe must not queue behind real work). */
const BUSY_TRUST_MS = 5000;

/** `select 1` within the timeout; false when the database does not answer in time or fails. */
export async function pingDatabase(database: Database, timeoutMs = DB_PING_TIMEOUT_MS): Promise<boolean> {
  const pool = database.pool;
  if (
    pool &&
    pool.waitingCount > 0 &&
    performance.now() - (lastPingOk.get(database) ?? Number.NEGATIVE_INFINITY) < BUSY_TRUST_MS &&
    pool.totalCount > 0
  )
    return true;
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
 */
export async function readiness(database: Database): Promise<ReadyAnswer> {
  const { phase } = readinessOf(database);
  if (phase !== 'ready') return { status: 503, body: { status: 'unavailable', phase, database: 'not checked' } };
  const ok = await pingDatabase(database);
  if (!ok) return { status: 503, body: { status: 'unavailable', phase, database: 'unreachable' } };
  if (!readinessOf(database).listening)
    return { status: 503, body: { status: 'unavailable', phase, database: 'ok', listener: 'down' } };
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
 * The handler while the process starts (migrations, seed): health probes get
 * their answers, everything else a 503 with Retry-After. The HTTP server
 * listens from the start so an orchestrator sees "alive, not ready".
 */
export function bootHandler(database: Database) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        ...(status === 503 ? { 'retry-after': '1' } : {}),
      });
      res.end(JSON.stringify(body));
    };
    if (path === LIVE_PATH) {
      const a = liveness(database);
      return send(a.status, a.body);
    }
    const { phase } = readinessOf(database);
    if (path === READY_PATH) return send(503, { status: 'unavailable', phase, database: 'not checked' });
    send(503, { result: false, message: `Starting (${phase}); try again shortly` });
  };
}
