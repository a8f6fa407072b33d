import { mayWriteMaintenanceJobs } from '../rules/maintenance-jobs/policy.ts';
import { type CollectionDef, s } from './types.ts';

/** Maintenance jobs offline, each with its work orders (CONTRACT 4). */
export const WORK_ORDER_STATUSES = ['pending', 'in_progress', 'done', 'cancelled'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
export const JOB_STATUSES = ['OPEN', 'IN_PROGRESS', 'COMPLETED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface WorkOrderDoc {
  id: string;
  plan_work_order_id: string | null;
  name: string;
  description: string | null;
  ata: string | null;
  time: number | null;
  status: WorkOrderStatus;
  remarks: string | null;
  sort_order: number;
  completed_at: number | null;
  completed_by: string | null;
}

export interface MaintenanceJobDoc {
  id: string;
  aircraft_id: string;
  user_id: string | null;
  name: string;
  description: string | null;
  status: JobStatus;
  start: number | null;
  finish: number | null;
  crs_signed: boolean;
  crs_signed_by: string | null;
  crs_signed_at: number | null;
  crs_expiration: number | null;
  maintenance_plan_id: string | null;
  repeat: string;
  created: number;
  modified: number;
  WorkOrder: WorkOrderDoc[];
}

export const maintenanceJobsCollection: CollectionDef<MaintenanceJobDoc> = {
  name: 'maintenance_jobs',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      aircraft_id: s.reqStr,
      user_id: s.str,
      name: s.reqStr,
      description: s.str,
      status: s.reqStr,
      start: s.num,
      finish: s.num,
      crs_signed: s.bool,
      crs_signed_by: s.str,
      crs_signed_at: s.num,
      crs_expiration: s.num,
      maintenance_plan_id: s.str,
      repeat: s.reqStr,
      created: s.int,
      modified: s.int,
      WorkOrder: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
    required: ['id', 'aircraft_id', 'name', 'status', 'crs_signed', 'created', 'modified', 'WorkOrder'],
  },
  rows: { kind: 'company' },
  visible: (doc) => doc,
  // A device may rename, reschedule and move work orders on; signing the CRS needs a password online.
  writableFields: ['name', 'description', 'start', 'WorkOrder'],
  canPush: (v) => mayWriteMaintenanceJobs(v),
};
