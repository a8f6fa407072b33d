import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { mountFieldClient } from './field-client.ts';
import { allRoutes, registerAreas } from './areas/index.ts';
import type { Config } from './config.ts';
import { transactionRunner, type AppContext } from './context.ts';
import { openDatabase, type OpenOptions } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { withCredentialCache } from './ops/credential-cache.ts';
import { answerProbe, bootHandler, readinessOf, watchDatabase } from './ops/index.ts';
import { Mailer } from './mail/mailer.ts';
import { seedDatabase } from './seed/index.ts';
import { startJobs } from './jobs/scheduler.ts';
import { ChangeBus } from './sync/change-bus.ts';
import { VERSION } from './version.ts';

export interface RunningServer {
  ctx: AppContext;
  seeded: Awaited<ReturnType<typeof seedDatabase>>;
  server: Server;
  url: string;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Connections the kernel holds for the process before it accepts them (capped by net.core.somaxconn; Node's
 * default is 511). A herd of thousands of devices reconnecting through the balancer overflowed 511: the
 * dropped SYNs, the balancer's health checks among them, were retried only after 1 s and 3 s (issue 34).
 */
const LISTEN_BACKLOG = 4096;

/** Opens the database, migrates, seeds an empty database, and listens. */
export async function startServer(config: Config, dbOptions?: Partial<OpenOptions>): Promise<RunningServer> {
  // Every area's collections, commands, jobs, alerts and upload models, once per process, before anything reads them.
  registerAreas();
  const log = createLogger(config.logLevel);
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgSchema: config.databaseSchema,
    ...dbOptions,
  });
  // An idle pooled connection that breaks (database restart, network cut) is dropped by the pool; without a
  // listener its 'error' event would end the process. Readiness reports the outage instead.
  database.pool?.on('error', (err) => log.warn({ err: err.message }, 'database connection lost'));
  // Listen first: while migrations and the seed run, probes see "alive, not ready" (GET /health/ready is 503).
  const state = readinessOf(database);
  let handle: (req: IncomingMessage, res: ServerResponse) => void = bootHandler(database);
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let changes: ChangeBus | null = null;
  let mailer: Mailer | null = null;
  let ctx: AppContext;
  let seeded: Awaited<ReturnType<typeof seedDatabase>>;
  try {
    state.phase = 'migrating';
    await migrateToLatest(database.db, database.pgConnection?.schema ?? null);
    changes = new ChangeBus(database, log);
    await changes.start();
    mailer = new Mailer(database.db, log, config.smtpUrl, config.mailFrom, config.publicUrl);
    // Sessions resolved from a per-process cache of at most 0.5 s (AUTH_CACHE_MS, 0 = off, capped at 1000), emptied
    // at once by this process's own credential writes. SQLite too since issue 34 (one query less per request): there
    // every API write goes through this process, so a revocation is immediate; another process writing the file
    // (a CLI) is seen within the lifetime, as on PostgreSQL.
    const db = withCredentialCache(database.db, changes, config.authCacheMs);
    ctx = {
      config,
      database,
      db,
      log,
      mailer,
      changes,
      version: VERSION,
      tx: transactionRunner(db, changes),
    };
    state.phase = 'seeding';
    seeded = await seedDatabase(ctx, config.seed);
    if (seeded)
      log.info({ logins: seeded.logins }, `seeded ${config.seed} data; every demo login uses password demo1234`);
  } catch (err) {
    state.phase = 'stopping';
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await changes?.stop().catch(() => {});
    mailer?.close();
    await database.close().catch(() => {});
    throw err;
  }

  const routes = allRoutes();
  const app = createApp(ctx, routes, (a) => mountFieldClient(a));
  // Probes first, on the raw request: they never wait for Express, the API's middleware or the database.
  handle = (req, res) => {
    if (!answerProbe(database, req, res)) app(req, res);
  };
  // Migrations and the seed just used the database: it answered.
  state.database = 'ok';
  const stopWatching = watchDatabase(database);
  state.phase = 'ready';
  const stopJobs = config.jobs ? startJobs(ctx) : () => {};
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      // Stop accepting, let in-flight requests finish briefly, then end idle and streaming sockets.
      state.phase = 'stopping';
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, 2000);
      stopJobs();
      stopWatching();
      for (const fn of shutdownHooks) fn();
      await done;
      clearTimeout(timer);
      await changes?.stop();
      mailer?.close();
      await database.close();
    })();
    return closing;
  };
  return { ctx, seeded, server, url, baseUrl: `${url}/api/v1`, close };
}

const shutdownHooks = new Set<() => void>();
/** Long-lived responses (sync streams) end themselves when the server shuts down. */
export function onShutdown(fn: () => void): () => void {
  shutdownHooks.add(fn);
  return () => shutdownHooks.delete(fn);
}
