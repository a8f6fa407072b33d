import fs from 'node:fs';
import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

/** Dialects this run covers: TEST_DIALECTS=sqlite,postgres (default both). */
export const DIALECTS: TestDialect[] = (process.env.TEST_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is TestDialect => d === 'sqlite' || d === 'postgres');

/** CI checks that each half really ran suites of its dialect. */
export function markDialectRan(dialect: TestDialect): void {
  const file = process.env.OPS_TEST_MARKER;
  if (file) fs.appendFileSync(file, `${dialect}\n`);
}

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A new schema name; unique per test server, so suites run in parallel on one PostgreSQL database. */
export function pgSchemaName(): string {
  return `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export async function dropPgSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  // A restart of the shared PostgreSQL (fault tests) then fails the query instead of the process.
  c.on('error', () => {});
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

/** A fresh, empty schema per test server. */
export async function createPgSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = pgSchemaName();
  const client = new pg.Client({ connectionString: PG_URL });
  // A restart of the shared PostgreSQL (fault tests) then fails the query instead of the process.
  client.on('error', () => {});
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  return { schema, drop: () => dropPgSchema(schema) };
}
