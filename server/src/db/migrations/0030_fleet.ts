import { type Kysely, sql } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Fleet and maintenance (docs/areas/fleet.md): aircraft certificate expiry
 * dates, inventory, maintenance programmes and plan actions, maintenance jobs
 * with work orders. The technical log tables (aircraft_reports, mel_items,
 * mel_item_limitations) come from 0003.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // Certificate expiry dates (calendar dates, `YYYY-MM-DD`) feeding the `Aircraft` alerts (Part A 2.4).
  for (const c of ['insurance', 'airworthiness', 'registration', 'weight_balance', 'radio', 'avionics']) {
    await s.alterTable('aircraft').addColumn(`${c}_expiration`, 'text').execute();
  }
  await s.alterTable('aircraft').addColumn('serial_number', 'text').execute();

  await s
    .createIndex('aircraft_reports_company_job')
    .on('aircraft_reports')
    .columns(['company_id', 'maintenance_job_id'])
    .execute();

  // Inventory (Part B 2.1, 4.1). Parts replicate (with their units inside the document).
  await replicated(s.createTable('inventory_parts'))
    .addColumn('user_id', 'text')
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mfr_name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('approval_status', 'text', (c) => c.notNull().defaultTo('Pending'))
    .addColumn('description', 'text')
    .execute();
  // Unique per company among live parts; a deleted part keeps its tombstone for sync.
  await s
    .createIndex('inventory_parts_company_part_number')
    .on('inventory_parts')
    .columns(['company_id', 'part_number'])
    .unique()
    .where(sql.ref('deleted'), '=', 0)
    .execute();
  await s
    .createIndex('inventory_parts_company_change')
    .on('inventory_parts')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s.createIndex('inventory_parts_company_name').on('inventory_parts').columns(['company_id', 'name']).execute();

  await s
    .createTable('inventory_units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('part_id', 'text', (c) => c.notNull())
    .addColumn('serial_number', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('IN_STOCK'))
    .addColumn('condition', 'text', (c) => c.notNull().defaultTo('NEW'))
    .addColumn('base_id', 'text')
    .addColumn('aircraft_id', 'text')
    .addColumn('workorder_id', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('inventory_units_company_part')
    .on('inventory_units')
    .columns(['company_id', 'part_id'])
    .execute();
  await s
    .createIndex('inventory_units_company_workorder')
    .on('inventory_units')
    .columns(['company_id', 'workorder_id'])
    .execute();

  await s
    .createTable('inventory_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('inventory_providers_company_name')
    .on('inventory_providers')
    .columns(['company_id', 'name'])
    .execute();

  await s
    .createTable('inventory_part_providers')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('part_id', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_part_providers_pk', ['part_id', 'provider_id'])
    .execute();
  await s
    .createIndex('inventory_part_providers_company')
    .on('inventory_part_providers')
    .columns(['company_id', 'provider_id'])
    .execute();

  await s
    .createTable('inventory_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('part_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('fields', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('inventory_history_part')
    .on('inventory_history')
    .columns(['company_id', 'part_id', 'created'])
    .execute();

  // Maintenance programmes and plan actions (Part B 2.4, 4.3).
  await s
    .createTable('maintenance_programmes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('maintenance_programmes_company')
    .on('maintenance_programmes')
    .columns(['company_id', 'sort_order', 'name'])
    .execute();

  // Replicated so plans can join the offline reference data (docs/sync.md) without another migration.
  await replicated(s.createTable('maintenance_plans'))
    .addColumn('user_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('hours_interval', 'double precision')
    .addColumn('landings_interval', 'integer')
    .addColumn('repeat', 'text', (c) => c.notNull().defaultTo('NEVER'))
    .addColumn('maintenance_programme_id', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createIndex('maintenance_plans_company_order')
    .on('maintenance_plans')
    .columns(['company_id', 'sort_order'])
    .execute();
  await s
    .createIndex('maintenance_plans_company_change')
    .on('maintenance_plans')
    .columns(['company_id', 'change_no', 'id'])
    .execute();

  await s
    .createTable('plan_work_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('maintenance_plan_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('ata', 'text')
    .addColumn('time', 'double precision')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('plan_work_orders_plan')
    .on('plan_work_orders')
    .columns(['company_id', 'maintenance_plan_id', 'sort_order'])
    .execute();

  await s
    .createTable('plan_aircraft')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('maintenance_plan_id', 'text', (c) => c.notNull())
    .addColumn('aircraft_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('plan_aircraft_pk', ['maintenance_plan_id', 'aircraft_id'])
    .execute();
  await s
    .createIndex('plan_aircraft_company_aircraft')
    .on('plan_aircraft')
    .columns(['company_id', 'aircraft_id'])
    .execute();

  // Maintenance jobs (CONTRACT 4) replicate with their work orders inside the document.
  await replicated(s.createTable('maintenance_jobs'))
    .addColumn('user_id', 'text')
    .addColumn('aircraft_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OPEN'))
    .addColumn('start', 'bigint')
    .addColumn('finish', 'bigint')
    .addColumn('crs_signed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crs_signed_by', 'text')
    .addColumn('crs_signed_at', 'bigint')
    .addColumn('crs_expiration', 'bigint')
    .addColumn('maintenance_plan_id', 'text')
    .addColumn('repeat', 'text', (c) => c.notNull().defaultTo('NEVER'))
    .execute();
  await s
    .createIndex('maintenance_jobs_company_change')
    .on('maintenance_jobs')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s
    .createIndex('maintenance_jobs_company_aircraft')
    .on('maintenance_jobs')
    .columns(['company_id', 'aircraft_id', 'crs_signed', 'start'])
    .execute();
  await s
    .createIndex('maintenance_jobs_company_plan')
    .on('maintenance_jobs')
    .columns(['company_id', 'maintenance_plan_id', 'aircraft_id'])
    .execute();
  await s
    .createIndex('maintenance_jobs_company_start')
    .on('maintenance_jobs')
    .columns(['company_id', 'start'])
    .execute();

  await s
    .createTable('work_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('maintenance_job_id', 'text', (c) => c.notNull())
    .addColumn('plan_work_order_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('ata', 'text')
    .addColumn('time', 'double precision')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('remarks', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', 'bigint')
    .addColumn('completed_by', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('work_orders_job')
    .on('work_orders')
    .columns(['company_id', 'maintenance_job_id', 'sort_order'])
    .execute();
}

export async function down(): Promise<void> {}
