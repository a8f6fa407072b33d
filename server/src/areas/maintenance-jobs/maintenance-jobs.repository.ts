import type { JobStatus, MaintenanceJobDoc, WorkOrderDoc } from '@ops/shared';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { workOrderDoc } from './maintenance-jobs.presenter.ts';
import type { MaintenanceJobsTable } from './maintenance-jobs.tables.ts';

const n = (v: number | null) => (v === null ? null : Number(v));

export type JobRow = Selectable<MaintenanceJobsTable>;

/** Jobs as documents with their work orders, in one query for the work orders of all of them. */
export async function jobDocs(
  db: Kysely<DB>,
  companyId: string,
  rows: readonly JobRow[],
): Promise<MaintenanceJobDoc[]> {
  if (!rows.length) return [];
  const wos = await db
    .selectFrom('work_orders')
    .selectAll()
    .where('company_id', '=', companyId)
    .where(
      'maintenance_job_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('maintenance_job_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const byJob = new Map<string, WorkOrderDoc[]>();
  for (const w of wos) {
    const list = byJob.get(w.maintenance_job_id) ?? [];
    list.push(workOrderDoc(w));
    byJob.set(w.maintenance_job_id, list);
  }
  return rows.map((j) => ({
    id: j.id,
    aircraft_id: j.aircraft_id,
    user_id: j.user_id,
    name: j.name,
    description: j.description,
    status: j.status as JobStatus,
    start: n(j.start),
    finish: n(j.finish),
    crs_signed: !!j.crs_signed,
    crs_signed_by: j.crs_signed_by,
    crs_signed_at: n(j.crs_signed_at),
    crs_expiration: n(j.crs_expiration),
    maintenance_plan_id: j.maintenance_plan_id,
    repeat: j.repeat,
    created: Number(j.created),
    modified: Number(j.modified),
    WorkOrder: byJob.get(j.id) ?? [],
  }));
}

/** A live job of the company, or undefined. */
export function jobRow(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('maintenance_jobs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** The live aircraft reports a job groups, oldest first. */
export function jobReportRows(db: Kysely<DB>, companyId: string, jobId: string) {
  return db
    .selectFrom('aircraft_reports')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('maintenance_job_id', '=', jobId)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
}

/** The inventory units fitted through the given work orders, with their part, by part name. */
export async function workOrderUnits(db: Kysely<DB>, companyId: string, workOrderIds: string[]) {
  if (!workOrderIds.length) return [];
  return db
    .selectFrom('inventory_units as u')
    .innerJoin('inventory_parts as p', (j) => j.onRef('p.id', '=', 'u.part_id').on('p.company_id', '=', companyId))
    .select([
      'u.id',
      'u.workorder_id',
      'u.serial_number',
      'u.status',
      'u.condition',
      'p.id as part_id',
      'p.part_number',
      'p.name as part_name',
    ])
    .where('u.company_id', '=', companyId)
    .where('u.workorder_id', 'in', workOrderIds)
    .where('u.deleted', '=', 0)
    .orderBy('p.name')
    .orderBy('u.id')
    .execute();
}
export type WorkOrderUnitRow = Awaited<ReturnType<typeof workOrderUnits>>[number];

/** An aircraft's id and registration (deleted ones too: a job keeps naming its aircraft). */
export function aircraftRef(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('aircraft')
    .select(['id', 'registration'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface JobListFilter {
  aircraft_id?: string;
  maintenance_plan_id?: string;
  status?: 'open' | 'completed' | 'in_progress';
}

/** Designed list order (docs/areas/fleet.md): open jobs first by start date, then the signed ones newest first. */
export async function jobListPage(db: Kysely<DB>, companyId: string, f: JobListFilter, page: number, limit: number) {
  let q = db.selectFrom('maintenance_jobs as j').where('j.company_id', '=', companyId).where('j.deleted', '=', 0);
  if (f.aircraft_id) q = q.where('j.aircraft_id', '=', f.aircraft_id);
  if (f.maintenance_plan_id) q = q.where('j.maintenance_plan_id', '=', f.maintenance_plan_id);
  if (f.status === 'open') q = q.where('j.crs_signed', '=', 0);
  if (f.status === 'completed') q = q.where('j.crs_signed', '=', 1);
  if (f.status === 'in_progress') q = q.where('j.status', '=', 'IN_PROGRESS');
  const [{ count }] = await q.select((eb) => eb.fn.countAll<number>().as('count')).execute();
  const rows = await q
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'j.aircraft_id').on('a.company_id', '=', companyId))
    .selectAll('j')
    .select((eb) => [
      'a.registration',
      eb
        .selectFrom('aircraft_reports as r')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('r.maintenance_job_id', '=', 'j.id')
        .where('r.company_id', '=', companyId)
        .where('r.deleted', '=', 0)
        .as('report_count'),
      eb
        .selectFrom('work_orders as w')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('w.maintenance_job_id', '=', 'j.id')
        .where('w.company_id', '=', companyId)
        .as('work_order_count'),
      eb
        .selectFrom('work_orders as w')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('w.maintenance_job_id', '=', 'j.id')
        .where('w.company_id', '=', companyId)
        .where('w.status', 'in', ['done', 'cancelled'])
        .as('work_orders_closed'),
    ])
    .orderBy('j.crs_signed')
    .orderBy(sql`case when j.crs_signed = 0 and j.start is null then 1 else 0 end`)
    .orderBy(sql`case when j.crs_signed = 0 then j.start else -coalesce(j.finish, j.crs_signed_at, 0) end`)
    .orderBy('j.id')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { count: Number(count), rows };
}
export type JobListRow = Awaited<ReturnType<typeof jobListPage>>['rows'][number];
