import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await replicated(s.createTable('sync_outcomes'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('attempted', 'text')
    .execute();
  await s
    .createIndex('sync_outcomes_company_change')
    .on('sync_outcomes')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  await replicated(s.createTable('commands'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('args', 'text', (c) => c.notNull())
    .addColumn('client_time', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('details', 'text')
    .addColumn('result', 'text')
    .addColumn('decided_at', 'bigint')
    .execute();
  await s.createIndex('commands_company_change').on('commands').columns(['company_id', 'change_no', 'id']).execute();
}

export async function down(): Promise<void> {}
