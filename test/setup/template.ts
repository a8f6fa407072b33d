/**
 * A migrated and seeded database made once per test run and copied for each test server (docs/testing.md,
 * CI time). Migrations and the fixture seed cost ~1.7 s + 1.2 s per SQLite server and ~5.8 s + 2.7 s per
 * PostgreSQL server under CI load; a copy is a file copy on SQLite and one multi-statement script (pg_dump of
 * the seeded schema, renamed) on PostgreSQL. Only plain fixture servers are copied: `seed: 'demo' | 'none'`
 * and restarts on an existing database still migrate and seed themselves.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { SeedRefs } from '../../server/src/seed/refs.ts';
import { createPgSchema, PG_URL, type TestDialect } from './dialects.ts';

/** Where the global setup left the templates; unset means every server migrates and seeds itself. */
export const TEMPLATE_DIR_ENV = 'OPS_TEST_TEMPLATE_DIR';
/** Replaced by each copy's own schema name; random so that no row's text can contain it. */
const PLACEHOLDER = `ops_template_${Math.random().toString(36).slice(2, 10)}`;

interface TemplateFiles {
  refs: Record<TestDialect, string>;
  sqliteDir: string;
  pgScript: string;
  pgName: string;
}

function files(dir: string): TemplateFiles {
  return {
    refs: { sqlite: path.join(dir, 'sqlite.refs.json'), postgres: path.join(dir, 'postgres.refs.json') },
    sqliteDir: path.join(dir, 'sqlite'),
    pgScript: path.join(dir, 'postgres.sql'),
    pgName: path.join(dir, 'postgres.name'),
  };
}

/**
 * Starts one fixture server per dialect on a database that outlives it, then keeps that database:
 * the SQLite data folder as it is, the PostgreSQL schema as a SQL script. `start` is startTestServer,
 * passed in so this module does not import the server (the workers import this one too).
 */
export async function makeTemplates(
  dir: string,
  dialects: TestDialect[],
  start: (
    d: TestDialect,
    o: { reuse: { dataDir?: string; schema?: string } },
  ) => Promise<{ refs: SeedRefs; close(): Promise<void> }>,
): Promise<void> {
  const f = files(dir);
  for (const dialect of dialects) {
    if (dialect === 'sqlite') {
      const s = await start('sqlite', { reuse: { dataDir: f.sqliteDir } });
      fs.writeFileSync(f.refs[dialect], JSON.stringify(s.refs));
      await s.close();
      continue;
    }
    const schema = await createPgSchema();
    try {
      const s = await start('postgres', { reuse: { schema: schema.schema } });
      fs.writeFileSync(f.refs[dialect], JSON.stringify(s.refs));
      await s.close();
      const dump = spawnSync(
        'pg_dump',
        [
          '--dbname',
          PG_URL,
          '--schema',
          schema.schema,
          '--no-owner',
          '--no-privileges',
          '--inserts',
          '--rows-per-insert=500',
        ],
        { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      );
      // Without pg_dump (or with one older than the server) PostgreSQL servers migrate and seed themselves.
      if (dump.status !== 0) {
        fs.rmSync(f.refs.postgres);
        console.warn(`test template: pg_dump failed, PostgreSQL servers migrate and seed each (${dump.stderr.trim()})`);
        continue;
      }
      // pg_dump's psql meta-commands (\restrict) are not SQL.
      const script = dump.stdout
        .split('\n')
        .filter((l) => !l.startsWith('\\'))
        .join('\n')
        .replaceAll(schema.schema, PLACEHOLDER);
      fs.writeFileSync(f.pgScript, script);
      fs.writeFileSync(f.pgName, PLACEHOLDER);
    } finally {
      await schema.drop();
    }
  }
}

/** The global setup's directory, made for this run (removed by its teardown). */
export function templateDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ops-template-'));
}

function ready(dialect: TestDialect): TemplateFiles | null {
  const dir = process.env[TEMPLATE_DIR_ENV];
  if (!dir) return null;
  const f = files(dir);
  if (!fs.existsSync(f.refs[dialect])) return null;
  if (dialect === 'sqlite' ? !fs.existsSync(f.sqliteDir) : !fs.existsSync(f.pgScript)) return null;
  return f;
}

/** The seeded SQLite data copied into `dataDir`; the template's refs, or null when there is no template. */
export function copySqliteTemplate(dataDir: string): SeedRefs | null {
  const f = ready('sqlite');
  if (!f) return null;
  fs.cpSync(f.sqliteDir, dataDir, { recursive: true });
  return JSON.parse(fs.readFileSync(f.refs.sqlite, 'utf8')) as SeedRefs;
}

/** The seeded schema created again under `schema` in one round trip; the template's refs, or null. */
export async function copyPgTemplate(schema: string): Promise<SeedRefs | null> {
  const f = ready('postgres');
  if (!f) return null;
  const script = fs.readFileSync(f.pgScript, 'utf8').replaceAll(fs.readFileSync(f.pgName, 'utf8'), schema);
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`BEGIN;\n${script};\nCOMMIT`);
  } finally {
    await client.end();
  }
  return JSON.parse(fs.readFileSync(f.refs.postgres, 'utf8')) as SeedRefs;
}
