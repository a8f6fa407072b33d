import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Flights area (docs/areas/flights.md): the list's sort instant, per-company
 * counters so an unfiltered list never counts rows, the airports a company
 * uses (offline reference data), and flight risk assessments (FRAT).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Non-null sort and date-range key: off-blocks, else take-off, else midnight of `date` in the flight zone.
  // A nullable offblocks would order differently on SQLite and PostgreSQL and defeat keyset reads.
  await s
    .alterTable('flights')
    .addColumn('starts', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await s.createIndex('flights_company_starts').on('flights').columns(['company_id', 'starts', 'id']).execute();
  await s
    .createIndex('flights_company_aircraft_starts')
    .on('flights')
    .columns(['company_id', 'aircraft_id', 'starts'])
    .execute();
  await s.createIndex('flights_company_pic_starts').on('flights').columns(['company_id', 'pic_id', 'starts']).execute();
  await s.createIndex('flights_company_sic_starts').on('flights').columns(['company_id', 'sic_id', 'starts']).execute();
  await s
    .createIndex('flights_company_supervisor_starts')
    .on('flights')
    .columns(['company_id', 'supervisor_id', 'starts'])
    .execute();
  await s
    .createIndex('flights_company_user_starts')
    .on('flights')
    .columns(['company_id', 'user_id', 'starts'])
    .execute();
  await s
    .createIndex('flights_company_base_starts')
    .on('flights')
    .columns(['company_id', 'base_id', 'starts'])
    .execute();
  await s
    .createIndex('flights_company_type_starts')
    .on('flights')
    .columns(['company_id', 'flight_type_id', 'starts'])
    .execute();
  // Overlap check on confirm: LANDED flights of one aircraft by off-blocks (aircraft ids are global UUIDs).
  await s
    .createIndex('flights_aircraft_status_offblocks')
    .on('flights')
    .columns(['aircraft_id', 'status', 'offblocks'])
    .execute();

  // Flights per company and stored status, maintained in the writing transaction.
  await s
    .createTable('flight_counts')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('flight_counts_pk', ['company_id', 'status'])
    .execute();

  // Airports a company uses (flights and bases): replicated as `airport` reference documents.
  await replicated(s.createTable('company_airports'))
    .addColumn('icao', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('company_airports_company_icao')
    .on('company_airports')
    .columns(['company_id', 'icao'])
    .unique()
    .execute();
  await s
    .createIndex('company_airports_company_change')
    .on('company_airports')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  await s
    .createTable('flight_risk_assessments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('mitigation', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('flight_risk_assessments_flight')
    .on('flight_risk_assessments')
    .columns(['company_id', 'flight_id'])
    .unique()
    .execute();
}

export async function down(): Promise<void> {}
