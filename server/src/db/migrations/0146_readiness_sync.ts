import type { Kysely } from 'kysely';

/**
 * Readiness policy on devices (issue 31, docs/areas/readiness.md): the
 * company's policy document is replicated read-only as a `readiness` reference
 * document; its change number tells a pull to send it again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('readiness_settings')
    .addColumn('change_no', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {}
