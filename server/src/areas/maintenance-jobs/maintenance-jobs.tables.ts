import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0030 for maintenance jobs and their work orders (CONTRACT 4). */
export interface MaintenanceJobsTable extends ReplicatedBase {
  user_id: string | null;
  aircraft_id: string;
  name: string;
  description: string | null;
  status: string;
  start: number | null;
  finish: number | null;
  crs_signed: number;
  crs_signed_by: string | null;
  crs_signed_at: number | null;
  crs_expiration: number | null;
  maintenance_plan_id: string | null;
  repeat: string;
}

export interface WorkOrdersTable {
  id: string;
  company_id: string;
  maintenance_job_id: string;
  plan_work_order_id: string | null;
  name: string;
  description: string | null;
  ata: string | null;
  time: number | null;
  status: string;
  remarks: string | null;
  sort_order: number;
  completed_at: number | null;
  completed_by: string | null;
  created: number;
  modified: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    maintenance_jobs: MaintenanceJobsTable;
    work_orders: WorkOrdersTable;
  }
}
