import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';

/**
 * The statistics aggregate `safety_report_stats` (migration 0071): per company,
 * event month, status and dimension key, the count of reports that count in
 * the statistics. Every report write moves it in its own transaction
 * (`moveStats`), so it is exact whenever the reports are; the statistics read
 * at most months x keys rows instead of every report (docs/areas/safety-reports.md,
 * Performance).
 */
export const STAT_COLUMNS = {
  severity: 'severity',
  flight_phase: 'flight_phase',
  category: 'safety_report_category_id',
  department: 'safety_report_department_id',
  flight_type: 'flight_type_id',
} as const satisfies Record<string, keyof SafetyReportsTable>;

export type StatKind = keyof typeof STAT_COLUMNS;

type Counted = Pick<
  SafetyReportsTable,
  'company_id' | 'deleted' | 'parent_id' | 'status' | 'datetime' | (typeof STAT_COLUMNS)[StatKind]
>;

/** What the statistics count: live, submitted, top-level reports (children are follow-ups of the same event). */
export const countsInStats = (r: Pick<SafetyReportsTable, 'deleted' | 'parent_id' | 'status'>) =>
  !r.deleted && r.parent_id === null && r.status !== 'draft';

/** `YYYY-MM` of a stored `YYYY-MM-DD HH:MM:SS` datetime. */
export const statMonth = (datetime: string) => datetime.slice(0, 7);

/** Moves the aggregate from a report's old state to its new one (either may be null), in the write's transaction. */
export async function moveStats(uow: UnitOfWork, before: Counted | null, after: Counted | null): Promise<void> {
  const delta = new Map<
    string,
    { company_id: string; dimension: string; month: string; status: string; key: string; count: number }
  >();
  const add = (r: Counted | null, sign: number) => {
    if (!r || !countsInStats(r)) return;
    for (const [dimension, column] of Object.entries(STAT_COLUMNS)) {
      const key = r[column] ?? '';
      const month = statMonth(r.datetime);
      const id = JSON.stringify([r.company_id, dimension, month, r.status, key]);
      const d = delta.get(id) ?? { company_id: r.company_id, dimension, month, status: r.status, key, count: 0 };
      d.count += sign;
      delta.set(id, d);
    }
  };
  add(before, -1);
  add(after, 1);
  const rows = [...delta.values()].filter((d) => d.count !== 0);
  if (!rows.length) return;
  await uow.trx
    .insertInto('safety_report_stats')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'dimension', 'month', 'status', 'key'])
        .doUpdateSet({ count: sql<number>`safety_report_stats.count + excluded.count` }),
    )
    .execute();
}

/** Recomputes a company's aggregate from its reports (the migration's fill; benches that insert reports directly). */
export async function rebuildStats(db: Kysely<DB>, companyId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('safety_report_stats').where('company_id', '=', companyId).execute();
    for (const [dimension, column] of Object.entries(STAT_COLUMNS)) {
      await sql`insert into safety_report_stats (company_id, dimension, month, status, key, count)
        select company_id, cast(${dimension} as text), substr(datetime, 1, 7), status, coalesce(${sql.ref(column)}, ''), count(*)
        from safety_reports where company_id = ${companyId} and deleted = 0 and parent_id is null and status <> 'draft'
        group by company_id, substr(datetime, 1, 7), status, coalesce(${sql.ref(column)}, '')`.execute(trx);
    }
  });
}
