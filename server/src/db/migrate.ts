import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
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
    db,
    provider: new FolderProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
