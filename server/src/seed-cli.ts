import { registerAreas } from './areas/index.ts';
import { loadConfig } from './config.ts';
import { transactionRunner, type AppContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { Mailer } from './mail/mailer.ts';
import { seedDatabase } from './seed/index.ts';
import { ChangeBus } from './sync/change-bus.ts';
import { VERSION } from './version.ts';

// `npm run seed`: migrate and seed (SEED, default demo) without starting the server.
registerAreas();
const config = loadConfig({ ...process.env, SEED: process.env.SEED ?? 'demo' });
const log = createLogger(config.logLevel);
const database = openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  pgSchema: config.databaseSchema,
});
await migrateToLatest(database.db, database.pgConnection?.schema ?? null);
const changes = new ChangeBus(database, log);
const ctx: AppContext = {
  config,
  database,
  db: database.db,
  log,
  mailer: new Mailer(database.db, log, null, config.mailFrom, config.publicUrl),
  changes,
  version: VERSION,
  tx: transactionRunner(database.db, changes),
};
const seeded = await seedDatabase(ctx, config.seed);
console.log(
  seeded
    ? `seeded ${config.seed}; logins: ${seeded.logins.join(', ')} (password demo1234)`
    : 'database not empty or SEED=none: nothing seeded',
);
await database.close();
