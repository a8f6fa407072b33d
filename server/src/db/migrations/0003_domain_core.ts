import type { Kysely } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Core tables of flights and the technical log, created up front because
 * several areas read them (totals, dispatch, aircraft books). Their areas own
 * the behaviour and may add columns in later migrations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await replicated(s.createTable('flight_types'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('booking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pic_flight_time', 'text', (c) => c.notNull().defaultTo('pic'))
    .addColumn('sic_flight_time', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('supervisor_flight_time', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('flight_types_company_change')
    .on('flight_types')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s.createIndex('flight_types_company_order').on('flight_types').columns(['company_id', 'sort_order']).execute();

  await s
    .createTable('flight_type_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('flight_type_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('certificate_type', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('flight_type_certificates_type')
    .on('flight_type_certificates')
    .columns(['company_id', 'flight_type_id'])
    .execute();

  await replicated(s.createTable('flights'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('DRAFT'))
    .addColumn('callsign', 'text')
    .addColumn('aircraft_id', 'text')
    .addColumn('flight_type_id', 'text')
    .addColumn('base_id', 'text')
    .addColumn('pic_id', 'text')
    .addColumn('sic_id', 'text')
    .addColumn('supervisor_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('departure_airport', 'text')
    .addColumn('landing_airport', 'text')
    .addColumn('offblocks', 'bigint')
    .addColumn('takeoff', 'bigint')
    .addColumn('landing', 'bigint')
    .addColumn('onblocks', 'bigint')
    .addColumn('block_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flight_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('night_flight_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ifr_flight_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rules', 'text')
    .addColumn('crosscountry', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('multiengine', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('landings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('night_landings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('engine_starts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pax', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('oil', 'double precision')
    .addColumn('fuel', 'double precision')
    .addColumn('cargo', 'double precision')
    .addColumn('route', 'text')
    .addColumn('remarks', 'text')
    .addColumn('pf', 'text')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('confirmed_by', 'text')
    .addColumn('dispatched_at', 'bigint')
    .addColumn('dispatched_by', 'text')
    .execute();
  await s.createIndex('flights_company_change').on('flights').columns(['company_id', 'change_no', 'id']).execute();
  await s.createIndex('flights_company_offblocks').on('flights').columns(['company_id', 'offblocks', 'id']).execute();
  await s
    .createIndex('flights_company_aircraft')
    .on('flights')
    .columns(['company_id', 'aircraft_id', 'status', 'offblocks'])
    .execute();
  await s.createIndex('flights_company_pic').on('flights').columns(['company_id', 'pic_id', 'offblocks']).execute();
  await s.createIndex('flights_company_sic').on('flights').columns(['company_id', 'sic_id', 'offblocks']).execute();

  await s
    .createTable('flight_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('fields', 'text')
    .addColumn('comments', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('flight_changes_flight')
    .on('flight_changes')
    .columns(['company_id', 'flight_id', 'created'])
    .execute();

  await replicated(s.createTable('user_certificates'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('issue', 'text')
    .addColumn('expiration', 'text')
    .addColumn('comments', 'text')
    .addColumn('upload_id', 'text')
    .execute();
  await s
    .createIndex('user_certificates_company_change')
    .on('user_certificates')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s
    .createIndex('user_certificates_company_user')
    .on('user_certificates')
    .columns(['company_id', 'user_id', 'type'])
    .execute();
  await s
    .createIndex('user_certificates_company_expiration')
    .on('user_certificates')
    .columns(['company_id', 'expiration'])
    .execute();

  await replicated(s.createTable('aircraft_reports'))
    .addColumn('aircraft_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('ata_chapter', 'text')
    .addColumn('system', 'text')
    .addColumn('severity', 'text', (c) => c.notNull().defaultTo('LOW'))
    .addColumn('aircraft_status', 'text', (c) => c.notNull().defaultTo('FLYABLE'))
    .addColumn('dispatch_condition', 'text', (c) => c.notNull().defaultTo('NONE'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OPEN'))
    .addColumn('hours', 'double precision')
    .addColumn('cycles', 'integer')
    .addColumn('deferred_until', 'bigint')
    .addColumn('deferred_reference', 'text')
    .addColumn('closed', 'bigint')
    .addColumn('closed_by', 'text')
    .addColumn('maintenance_job_id', 'text')
    .execute();
  await s
    .createIndex('aircraft_reports_company_change')
    .on('aircraft_reports')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s
    .createIndex('aircraft_reports_company_aircraft')
    .on('aircraft_reports')
    .columns(['company_id', 'aircraft_id', 'status'])
    .execute();
  await s
    .createIndex('aircraft_reports_company_created')
    .on('aircraft_reports')
    .columns(['company_id', 'created'])
    .execute();

  // One per MEL/CDL report; replicated inside its report's document (the report's change_no moves with it).
  await s
    .createTable('mel_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('aircraft_report_id', 'text', (c) => c.notNull().unique())
    .addColumn('mel_reference', 'text')
    .addColumn('category', 'text')
    .addColumn('interval_type', 'text')
    .addColumn('interval_value', 'integer')
    .addColumn('starts', 'bigint')
    .addColumn('expires', 'bigint')
    .addColumn('baseline_flights', 'integer')
    .addColumn('baseline_cycles', 'integer')
    .addColumn('placard_fitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('procedures', 'text')
    .addColumn('released_by', 'text')
    .addColumn('released', 'bigint')
    .addColumn('extended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extended_by', 'text')
    .addColumn('extended_until', 'bigint')
    .addColumn('extension_reason', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s.createIndex('mel_items_company').on('mel_items').columns(['company_id', 'aircraft_report_id']).execute();

  await s
    .createTable('mel_item_limitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('mel_item_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('note', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('mel_item_limitations_item')
    .on('mel_item_limitations')
    .columns(['company_id', 'mel_item_id'])
    .execute();
}

export async function down(): Promise<void> {}
