import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, PG_URL } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const hasPgTools = ['pg_dump', 'pg_restore'].every((b) =>
  process.env.PATH?.split(':').some((d) => fs.existsSync(path.join(d, b))),
);

/** The npm run backup / restore command line, as an operator runs it. */
function cli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'server/src/ops/backup-cli.ts'), ...args],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`backup-cli ${args.join(' ')} exited ${code}: ${out}`)),
    );
  });
}

type Row = Record<string, unknown>;
const typeRows = async (s: Pick<TestServer, 'ctx'>): Promise<Map<string, Row>> => {
  const rows = await s.ctx.db.selectFrom('flight_types').selectAll().orderBy('id').execute();
  return new Map(rows.map((r) => [r.id, r as Row]));
};

describe.each(DIALECTS)('backup and restore on %s', (dialect) => {
  let s: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-backup-'));
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(dialect === 'sqlite' || hasPgTools)(
    'a backup taken under write load restores to a consistent database holding every write acknowledged before it started',
    async () => {
      const token = await s.login('admin@skyline.test');
      const acked: Array<{ id: string; at: number }> = [];
      let stop = false;
      let n = 0;
      // Four writers creating flight types until told to stop.
      const writers = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const r = await s.api('POST', '/flight_types/manager_add.json', {
            token,
            body: { FlightType: { name: `Load ${n++}` } },
          });
          expect(r.status).toBe(200);
          acked.push({ id: r.body.id, at: performance.now() });
        }
      });
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      const file = path.join(dir, dialect === 'sqlite' ? 'ops.sqlite' : 'ops.dump');
      const env: Record<string, string> =
        dialect === 'sqlite'
          ? { DATA_DIR: s.where.dataDir }
          : { DATABASE_URL: PG_URL, DATABASE_SCHEMA: s.where.schema ?? '' };
      const out = await cli(['backup', file], env);
      expect(out).toMatch(/backup written: .* \(\d+ bytes in \d+ ms\)/);
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await Promise.all(writers);
      const live = await typeRows(s);
      const ackedBefore = acked.filter((a) => a.at < started).map((a) => a.id);
      expect(ackedBefore.length).toBeGreaterThan(3);
      expect(acked.length).toBeGreaterThan(ackedBefore.length); // writes went on during and after the backup

      // Restore into a fresh place and serve from it.
      let restored: TestServer;
      let dropDb: (() => Promise<void>) | null = null;
      if (dialect === 'sqlite') {
        const target = path.join(dir, 'restored');
        expect(await cli(['restore', file], { DATA_DIR: target })).toContain('restored');
        restored = await startTestServer('sqlite', { seed: 'none', reuse: { dataDir: target } });
      } else {
        const dbName = `ops_restore_${Date.now().toString(36)}`;
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`create database ${dbName}`);
        const url = new URL(PG_URL);
        url.pathname = `/${dbName}`;
        dropDb = async () => {
          await admin.query(`drop database if exists ${dbName} with (force)`);
          await admin.end();
        };
        expect(
          await cli(['restore', file], { DATABASE_URL: url.href, DATABASE_SCHEMA: s.where.schema ?? '' }),
        ).toContain('restored');
        restored = await startTestServer('postgres', {
          seed: 'none',
          reuse: { schema: s.where.schema },
          env: { DATABASE_URL: url.href },
        });
      }
      try {
        const back = await typeRows(restored);
        // Every write acknowledged before the backup began is there; nothing the live database lacks; rows identical.
        for (const id of ackedBefore) expect(back.has(id)).toBe(true);
        for (const [id, row] of back) expect(row).toEqual(live.get(id));
        expect(back.size).toBeLessThanOrEqual(live.size);
        // The restored database serves: sign in and list.
        const t = await restored.login('admin@skyline.test');
        const list = await restored.api('GET', '/flight_types/manager_index.json', { token: t });
        expect(list.status).toBe(200);
      } finally {
        await restored.close();
        await dropDb?.();
      }
    },
  );

  it.runIf(dialect === 'sqlite')(
    'restore refuses a file that is not a database of this application, and leaves the live one alone',
    async () => {
      const bogus = path.join(dir, 'bogus.sqlite');
      fs.writeFileSync(bogus, 'not a database');
      const target = path.join(dir, 'untouched');
      await expect(cli(['restore', bogus], { DATA_DIR: target })).rejects.toThrow(/exited 1/);
      expect(fs.existsSync(path.join(target, 'ops.sqlite'))).toBe(false);
    },
  );
});
