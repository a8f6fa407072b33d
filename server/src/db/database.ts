import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL only: the pool, for LISTEN/NOTIFY clients. */
  pool: pg.Pool | null;
  pgConnection: { connectionString: string; schema: string | null } | null;
  close(): Promise<void>;
}

// bigint (int8) and numeric come back as strings by default; every value we store
// fits in a double (unix seconds, change numbers, counters).
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests isolate each suite in its own schema). */
  pgSchema?: string | null;
  poolSize?: number;
}

export function openDatabase(opts: OpenOptions): Database {
  if (opts.databaseUrl) {
    const schema = opts.pgSchema ?? null;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      // While the database is unreachable a request fails (503) after this, instead of waiting for ever in the pool queue.
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // A connection that breaks while checked out (inside a transaction, between two statements) emits 'error'
    // with no listener of the pool's on it, which would end the process. The statement in flight fails on its
    // own; the broken client is dropped by the pool when released (it is no longer queryable).
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      pool,
      pgConnection: { connectionString: opts.databaseUrl, schema },
      close: () => db.destroy(),
    };
  }
  const file = opts.sqliteFile ?? 'ops.sqlite';
  let filename = file;
  if (file !== ':memory:') {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    filename = path.join(opts.dataDir, file);
  }
  const sqlite = new SQLite(filename);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', pool: null, pgConnection: null, close: () => db.destroy() };
}

/**
 * Transactions begin with `begin immediate`: they take SQLite's write lock when
 * they begin, waiting up to busy_timeout for it. Kysely's plain (deferred)
 * `begin` reads first and asks for the lock at the first write; if another
 * process committed in between, SQLite fails that write at once with
 * SQLITE_BUSY_SNAPSHOT, no waiting (a 500 seen with two processes on one file:
 * a push's read-then-write while the other process ran a job).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs more
 * than running an indexed query. Keep prepared statements by SQL text (LRU). A
 * statement still iterating (a streamed result) is `busy`: use a fresh one then.
 */
function withStatementCache(sqlite: SQLite.Database, size = 1000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = sqlite.prepare(sql);
      if (!hit) {
        cache.set(sql, stmt);
        if (cache.size > size) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
  };
}
