import { type Kysely, sql } from 'kysely';

/**
 * Issue 35, third round: the fleet's first pull without walking the company's
 * closed reports. A device's first pull sends open and deferred reports and
 * the ones changed in the last 12 months (aircraft-reports.sync.ts). A partial
 * index on (company_id, change_no, id) of the reports not CLOSED gives the
 * open ones in change order; (company_id, modified, change_no, id) the recent
 * ones. Before, each page walked the company's change order: 20,000 reports
 * read for 2,000 sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createIndex('aircraft_reports_company_open_change')
    .on('aircraft_reports')
    .columns(['company_id', 'change_no', 'id'])
    .where(sql.ref('status'), '!=', sql.lit('CLOSED'))
    .execute();
  await s
    .createIndex('aircraft_reports_company_modified')
    .on('aircraft_reports')
    .columns(['company_id', 'modified', 'change_no', 'id'])
    .execute();
}

export async function down(): Promise<void> {}
