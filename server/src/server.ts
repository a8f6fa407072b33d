import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { mountFieldClient } from './field-client.ts';
import { allRoutes } from './areas/index.ts';
import type { Config } from './config.ts';
import { transactionRunner, type AppContext } from './context.ts';
import { openDatabase, type OpenOptions } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
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

/** Opens the database, migrates, seeds an empty database, and listens. */
export async function startServer(config: Config, dbOptions?: Partial<OpenOptions>): Promise<RunningServer> {
  const log = createLogger(config.logLevel);
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgSchema: config.databaseSchema, ...dbOptions });
  await migrateToLatest(database.db, database.pgConnection?.schema ?? null);
  const changes = new ChangeBus(database, log);
  await changes.start();
  const mailer = new Mailer(database.db, log, config.smtpUrl, config.mailFrom, config.publicUrl);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    log,
    mailer,
    changes,
    version: VERSION,
    tx: transactionRunner(database.db, changes),
  };
  const seeded = await seedDatabase(ctx, config.seed);
  if (seeded) log.info({ logins: seeded.logins }, `seeded ${config.seed} data; every demo login uses password demo1234`);

  const routes = allRoutes();
  const app = createApp(ctx, routes, (a) => mountFieldClient(a));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
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
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, 2000);
      stopJobs();
      for (const fn of shutdownHooks) fn();
      await done;
      clearTimeout(timer);
      await changes.stop();
      mailer.close();
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
