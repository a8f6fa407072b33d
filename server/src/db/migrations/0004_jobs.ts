import type { Kysely } from 'kysely';

/** One row per scheduled job: the lease that lets exactly one server process run it each time. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {}
