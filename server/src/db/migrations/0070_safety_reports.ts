import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { replicated } from '../columns.ts';

/**
 * Safety reports (Part B 2.5, 3.3, 4.4; docs/areas/safety-reports.md):
 * departments and categories, reports (replicated: the `safety` collection),
 * per-year number counters, the read-only change trail and the per-company
 * risk matrix.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  for (const t of ['safety_report_departments', 'safety_report_categories']) {
    let b = s
      .createTable(t)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull());
    if (t === 'safety_report_categories') b = b.addColumn('safety_report_department_id', 'text', (c) => c.notNull());
    await b
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('modified', 'bigint', (c) => c.notNull())
      .execute();
    await s.createIndex(`${t}_company`).on(t).columns(['company_id', 'name']).execute();
  }

  await replicated(s.createTable('safety_reports'))
    .addColumn('idn', 'text')
    .addColumn('idn_year', 'integer')
    .addColumn('idn_seq', 'integer')
    .addColumn('child_no', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('datetime', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('events', 'text')
    .addColumn('actions', 'text')
    .addColumn('result', 'text')
    .addColumn('corrective_measures', 'text')
    .addColumn('met_conditions', 'text')
    .addColumn('immediate_consequences', 'text')
    .addColumn('flight_phase', 'text')
    .addColumn('safety_report_category_id', 'text')
    .addColumn('safety_report_department_id', 'text')
    .addColumn('flight_id', 'text')
    .addColumn('flight_type_id', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('reviewer_id', 'text')
    .addColumn('reviewer_outcome', 'text')
    .addColumn('damages', 'text')
    .addColumn('personal_damages', 'text')
    .addColumn('air_space', 'text')
    .addColumn('risk_probability', 'text')
    .addColumn('risk_severity', 'text')
    .addColumn('mitigated_risk_probability', 'text')
    .addColumn('mitigated_risk_severity', 'text')
    .addColumn('crew_pic_id', 'text')
    .addColumn('crew_sic_id', 'text')
    .addColumn('crew_supervisor_id', 'text')
    .addColumn('aircraft_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('involved_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('reported', 'bigint')
    .execute();
  // List (top level, newest first), statistics and sync, all led by company_id.
  // Covering: the page (newest first), its count and the per-month statistic read the index alone.
  await s
    .createIndex('safety_reports_company_list')
    .on('safety_reports')
    .columns(['company_id', 'deleted', 'parent_id', 'datetime', 'status', 'author_id', 'id'])
    .execute();
  // One covering index per statistic dimension: grouped in index order, filtered by status and year without the table.
  for (const d of [
    'severity',
    'flight_phase',
    'safety_report_category_id',
    'safety_report_department_id',
    'flight_type_id',
  ]) {
    await s
      .createIndex(`safety_reports_company_stat_${d}`)
      .on('safety_reports')
      .columns(['company_id', 'deleted', 'parent_id', d, 'status', 'datetime'])
      .execute();
  }
  await s
    .createIndex('safety_reports_company_change')
    .on('safety_reports')
    .columns(['company_id', 'change_no', 'id'])
    .execute();
  await s
    .createIndex('safety_reports_company_flight')
    .on('safety_reports')
    .columns(['company_id', 'flight_id'])
    .execute();
  await s
    .createIndex('safety_reports_company_parent')
    .on('safety_reports')
    .columns(['company_id', 'parent_id', 'child_no'])
    .execute();
  await s
    .createIndex('safety_reports_company_author')
    .on('safety_reports')
    .columns(['company_id', 'author_id'])
    .execute();
  await s
    .createIndex('safety_reports_company_idn')
    .on('safety_reports')
    .columns(['company_id', 'idn'])
    .unique()
    .where(sql.ref('idn'), 'is not', null)
    .execute();

  // One row per company and year; taken with UPDATE ... RETURNING inside the submitting transaction.
  await s
    .createTable('safety_report_counters')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('safety_report_counters_pk', ['company_id', 'year'])
    .execute();

  await s
    .createTable('safety_report_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('safety_report_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text')
    .addColumn('comments', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('safety_report_changes_report')
    .on('safety_report_changes')
    .columns(['company_id', 'safety_report_id', 'created'])
    .execute();

  // The trail is read-only: the database itself refuses to change or remove a row.
  if (pg) {
    await sql`create or replace function safety_report_changes_read_only() returns trigger language plpgsql as $$ begin raise exception 'safety_report_changes is read-only'; end $$`.execute(
      db,
    );
    await sql`create trigger safety_report_changes_no_update before update or delete on safety_report_changes for each row execute function safety_report_changes_read_only()`.execute(
      db,
    );
  } else {
    await sql`create trigger safety_report_changes_no_update before update on safety_report_changes begin select raise(abort, 'safety_report_changes is read-only'); end`.execute(
      db,
    );
    await sql`create trigger safety_report_changes_no_delete before delete on safety_report_changes begin select raise(abort, 'safety_report_changes is read-only'); end`.execute(
      db,
    );
  }

  await s
    .createTable('safety_risk_matrices')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('cells', 'text', (c) => c.notNull())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .execute();
}
