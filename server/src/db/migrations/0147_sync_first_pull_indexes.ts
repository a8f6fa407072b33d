import type { Kysely } from 'kysely';

/**
 * Issue 35, third round: a pilot's first sync without walking the company.
 *
 * A person who sees only the flights and bookings naming them loads them per
 * naming column (server/src/db/naming-rows.ts): the rows of one column, in the
 * pull's (change_no, id) order after a checkpoint. Each naming column of the
 * rule (flights: FLIGHT_INVOLVED_FIELDS; bookings: BOOKING_SCOPE_FIELDS) leads
 * an index that ends in that order, so a page is one ordered range per column
 * and a count is read from the indexes; `deleted` is carried so neither needs
 * the table for it. The list filters' indexes (0041: crew column then
 * `starts`) cannot give change order.
 */
const NAMING = [
  ['flights', 'pic_id', 'pic'],
  ['flights', 'sic_id', 'sic'],
  ['flights', 'supervisor_id', 'supervisor'],
  ['flights', 'user_id', 'user'],
  ['schedules', 'pilot_id', 'pilot'],
  ['schedules', 'instructor_id', 'instructor'],
  ['schedules', 'user_id', 'user'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  for (const [table, column, name] of NAMING)
    await s
      .createIndex(`${table}_company_${name}_change`)
      .on(table)
      .columns(['company_id', column, 'change_no', 'id', 'deleted'])
      .execute();
}

export async function down(): Promise<void> {}
