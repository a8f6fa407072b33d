import type { Kysely } from 'kysely';

/**
 * Webhooks: endpoints registered by managers, the outbox of events written in
 * the transaction of the change, and one delivery row per endpoint and event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_company')
    .on('webhook_endpoints')
    .columns(['company_id', 'deleted', 'active'])
    .execute();
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_events_company')
    .on('webhook_events')
    .columns(['company_id', 'created'])
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('delivered', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  // The delivery job's scan, and the per-record order check (older pending deliveries first).
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_record')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'record_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['company_id', 'endpoint_id', 'id'])
    .execute();
}

export async function down(): Promise<void> {}
