import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { MaintenancePlansTable, PlanWorkOrdersTable } from './maintenance-plans.tables.ts';

export type PlanRow = Selectable<MaintenancePlansTable>;
export type PlanWorkOrderRow = Selectable<PlanWorkOrdersTable>;

/** Company-scoped reads of plan actions; the company id comes first in every call. */
export const plansRepository = {
  find: (db: Kysely<DB>, companyId: string, id: string) =>
    db
      .selectFrom('maintenance_plans')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),

  /** Live plan actions linked to an aircraft, in plan order. */
  linkedTo: (db: Kysely<DB>, companyId: string, aircraftId: string) =>
    db
      .selectFrom('maintenance_plans as p')
      .innerJoin('plan_aircraft as pa', (j) =>
        j.onRef('pa.maintenance_plan_id', '=', 'p.id').on('pa.company_id', '=', companyId),
      )
      .selectAll('p')
      .where('p.company_id', '=', companyId)
      .where('p.deleted', '=', 0)
      .where('pa.aircraft_id', '=', aircraftId)
      .orderBy('p.sort_order')
      .orderBy('p.id')
      .execute(),

  isLinked: async (db: Kysely<DB>, companyId: string, planId: string, aircraftId: string) =>
    !!(await db
      .selectFrom('plan_aircraft')
      .select('aircraft_id')
      .where('company_id', '=', companyId)
      .where('maintenance_plan_id', '=', planId)
      .where('aircraft_id', '=', aircraftId)
      .executeTakeFirst()),

  templates: (db: Kysely<DB>, companyId: string, planIds: readonly string[]) =>
    planIds.length
      ? db
          .selectFrom('plan_work_orders')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('maintenance_plan_id', 'in', planIds)
          .orderBy('maintenance_plan_id')
          .orderBy('sort_order')
          .orderBy('id')
          .execute()
      : Promise.resolve([] as PlanWorkOrderRow[]),
};
