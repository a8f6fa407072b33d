import type { MaintenanceJobDoc, WorkOrderDoc, WorkOrderStatus } from '@ops/shared';
import type { Selectable } from 'kysely';
import type { reportDocs } from '../aircraft-reports/aircraft-reports.repository.ts';
import type { JobListRow, WorkOrderUnitRow } from './maintenance-jobs.repository.ts';
import type { WorkOrdersTable } from './maintenance-jobs.tables.ts';

type WorkOrderRow = Selectable<WorkOrdersTable>;

const n = (v: number | null) => (v === null ? null : Number(v));

/** One work order as the collection's document and the REST answers show it. */
export function workOrderDoc(w: WorkOrderRow): WorkOrderDoc {
  return {
    id: w.id,
    plan_work_order_id: w.plan_work_order_id,
    name: w.name,
    description: w.description,
    ata: w.ata,
    time: n(w.time),
    status: w.status as WorkOrderStatus,
    remarks: w.remarks,
    sort_order: Number(w.sort_order),
    completed_at: n(w.completed_at),
    completed_by: w.completed_by,
  };
}

/** One job with its aircraft, reports and work orders (each with the units fitted through it). */
export function presentJob(
  doc: MaintenanceJobDoc,
  aircraft: { id: string; registration: string } | undefined,
  reports: Awaited<ReturnType<typeof reportDocs>>,
  units: WorkOrderUnitRow[],
) {
  const { WorkOrder, ...job } = doc;
  return {
    result: true,
    Job: job,
    Aircraft: aircraft ?? null,
    AircraftReport: reports,
    WorkOrder: WorkOrder.map((w) => ({
      ...w,
      InventoryUnit: units.filter((u) => u.workorder_id === w.id).map(({ workorder_id: _w, ...u }) => u),
    })),
  };
}

/** One row of the job list: the job, its aircraft and its counts. */
export function presentJobListRow(r: JobListRow) {
  return {
    Job: {
      id: r.id,
      aircraft_id: r.aircraft_id,
      name: r.name,
      description: r.description,
      status: r.status,
      start: n(r.start),
      finish: n(r.finish),
      crs_signed: !!r.crs_signed,
      crs_signed_by: r.crs_signed_by,
      crs_signed_at: n(r.crs_signed_at),
      crs_expiration: n(r.crs_expiration),
      maintenance_plan_id: r.maintenance_plan_id,
      repeat: r.repeat,
      created: Number(r.created),
    },
    Aircraft: { id: r.aircraft_id, registration: r.registration },
    report_count: Number(r.report_count ?? 0),
    work_order_count: Number(r.work_order_count ?? 0),
    work_orders_closed: Number(r.work_orders_closed ?? 0),
  };
}
