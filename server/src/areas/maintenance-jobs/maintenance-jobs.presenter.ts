import type { WorkOrderDoc, WorkOrderStatus } from '@ops/shared';
import type { Selectable } from 'kysely';
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
