import type { Kysely } from 'kysely';

/**
 * Tombstone retention (docs/sync.md): per company, the highest change number
 * of a purged tombstone. A pull whose checkpoint is below it answers 410.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_horizons')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('purged_at', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sync_horizons').execute();
}
