/**
 * Migrated and seeded databases made once per test run and copied for each test server (docs/testing.md,
 * CI time). Migrations and the fixture seed cost ~1.7 s + 1.2 s per SQLite server and ~5.8 s + 2.7 s per
 * PostgreSQL server under CI load, the demo seed far more; a copy is a file copy on SQLite and one
 * multi-statement script (pg_dump of the seeded schema, renamed) on PostgreSQL. The fixture templates are
 * made by the global setup; the demo ones by the first server that asks for one in the run (a lock file
 * keeps it to one), since most runs of a single file never need them. Servers with `seed: 'none'` and
 * restarts on an existing database still migrate (and seed) themselves.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { SeedRefs } from '../../server/src/seed/refs.ts';
import { createPgSchema, PG_URL, type TestDialect } from './dialects.ts';

/** Where the global setup keeps the templates; unset means every server migrates and seeds itself. */
export const TEMPLATE_DIR_ENV = 'OPS_TEST_TEMPLATE_DIR';
export type TemplateSeed = 'fixtures' | 'demo';
/** Starts a server that leaves its database behind (startTestServer with `reuse`), passed in to avoid an import cycle. */
export type StartForTemplate = (
  d: TestDialect,
  o: { seed: TemplateSeed; reuse: { dataDir?: string; schema?: string } },
) => Promise<{ refs: SeedRefs; close(): Promise<void> }>;

function files(dir: string, dialect: TestDialect, seed: TemplateSeed) {
  const base = path.join(dir, `${dialect}-${seed}`);
  return {
    /** Written last: a template is ready once its refs exist. */
    refs: `${base}.refs.json`,
    failed: `${base}.failed`,
    lock: `${base}.lock`,
    sqliteDir: base,
    pgScript: `${base}.sql`,
    pgName: `${base}.name`,
  };
}

/**
 * One template: a server seeds a database that outlives it, kept as the SQLite data folder itself or as
 * the PostgreSQL schema's SQL script with a placeholder for the schema name.
 */
export async function makeTemplate(
  dir: string,
  dialect: TestDialect,
  seed: TemplateSeed,
  start: StartForTemplate,
): Promise<void> {
  const f = files(dir, dialect, seed);
  if (dialect === 'sqlite') {
    const s = await start('sqlite', { seed, reuse: { dataDir: f.sqliteDir } });
    await s.close();
    fs.writeFileSync(f.refs, JSON.stringify(s.refs));
    return;
  }
  const schema = await createPgSchema();
  try {
    const s = await start('postgres', { seed, reuse: { schema: schema.schema } });
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
      { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
    );
    // Without pg_dump (or with one older than the server) PostgreSQL servers migrate and seed themselves.
    if (dump.status !== 0) {
      console.warn(`test template: pg_dump failed, PostgreSQL servers migrate and seed each (${dump.stderr?.trim()})`);
      fs.writeFileSync(f.failed, 'pg_dump');
      return;
    }
    // Random, so that no row's text can contain it.
    const placeholder = `ops_template_${Math.random().toString(36).slice(2, 10)}`;
    // pg_dump's psql meta-commands (\restrict) are not SQL.
    const script = dump.stdout
      .split('\n')
      .filter((l) => !l.startsWith('\\'))
      .join('\n')
      .replaceAll(schema.schema, placeholder);
    fs.writeFileSync(f.pgScript, script);
    fs.writeFileSync(f.pgName, placeholder);
    fs.writeFileSync(f.refs, JSON.stringify(s.refs));
  } finally {
    if (!dropSchemaLater(schema.schema)) await schema.drop();
  }
}

/**
 * Schemas of this run's servers are dropped by the global teardown, not when each server closes:
 * Kysely's migrator reads the tables of every schema of the database when a server starts, and a
 * schema dropped during that query makes it fail ("schema … does not exist") once files run in
 * parallel. Returns false when there is no run directory (drop it now).
 */
export function dropSchemaLater(schema: string): boolean {
  const dir = process.env[TEMPLATE_DIR_ENV];
  if (!dir || !fs.existsSync(dir)) return false;
  fs.appendFileSync(path.join(dir, 'drop-schemas.txt'), `${schema}\n`);
  return true;
}

/** The global teardown: drops the schemas the run's servers left (see dropSchemaLater). */
export async function dropRunSchemas(dir: string): Promise<void> {
  const list = path.join(dir, 'drop-schemas.txt');
  if (!fs.existsSync(list)) return;
  const schemas = fs.readFileSync(list, 'utf8').split('\n').filter(Boolean);
  const client = new pg.Client({ connectionString: PG_URL });
  // A restart of the shared PostgreSQL (fault tests) then fails the query instead of the process.
  client.on('error', () => {});
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The global setup's directory for this run (removed by its teardown). */
export function templateDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ops-template-'));
}

/**
 * The template's files once it is ready, or null (no template directory, or it could not be made).
 * A demo template missing yet is made here by the first caller of the run; the others wait for it.
 */
async function ready(dialect: TestDialect, seed: TemplateSeed, start: StartForTemplate) {
  const dir = process.env[TEMPLATE_DIR_ENV];
  if (!dir || !fs.existsSync(dir)) return null;
  const f = files(dir, dialect, seed);
  if (fs.existsSync(f.refs)) return f;
  if (seed === 'demo') {
    let mine = false;
    try {
      fs.closeSync(fs.openSync(f.lock, 'wx'));
      mine = true;
    } catch {
      // another worker is making it
    }
    if (mine) {
      try {
        await makeTemplate(dir, dialect, seed, start);
      } catch (err) {
        fs.writeFileSync(f.failed, String(err));
        throw err;
      }
    }
    // The demo seed takes up to a minute on a loaded machine; past five, seed this server itself.
    const until = Date.now() + 300_000;
    while (!fs.existsSync(f.refs) && !fs.existsSync(f.failed) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
  }
  return fs.existsSync(f.refs) ? f : null;
}

/** The seeded SQLite data copied into `dataDir`; the template's refs, or null when there is no template. */
export async function copySqliteTemplate(
  dataDir: string,
  seed: TemplateSeed,
  start: StartForTemplate,
): Promise<SeedRefs | null> {
  const f = await ready('sqlite', seed, start);
  if (!f) return null;
  fs.cpSync(f.sqliteDir, dataDir, { recursive: true });
  return JSON.parse(fs.readFileSync(f.refs, 'utf8')) as SeedRefs;
}

/** The seeded schema created again under `schema` in one round trip; the template's refs, or null. */
export async function copyPgTemplate(
  schema: string,
  seed: TemplateSeed,
  start: StartForTemplate,
): Promise<SeedRefs | null> {
  const f = await ready('postgres', seed, start);
  if (!f) return null;
  const script = fs.readFileSync(f.pgScript, 'utf8').replaceAll(fs.readFileSync(f.pgName, 'utf8'), schema);
  const client = new pg.Client({ connectionString: PG_URL });
  // A restart of the shared PostgreSQL (fault tests) then fails the query instead of the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`BEGIN;\n${script};\nCOMMIT`);
  } finally {
    await client.end();
  }
  return JSON.parse(fs.readFileSync(f.refs, 'utf8')) as SeedRefs;
}
