import { z } from 'zod';

/**
 * Response schemas of the maintenance-plans routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One maintenance plan row. */
const zMaintenancePlan = z.object({
  id: z.string(),
  company_id: z.string(),
  user_id: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  hours_interval: z.number().nullable(),
  landings_interval: z.number().nullable(),
  repeat: z.string(),
  maintenance_programme_id: z.string().nullable(),
  sort_order: z.number(),
  created: z.number(),
  modified: z.number(),
});

/** A work order template of the plan. */
const zPlanWorkOrder = z.object({
  id: z.string(),
  maintenance_plan_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  ata: z.string().nullable(),
  time: z.number().nullable(),
  sort_order: z.number(),
});

/** The programme the plan belongs to. */
const zPlanProgramme = z.object({
  id: z.string(),
  name: z.string(),
  sort_order: z.number(),
});

/** A plan with its programme and the work order it opened. */
const zPlanEntry = z.object({
  MaintenancePlan: zMaintenancePlan,
  Aircraft: z.array(
    z.object({
      id: z.string(),
      registration: z.string(),
    }),
  ),
  MaintenanceProgramme: zPlanProgramme.nullable(),
  PlanWorkOrder: z.array(zPlanWorkOrder),
});

/** POST /maintenance/plans/index.json */
export const ZMaintenancePlansIndex = z.strictObject({
  result: z.boolean(),
  plans: z.array(zPlanEntry),
});

/** GET /maintenance/plans/view/:id.json */
export const ZMaintenancePlansView = z.strictObject({
  ...zPlanEntry.shape,
  result: z.boolean(),
});

/** POST /maintenance/plans/edit.json */
export const ZMaintenancePlansEdit = z.strictObject({
  result: z.boolean(),
  plan: zPlanEntry,
  message: z.string(),
});

/** GET /maintenance/plans/delete/:id.json */
export const ZMaintenancePlansDelete = z.strictObject({
  result: z.boolean(),
  message: z.string(),
});

/** POST /maintenance/plans/reorder.json */
export const ZMaintenancePlansReorder = z.strictObject({
  result: z.boolean(),
  count: z.number(),
});

/** GET /maintenance/plans/for_aircraft/:aircraftId.json */
export const ZMaintenancePlansForAircraft = z.strictObject({
  result: z.boolean(),
  plans: z.array(zPlanEntry),
  next_plan_id: z.string().nullable(),
  open_plan_ids: z.array(z.string()),
});

/** GET /maintenance/plans/assigned/:aircraftId.json */
export const ZMaintenancePlansAssigned = z.strictObject({
  result: z.boolean(),
  count: z.number(),
  plans: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      hours_interval: z.number().nullable(),
      landings_interval: z.number().nullable(),
      repeat: z.string(),
      maintenance_programme_id: z.string().nullable(),
      programme_name: z.string().nullable(),
    }),
  ),
});

/** GET /maintenance/plans/programmes.json */
export const ZMaintenancePlansProgrammes = z.strictObject({
  result: z.boolean(),
  programmes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      plan_count: z.number(),
    }),
  ),
});
