import type { JobStatus, MaintenanceJobDoc, WorkOrderDoc } from '@ops/shared';
import type { Kysely, Selectable } from 'kysely';
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
