import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { DB } from './db/schema.ts';
import { inTransaction, type UnitOfWork } from './db/unit-of-work.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';
import type { ChangeBus } from './sync/change-bus.ts';

/** Everything a service needs, created once per server process. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  log: Logger;
  mailer: Mailer;
  changes: ChangeBus;
  version: string;
  /** Runs a write transaction; replicated rows get change numbers and streams are told after commit. */
  tx<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T>;
}

export function transactionRunner(db: Kysely<DB>, changes: ChangeBus): AppContext['tx'] {
  return (fn) => inTransaction(db, (events) => changes.publish(events), fn);
}
