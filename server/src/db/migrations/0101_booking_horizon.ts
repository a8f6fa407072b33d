import type { Kysely } from 'kysely';

/**
 * The company's booking horizon (CONTRACT 5, issue 28 item 4): how many days
 * ahead a booking may start. NULL keeps the contract's default of 365 days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('companies').addColumn('booking_horizon_days', 'integer').execute();
}

export async function down(): Promise<void> {}
