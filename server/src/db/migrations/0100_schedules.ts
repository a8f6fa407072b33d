import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Scheduling (docs/areas/scheduling.md): bookings of an aircraft, a pilot and
 * optionally an instructor, each linked to its SCHEDULED flight; and the
 * secret calendar feed URLs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Replicated (offline `bookings` collection). `start_at`/`end_at` avoid the reserved word END.
  await replicated(s.createTable('schedules'))
    .addColumn('aircraft_id', 'text', (c) => c.notNull())
    .addColumn('pilot_id', 'text', (c) => c.notNull())
    .addColumn('instructor_id', 'text')
    .addColumn('flight_type_id', 'text', (c) => c.notNull())
    .addColumn('base_id', 'text')
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('BOOKED'))
    .addColumn('flight_id', 'text')
    .addColumn('remarks', 'text')
    .addColumn('user_id', 'text')
    .addColumn('departure_airport', 'text')
    .addColumn('landing_airport', 'text')
    .execute();
  await s.createIndex('schedules_company_change').on('schedules').columns(['company_id', 'change_no', 'id']).execute();
  // Board and feeds: live bookings by start, whole company or one resource.
  await s
    .createIndex('schedules_company_start')
    .on('schedules')
    .columns(['company_id', 'start_at', 'end_at'])
    .execute();
  await s
    .createIndex('schedules_company_aircraft_start')
    .on('schedules')
    .columns(['company_id', 'aircraft_id', 'start_at'])
    .execute();
  await s
    .createIndex('schedules_company_pilot_start')
    .on('schedules')
    .columns(['company_id', 'pilot_id', 'start_at'])
    .execute();
  await s
    .createIndex('schedules_company_instructor_start')
    .on('schedules')
    .columns(['company_id', 'instructor_id', 'start_at'])
    .execute();
  await s.createIndex('schedules_company_flight').on('schedules').columns(['company_id', 'flight_id']).execute();

  // Secret calendar feed URLs: only the token's hash is kept; revoking stamps `revoked_at`.
  await s
    .createTable('schedule_feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await s.createIndex('schedule_feeds_token').on('schedule_feeds').columns(['token_hash']).unique().execute();
  await s.createIndex('schedule_feeds_company_user').on('schedule_feeds').columns(['company_id', 'user_id']).execute();
}

export async function down(): Promise<void> {}
