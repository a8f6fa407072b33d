import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await replicated(db.schema.createTable('notifications'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('link', 'text')
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('notifications_company_change')
    .on('notifications')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_company_user')
    .on('notifications')
    .columns(['company_id', 'user_id', 'created'])
    .execute();
}

export async function down(): Promise<void> {}
