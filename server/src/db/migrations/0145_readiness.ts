import type { Kysely } from 'kysely';

/**
 * Readiness (issue 31, docs/areas/readiness.md): the company's policy per
 * check and the numbers they compare against, one JSON document per company.
 * No row: every check ignored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('readiness_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .addColumn('modified_by', 'text')
    .execute();
}

export async function down(): Promise<void> {}
