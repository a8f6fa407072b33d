import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/src/db/database.ts';

// Two processes on one SQLite file (a second server, the backup, a CLI): a
// transaction that reads and then writes must not fail because the other one
// committed in between (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out).
describe('SQLite transactions with a second connection on the file', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-tx-'));
  const database = openDatabase({ databaseUrl: null, dataDir });
  const other = new SQLite(path.join(dataDir, 'ops.sqlite'));
  other.pragma('busy_timeout = 50');
  afterAll(async () => {
    other.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a transaction holds the write lock from its begin, so its write after a read succeeds', async () => {
    await sql`create table t (n integer)`.execute(database.db);
    await sql`insert into t values (1)`.execute(database.db);
    let otherWrite: unknown = null;
    await database.db.transaction().execute(async (trx) => {
      const before = await sql<{ n: number }>`select count(*) as n from t`.execute(trx);
      expect(before.rows[0].n).toBe(1);
      // The other connection cannot commit in between: it waits for the lock (here 50 ms) and gives up.
      try {
        other.prepare('insert into t values (2)').run();
      } catch (err) {
        otherWrite = err;
      }
      await sql`insert into t values (3)`.execute(trx);
    });
    expect((otherWrite as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    // Once the transaction ended, the other connection writes normally.
    other.prepare('insert into t values (4)').run();
    const all = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
    expect(all.rows.map((r) => r.n)).toEqual([1, 3, 4]);
  });
});
