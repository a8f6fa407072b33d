import { type Kysely, sql } from 'kysely';

/**
 * Safety statistics without reading the reports (docs/areas/safety-reports.md,
 * Performance): per company, event month, status and statistic dimension, the
 * count of live, submitted, top-level reports, kept in the transaction of every
 * report write (server/src/areas/safety-reports/safety-stats.repository.ts) and
 * filled here from the existing reports. Reviewer and crew indexes (partial:
 * most reports have none) and a status index let the visibility rule of
 * roles above 150 read the published reports and their few linked ones by
 * index instead of testing every report of the company.
 */
const STAT_DIMENSIONS = {
  severity: 'severity',
  flight_phase: 'flight_phase',
  category: 'safety_report_category_id',
  department: 'safety_report_department_id',
  flight_type: 'flight_type_id',
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('safety_report_stats')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('safety_report_stats_pk', ['company_id', 'dimension', 'month', 'status', 'key'])
    .execute();
  for (const [dimension, column] of Object.entries(STAT_DIMENSIONS)) {
    await sql`insert into safety_report_stats (company_id, dimension, month, status, key, count)
      select company_id, cast(${dimension} as text), substr(datetime, 1, 7), status, coalesce(${sql.ref(column)}, ''), count(*)
      from safety_reports where deleted = 0 and parent_id is null and status <> 'draft'
      group by company_id, substr(datetime, 1, 7), status, coalesce(${sql.ref(column)}, '')`.execute(db);
  }
  // The list page in its exact order (datetime, id), with the columns of the managers' visibility test
  // after it: an ordered index range instead of sorting every visible report. Partial on top-level
  // reports: PostgreSQL does not take `parent_id is null` as fixing the column for the index order.
  // It replaces the list index of 0070 (status between datetime and id), whose count and per-month
  // uses the aggregate took over.
  await s
    .createIndex('safety_reports_company_page')
    .on('safety_reports')
    .columns(['company_id', 'deleted', 'datetime', 'id', 'status', 'author_id'])
    .where(sql.ref('parent_id'), 'is', null)
    .execute();
  await s.dropIndex('safety_reports_company_list').execute();
  // Top-level reports by status (the published ones for roles above 150, the list's count).
  await s
    .createIndex('safety_reports_company_status')
    .on('safety_reports')
    .columns(['company_id', 'deleted', 'status', 'datetime', 'id'])
    .where(sql.ref('parent_id'), 'is', null)
    .execute();
  // Own reports of some statuses (`status in (...)` is an index condition, `!=` is not).
  await s
    .createIndex('safety_reports_company_author_status')
    .on('safety_reports')
    .columns(['company_id', 'author_id', 'status'])
    .execute();
  await s.dropIndex('safety_reports_company_author').execute();
  for (const column of ['reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id']) {
    await s
      .createIndex(`safety_reports_company_${column}`)
      .on('safety_reports')
      .columns(['company_id', column])
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}

export async function down(): Promise<void> {}
