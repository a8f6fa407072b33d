import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The SQLite file a server with this data directory uses (database.ts: DATA_DIR/ops.sqlite). */
export const sqliteFileOf = (dataDir: string) => path.join(dataDir, 'ops.sqlite');

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

/**
 * SQLite online backup while the server serves: SQLite's backup API through
 * better-sqlite3, from a connection of its own. The whole database is copied
 * in one step, which holds one read transaction: in WAL mode writers go on
 * and the copy is the committed state at one instant (a copy in small steps
 * restarts whenever another connection writes, so it may never finish under
 * load). Written to `<target>.partial`, checked, then renamed, so a crash
 * never leaves a half backup under the final name.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  const started = Date.now();
  if (!fs.existsSync(source)) throw new Error(`no SQLite database at ${source}`);
  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(partial, { progress: () => 1_000_000_000 });
  } finally {
    db.close();
  }
  verifySqlite(partial);
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, ms: Date.now() - started };
}

/** Throws unless the file is a sound SQLite database of this application. */
export function verifySqlite(file: string): void {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`${file}: integrity check failed: ${String(check)}`);
    const migrated = db
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get() as { n: number };
    if (!migrated.n) throw new Error(`${file}: not a database of this application (no migration table)`);
  } finally {
    db.close();
  }
}

/**
 * Restores a SQLite backup into a data directory. The server must be stopped:
 * the backup is checked, copied next to the live file, and renamed over it;
 * the old write-ahead log and shared-memory files are removed first, since
 * they belong to the replaced database. The replaced file is kept as
 * `ops.sqlite.before-restore`.
 */
export function restoreSqlite(backup: string, dataDir: string): { file: string; previous: string | null } {
  verifySqlite(backup);
  fs.mkdirSync(dataDir, { recursive: true });
  const live = sqliteFileOf(dataDir);
  const staging = `${live}.restoring`;
  fs.copyFileSync(backup, staging);
  let previous: string | null = null;
  if (fs.existsSync(live)) {
    previous = `${live}.before-restore`;
    fs.copyFileSync(live, previous);
  }
  for (const side of [`${live}-wal`, `${live}-shm`]) fs.rmSync(side, { force: true });
  fs.renameSync(staging, live);
  return { file: live, previous };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.trim()}`))));
  });
}

/**
 * PostgreSQL: `pg_dump --format=custom` of the deployment's schema (or the
 * whole database without one). Consistent while the servers write: pg_dump
 * reads one snapshot.
 */
export async function backupPostgres(
  databaseUrl: string,
  schema: string | null,
  target: string,
): Promise<BackupResult> {
  const started = Date.now();
  const partial = `${target}.partial`;
  await run(
    'pg_dump',
    [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      ...(schema ? ['--schema', schema] : []),
      '--file',
      partial,
      '--dbname',
      databaseUrl,
    ],
    process.env,
  );
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, ms: Date.now() - started };
}

/**
 * PostgreSQL restore into an empty database (or, with `--clean`, over the
 * objects the dump holds). Servers stopped; with a schema, the schema is
 * created by the dump.
 */
export async function restorePostgres(
  databaseUrl: string,
  dump: string,
  opts: { clean?: boolean } = {},
): Promise<void> {
  await run(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(opts.clean ? ['--clean', '--if-exists'] : []),
      '--dbname',
      databaseUrl,
      dump,
    ],
    process.env,
  );
}
