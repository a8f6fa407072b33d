import { type Kysely, type Selectable, sql } from 'kysely';
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

  /** Every live plan action of the company, in plan order. */
  all: (db: Kysely<DB>, companyId: string) =>
    db
      .selectFrom('maintenance_plans')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('deleted', '=', 0)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),

  /** The live aircraft linked to each of the plans, by registration. */
  aircraftLinks: (db: Kysely<DB>, companyId: string, planIds: readonly string[]) =>
    db
      .selectFrom('plan_aircraft as pa')
      .innerJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'pa.aircraft_id').on('a.company_id', '=', companyId))
      .select(['pa.maintenance_plan_id', 'a.id', 'a.registration'])
      .where('pa.company_id', '=', companyId)
      .where('pa.maintenance_plan_id', 'in', planIds)
      .where('a.deleted', '=', 0)
      .orderBy('a.registration')
      .execute(),

  /** Live programmes by id. */
  programmes: (db: Kysely<DB>, companyId: string, ids: readonly string[]) =>
    ids.length
      ? db
          .selectFrom('maintenance_programmes')
          .select(['id', 'name', 'sort_order'])
          .where('company_id', '=', companyId)
          .where('id', 'in', ids)
          .where('deleted', '=', 0)
          .execute()
      : Promise.resolve([]),

  /** A live aircraft's id, or undefined. */
  liveAircraft: (db: Kysely<DB>, companyId: string, id: string) =>
    db
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),

  /** The plan of the aircraft's last completed (CRS-signed) plan job. */
  lastCompleted: (db: Kysely<DB>, companyId: string, aircraftId: string) =>
    db
      .selectFrom('maintenance_jobs as j')
      .innerJoin('maintenance_plans as p', (jn) =>
        jn.onRef('p.id', '=', 'j.maintenance_plan_id').on('p.company_id', '=', companyId),
      )
      .select(['p.id', 'p.sort_order'])
      .where('j.company_id', '=', companyId)
      .where('j.aircraft_id', '=', aircraftId)
      .where('j.crs_signed', '=', 1)
      .where('j.deleted', '=', 0)
      .orderBy(sql`coalesce(j.finish, j.crs_signed_at, 0)`, 'desc')
      .orderBy('j.crs_signed_at', 'desc')
      .orderBy('j.id', 'desc')
      .executeTakeFirst(),

  /** Plans with an open (unsigned) job on the aircraft. */
  openPlanIds: (db: Kysely<DB>, companyId: string, aircraftId: string) =>
    db
      .selectFrom('maintenance_jobs')
      .select('maintenance_plan_id')
      .distinct()
      .where('company_id', '=', companyId)
      .where('aircraft_id', '=', aircraftId)
      .where('crs_signed', '=', 0)
      .where('deleted', '=', 0)
      .where('maintenance_plan_id', 'is not', null)
      .execute(),

  /** The plans assigned to an aircraft with their programme, in plan order. */
  assignedTo: (db: Kysely<DB>, companyId: string, aircraftId: string) =>
    db
      .selectFrom('maintenance_plans as p')
      .innerJoin('plan_aircraft as pa', (j) =>
        j.onRef('pa.maintenance_plan_id', '=', 'p.id').on('pa.company_id', '=', companyId),
      )
      .leftJoin('maintenance_programmes as g', (j) =>
        j.onRef('g.id', '=', 'p.maintenance_programme_id').on('g.company_id', '=', companyId).on('g.deleted', '=', 0),
      )
      .select([
        'p.id',
        'p.name',
        'p.hours_interval',
        'p.landings_interval',
        'p.repeat',
        'g.id as programme_id',
        'g.name as programme_name',
      ])
      .where('p.company_id', '=', companyId)
      .where('p.deleted', '=', 0)
      .where('pa.aircraft_id', '=', aircraftId)
      .orderBy('p.sort_order')
      .orderBy('p.id')
      .execute(),

  /** Live programmes with their number of live plans. */
  programmesWithCounts: (db: Kysely<DB>, companyId: string) =>
    db
      .selectFrom('maintenance_programmes as g')
      .select((eb) => [
        'g.id',
        'g.name',
        eb
          .selectFrom('maintenance_plans as p')
          .select((e) => e.fn.countAll<number>().as('c'))
          .whereRef('p.maintenance_programme_id', '=', 'g.id')
          .where('p.company_id', '=', companyId)
          .where('p.deleted', '=', 0)
          .as('plan_count'),
      ])
      .where('g.company_id', '=', companyId)
      .where('g.deleted', '=', 0)
      .orderBy('g.sort_order')
      .orderBy('g.name')
      .orderBy('g.id')
      .execute(),
};

export type PlanAircraftLink = Awaited<ReturnType<typeof plansRepository.aircraftLinks>>[number];
export type ProgrammeRef = Awaited<ReturnType<typeof plansRepository.programmes>>[number];
export type AssignedPlanRow = Awaited<ReturnType<typeof plansRepository.assignedTo>>[number];
export type ProgrammeCountRow = Awaited<ReturnType<typeof plansRepository.programmesWithCounts>>[number];
