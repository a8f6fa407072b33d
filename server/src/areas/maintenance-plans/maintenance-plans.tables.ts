import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0030 for maintenance programmes and plan actions (Part B 2.4). */
export interface MaintenancePlansTable extends ReplicatedBase {
  user_id: string | null;
  name: string;
  description: string | null;
  hours_interval: number | null;
  landings_interval: number | null;
  repeat: string;
  maintenance_programme_id: string | null;
  sort_order: number;
}

export interface PlanWorkOrdersTable {
  id: string;
  company_id: string;
  maintenance_plan_id: string;
  name: string;
  description: string | null;
  ata: string | null;
  time: number | null;
  sort_order: number;
  created: number;
  modified: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    maintenance_programmes: {
      id: string;
      company_id: string;
      name: string;
      sort_order: number;
      deleted: number;
      created: number;
      modified: number;
    };
    maintenance_plans: MaintenancePlansTable;
    plan_work_orders: PlanWorkOrdersTable;
    plan_aircraft: { company_id: string; maintenance_plan_id: string; aircraft_id: string };
  }
}
