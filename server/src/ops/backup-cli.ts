/**
 * npm run backup [-- <file>]    back up the database the environment names (DATABASE_URL or DATA_DIR)
 * npm run restore -- <file>      restore a backup (servers stopped)
 *
 * SQLite: an online backup of DATA_DIR/ops.sqlite, safe while the server
 * serves. PostgreSQL (DATABASE_URL, DATABASE_SCHEMA): pg_dump / pg_restore in
 * the custom format. Default file: backups/ops-<dialect>-<UTC time>.<ext>.
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { backupPostgres, backupSqlite, restorePostgres, restoreSqlite, sqliteFileOf } from './backup.ts';

const [command, fileArg] = process.argv.slice(2);
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');

async function main() {
  if (command === 'backup') {
    const file = path.resolve(
      fileArg ??
        path.join(
          'backups',
          `ops-${config.databaseUrl ? 'postgres' : 'sqlite'}-${stamp}.${config.databaseUrl ? 'dump' : 'sqlite'}`,
        ),
    );
    const r = config.databaseUrl
      ? await backupPostgres(config.databaseUrl, config.databaseSchema, file)
      : await backupSqlite(sqliteFileOf(config.dataDir), file);
    console.log(`backup written: ${r.file} (${r.bytes} bytes in ${r.ms} ms)`);
  } else if (command === 'restore') {
    if (!fileArg) throw new Error('usage: npm run restore -- <backup file>');
    if (config.databaseUrl) {
      await restorePostgres(config.databaseUrl, path.resolve(fileArg), { clean: process.env.RESTORE_CLEAN === '1' });
      console.log(`restored ${fileArg} into ${config.databaseSchema ?? 'the database'}`);
    } else {
      const r = restoreSqlite(path.resolve(fileArg), config.dataDir);
      console.log(`restored ${fileArg} to ${r.file}${r.previous ? ` (previous database kept as ${r.previous})` : ''}`);
    }
  } else {
    throw new Error('usage: backup-cli backup [file] | restore <file>');
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
