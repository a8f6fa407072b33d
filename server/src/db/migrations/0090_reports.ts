import type { Kysely } from 'kysely';

/**
 * Reports and weather (docs/areas/reports.md).
 *
 * - `weather_cache`: provider answers shared by every server process of a
 *   deployment (the database is the one thing they share), keyed by kind,
 *   airport and the matched instant, with an expiry.
 * - Report indexes: the user reports read a pilot's LANDED flights through
 *   the (company, pic|sic, starts, id, status) indexes of 0041 and the
 *   aircraft reports through (company, aircraft, starts, id, status); those
 *   ranges are small per pilot and aircraft, but the sums would still visit
 *   the table once per flight, so covering indexes per seat carry status,
 *   the month key (`date`), the summed, grouped and filtered columns: a
 *   report is answered from the index alone (PostgreSQL: index-only scans)
 *   on both dialects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('weather_cache')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('fetched', 'bigint', (c) => c.notNull())
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('weather_cache_expires').on('weather_cache').columns(['expires']).execute();

  // Everything the aggregates read or filter on after the leading equality columns.
  const READ = [
    'date',
    'block_time',
    'landings',
    'flight_type_id',
    'rules',
    'onblocks',
    'departure_airport',
    'landing_airport',
  ];
  await s
    .createIndex('flights_reports_pic')
    .on('flights')
    .columns(['company_id', 'pic_id', 'status', 'starts', ...READ])
    .execute();
  // The SIC range skips flights where the pilot is also PIC (counted once, from the PIC range).
  await s
    .createIndex('flights_reports_sic')
    .on('flights')
    .columns(['company_id', 'sic_id', 'status', 'starts', 'pic_id', ...READ])
    .execute();
  await s
    .createIndex('flights_reports_aircraft')
    .on('flights')
    .columns(['company_id', 'aircraft_id', 'status', 'starts', ...READ])
    .execute();
}

export async function down(): Promise<void> {}
