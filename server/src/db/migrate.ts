import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DB } from './schema.ts';

const here = fileURLToPath(import.meta.url);
const dir = path.join(path.dirname(here), 'migrations');
/** `.ts` from source (tsx, tests), `.js` from the production build (server/dist). */
const ext = path.extname(here);
const MIGRATION_FILE = new RegExp(`^\\d{4}_.+\\${ext}$`);

/** Every `migrations/NNNN_name.ts` file (`.js` once built), in name order; one set for both dialects. */
class FolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = fs
      .readdirSync(dir)
      .filter((f) => MIGRATION_FILE.test(f))
      .sort();
    const out: Record<string, Migration> = {};
    for (const f of files)
      out[f.slice(0, -ext.length)] = (await import(pathToFileURL(path.join(dir, f)).href)) as Migration;
    return out;
  }
}

/**
 * `schema`: on PostgreSQL the migration tables are qualified with the deployment's
 * schema; Kysely otherwise looks them up across every schema of the database.
 */
export async function migrateToLatest(db: Kysely<DB>, schema: string | null = null): Promise<void> {
  // Areas number their migrations in ranges (0010 company, 0030 fleet...), so a new
  // file may sort before one already applied: allow that instead of refusing to start.
  const migrator = new Migrator({
    db: schema ? ownSchemaOnly(db, schema) : db,
    provider: new FolderProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/**
 * Kysely's migrator asks whether its tables exist by listing every table of every schema of the database
 * (PostgresIntrospector.getTables resolves each table by its name): a table dropped or renamed in another
 * schema during that query fails the start with "relation … does not exist" (parallel test servers on one
 * database, CI). Here the migrator lists only its own schema's tables, from the catalog alone.
 */
function ownSchemaOnly(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getMetadata: async () => ({ tables: await introspection.getTables() }),
    getTables: async () => {
      const { rows } = await sql<{ relname: string }>`select c.relname from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
      return rows.map((r) => ({ name: r.relname, schema, isView: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target);
      // Kysely's methods read private fields: they run on the instance itself, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
