import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type Compilable,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
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
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
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
 * SQL texts `executeNamed` was asked to run as named statements, and their
 * names (the caller's label and a hash of the text: an `in` list of another
 * length is another text, and one name must always mean one text on a
 * connection). Bounded; a text that fell out runs unnamed.
 */
const statementNames = new Map<string, string>();
const MAX_NAMED = 200;

/**
 * Runs a hot, large statement as a named (prepared) statement on PostgreSQL.
 * Each connection then parses it once, and after five runs PostgreSQL keeps
 * one generic plan when it costs no more than the custom ones
 * (`plan_cache_mode = auto`): planning a statement of many subqueries costs
 * more than running it. SQLite needs nothing: its statement cache
 * (`withStatementCache`) keeps every prepared statement already.
 */
export async function executeNamed<O>(db: Kysely<DB>, label: string, query: Compilable<O>): Promise<O[]> {
  const compiled = query.compile();
  if (!statementNames.has(compiled.sql)) {
    if (statementNames.size >= MAX_NAMED) statementNames.delete(statementNames.keys().next().value as string);
    statementNames.set(compiled.sql, `${label}_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 16)}`);
  }
  return (await db.executeQuery(compiled)).rows;
}

/**
 * The pool as Kysely sees it: a statement whose text `executeNamed` named is
 * sent with its name (pg prepares it once per connection and then only binds);
 * every other statement goes as before. One wrapper per client, so Kysely's
 * own per-client connection cache still holds.
 */
function namingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const known = wrapped.get(client);
    if (known) return known;
    const query = (sqlOrCursor: unknown, values?: ReadonlyArray<unknown>) => {
      const name = typeof sqlOrCursor === 'string' ? statementNames.get(sqlOrCursor) : undefined;
      if (name) return client.query({ name, text: sqlOrCursor as string, values: [...(values ?? [])] });
      return (client.query as (...a: unknown[]) => unknown)(sqlOrCursor, values);
    };
    const w: PostgresPoolClient = { query: query as PostgresPoolClient['query'], release: () => client.release() };
    wrapped.set(client, w);
    return w;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
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
