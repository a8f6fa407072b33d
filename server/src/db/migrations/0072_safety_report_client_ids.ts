import { type Kysely, sql } from 'kysely';

/**
 * Issue 28 item 3: filing is idempotent per form. The form (or an API client)
 * sends the id it generated when it opened; a repeat of the same submission by
 * the same author finds the report already filed instead of numbering a
 * second one. Unique per company and author (other people's ids never collide
 * with mine); NULL for reports filed without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('safety_reports').addColumn('client_id', 'text').execute();
  await db.schema
    .createIndex('safety_reports_client_id')
    .on('safety_reports')
    .columns(['company_id', 'author_id', 'client_id'])
    .unique()
    .where(sql.ref('client_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('safety_reports_client_id').execute();
  await db.schema.alterTable('safety_reports').dropColumn('client_id').execute();
}
