import type { Kysely } from 'kysely';

/**
 * Marks of published state changes nothing writes directly (time passes): an
 * MEL or CDL item's expiry, once per deadline (before and after its one
 * extension), and the last published block state of an aircraft. Kept apart
 * from the fleet tables so their sync documents and presenters are untouched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mel_expiry_marks')
    .addColumn('mel_item_id', 'text', (c) => c.notNull())
    .addColumn('extended', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('aircraft_report_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mel_expiry_marks_pk', ['mel_item_id', 'extended'])
    .execute();
  await db.schema.createIndex('mel_expiry_marks_company').on('mel_expiry_marks').columns(['company_id']).execute();
  await db.schema
    .createTable('aircraft_block_marks')
    .addColumn('aircraft_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('aircraft_block_marks_company')
    .on('aircraft_block_marks')
    .columns(['company_id', 'blocked'])
    .execute();
}

export async function down(): Promise<void> {}
