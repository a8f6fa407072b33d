import { GATES } from '@ops/shared';
import { REPORT_PLANS } from '@ops/shared/rules/aircraft/policy';
import { maintenancePlanGates } from '@ops/shared/rules/maintenance-plans/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { emptyToUndefined } from '../../http/zod.ts';
import { assignedPlans, listPlans, listProgrammes, plansForAircraft, viewPlan } from './reads.service.ts';
import { deletePlan, reorderPlans, savePlan, ZPlan, ZReorder, ZTemplate } from './maintenance-plans.service.ts';
import {
  ZMaintenancePlansIndex,
  ZMaintenancePlansView,
  ZMaintenancePlansEdit,
  ZMaintenancePlansDelete,
  ZMaintenancePlansReorder,
  ZMaintenancePlansForAircraft,
  ZMaintenancePlansAssigned,
  ZMaintenancePlansProgrammes,
} from './maintenance-plans.responses.ts';

const plans = REPORT_PLANS;
/** Part B 4.3 and 5: edit, delete, reorder by roles 1, 100, 105, 110, 300. */
const editors = { who: maintenancePlanGates.edit, plans };
const idParam = z.object({ id: zId });
const aircraftParam = z.object({ aircraftId: zId });
// Bodies are validated by the handler or service (field-error keys as the spec names them); `bodyDoc` documents them.
const ZPlansIndex = z.object({
  aircraft: z.preprocess(emptyToUndefined, z.union([z.string(), z.number()]).transform(String).optional()),
});
/** A save: the action under `MaintenancePlan`; `Aircraft` (ids) and `PlanWorkOrder` (rows) replace those sets when posted. */
const ZPlanSave = z.object({
  MaintenancePlan: ZPlan,
  Aircraft: z.array(zId).optional(),
  PlanWorkOrder: z.array(ZTemplate).optional(),
});

export const maintenancePlansRoutes = [
  defineRoute({
    method: 'POST',
    path: '/maintenance/plans/index.json',
    bodyDoc: ZPlansIndex,
    area: 'maintenance-plans',
    summary: 'Plan actions in order with aircraft, programme and template work orders; optional `aircraft` filter',
    access: { who: GATES.member, plans },
    response: ZMaintenancePlansIndex,
    handler: ({ ctx, actor, req }) => {
      const b = parseOr400(ZPlansIndex, unwrapData(req.body));
      return listPlans(ctx.db, actor, b.aircraft);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/plans/view/:id.json',
    area: 'maintenance-plans',
    summary: 'One plan action with aircraft and template work orders',
    access: { who: GATES.member, plans },
    params: idParam,
    response: ZMaintenancePlansView,
    handler: ({ ctx, actor, params }) => viewPlan(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/plans/edit.json',
    bodyDoc: ZPlanSave,
    area: 'maintenance-plans',
    summary: 'Create or edit a plan action (data[MaintenancePlan], data[Aircraft][Aircraft][], data[PlanWorkOrder][n])',
    access: editors,
    response: ZMaintenancePlansEdit,
    handler: async ({ ctx, actor, req }) => {
      const { id } = await ctx.tx((uow) => savePlan(uow, actor, req.body));
      const saved = await viewPlan(ctx.db, actor, id);
      const { result: _r, ...plan } = saved;
      return { result: true, plan, message: 'Plan action saved' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/plans/delete/:id.json',
    area: 'maintenance-plans',
    summary: 'Soft-delete a plan action; jobs created from it are kept',
    access: editors,
    params: idParam,
    response: ZMaintenancePlansDelete,
    handler: async ({ ctx, actor, params }) => {
      await ctx.tx((uow) => deletePlan(uow, actor, params.id));
      return { result: true, message: 'Plan action deleted' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/maintenance/plans/reorder.json',
    bodyDoc: ZReorder,
    area: 'maintenance-plans',
    summary: 'Reorder plan actions: `order` array of ids',
    access: editors,
    response: ZMaintenancePlansReorder,
    handler: async ({ ctx, actor, req }) => {
      const b = parseOr400(ZReorder, unwrapData(req.body));
      const count = await ctx.tx((uow) => reorderPlans(uow, actor, b.order));
      return { result: true, count };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/plans/for_aircraft/:aircraftId.json',
    area: 'maintenance-plans',
    summary: 'Linked plan actions in order, next_plan_id and open_plan_ids of an aircraft',
    access: { who: GATES.member, plans },
    params: aircraftParam,
    response: ZMaintenancePlansForAircraft,
    handler: ({ ctx, actor, params }) => plansForAircraft(ctx.db, actor, params.aircraftId),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/plans/assigned/:aircraftId.json',
    area: 'maintenance-plans',
    summary: 'Plan actions assigned to an aircraft, with their programme',
    access: { who: GATES.member, plans },
    params: aircraftParam,
    response: ZMaintenancePlansAssigned,
    handler: ({ ctx, actor, params }) => assignedPlans(ctx.db, actor, params.aircraftId),
  }),
  defineRoute({
    method: 'GET',
    path: '/maintenance/plans/programmes.json',
    area: 'maintenance-plans',
    summary: 'Maintenance programmes with their plan counts',
    access: { who: GATES.member, plans },
    response: ZMaintenancePlansProgrammes,
    handler: ({ ctx, actor }) => listProgrammes(ctx.db, actor),
  }),
];
