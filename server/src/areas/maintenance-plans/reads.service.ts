import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { presentAssignedPlan, presentPlanRows, presentProgramme } from './maintenance-plans.presenter.ts';
import { type PlanRow, plansRepository } from './maintenance-plans.repository.ts';
import { nextInOrder } from '@ops/shared/rules/maintenance-plans/schedule';

/**
 * `{MaintenancePlan, Aircraft[], MaintenanceProgramme, PlanWorkOrder[]}` for
 * plan rows, in three queries whatever their number (links, programmes, templates).
 */
export async function presentPlans(db: Kysely<DB>, companyId: string, rows: readonly PlanRow[]) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const links = await plansRepository.aircraftLinks(db, companyId, ids);
  const programmeIds = [...new Set(rows.map((r) => r.maintenance_programme_id).filter((x): x is string => !!x))];
  const programmes = await plansRepository.programmes(db, companyId, programmeIds);
  const templates = await plansRepository.templates(db, companyId, ids);
  return presentPlanRows(rows, links, programmes, templates);
}

export async function listPlans(db: Kysely<DB>, actor: Actor, aircraftId: string | undefined) {
  const rows = aircraftId
    ? await plansRepository.linkedTo(db, actor.companyId, aircraftId)
    : await plansRepository.all(db, actor.companyId);
  return { result: true, plans: await presentPlans(db, actor.companyId, rows) };
}

export async function viewPlan(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await plansRepository.find(db, actor.companyId, id);
  if (!row) throw notFound('Maintenance plan action not found');
  const [plan] = await presentPlans(db, actor.companyId, [row]);
  return { result: true, ...plan };
}

async function companyAircraft(db: Kysely<DB>, companyId: string, id: string) {
  const a = await plansRepository.liveAircraft(db, companyId, id);
  if (!a) throw notFound('Aircraft not found');
  return a.id;
}

/** Linked actions in order, the next one due (after the last completed plan job, wrapping) and those with an open job. */
export async function plansForAircraft(db: Kysely<DB>, actor: Actor, aircraftIdParam: string) {
  const aircraftId = await companyAircraft(db, actor.companyId, aircraftIdParam);
  const linked = await plansRepository.linkedTo(db, actor.companyId, aircraftId);
  const lastDone = await plansRepository.lastCompleted(db, actor.companyId, aircraftId);
  const open = await plansRepository.openPlanIds(db, actor.companyId, aircraftId);
  const linkedIds = new Set(linked.map((p) => p.id));
  return {
    result: true,
    plans: await presentPlans(db, actor.companyId, linked),
    next_plan_id: nextInOrder(linked, lastDone ?? null)?.id ?? null,
    open_plan_ids: open
      .map((o) => o.maintenance_plan_id as string)
      .filter((id) => linkedIds.has(id))
      .sort((a, b) => linked.findIndex((p) => p.id === a) - linked.findIndex((p) => p.id === b)),
  };
}

export async function assignedPlans(db: Kysely<DB>, actor: Actor, aircraftIdParam: string) {
  const aircraftId = await companyAircraft(db, actor.companyId, aircraftIdParam);
  const rows = await plansRepository.assignedTo(db, actor.companyId, aircraftId);
  return { result: true, count: rows.length, plans: rows.map(presentAssignedPlan) };
}

export async function listProgrammes(db: Kysely<DB>, actor: Actor) {
  const rows = await plansRepository.programmesWithCounts(db, actor.companyId);
  return { result: true, programmes: rows.map(presentProgramme) };
}
