import type {
  AssignedPlanRow,
  PlanAircraftLink,
  PlanRow,
  PlanWorkOrderRow,
  ProgrammeCountRow,
  ProgrammeRef,
} from './maintenance-plans.repository.ts';

const n = (v: number | null) => (v === null ? null : Number(v));

/** `{MaintenancePlan, Aircraft[], MaintenanceProgramme, PlanWorkOrder[]}` of each plan row. */
export function presentPlanRows(
  rows: readonly PlanRow[],
  links: readonly PlanAircraftLink[],
  programmes: readonly ProgrammeRef[],
  templates: readonly PlanWorkOrderRow[],
) {
  const programmeById = new Map(programmes.map((p) => [p.id, p]));
  return rows.map((p) => ({
    MaintenancePlan: {
      id: p.id,
      company_id: p.company_id,
      user_id: p.user_id,
      name: p.name,
      description: p.description,
      hours_interval: n(p.hours_interval),
      landings_interval: n(p.landings_interval),
      repeat: p.repeat,
      maintenance_programme_id: p.maintenance_programme_id,
      sort_order: Number(p.sort_order),
      created: Number(p.created),
      modified: Number(p.modified),
    },
    Aircraft: links
      .filter((l) => l.maintenance_plan_id === p.id)
      .map((l) => ({ id: l.id, registration: l.registration })),
    MaintenanceProgramme: (p.maintenance_programme_id && programmeById.get(p.maintenance_programme_id)) || null,
    PlanWorkOrder: templates
      .filter((t) => t.maintenance_plan_id === p.id)
      .map((t) => ({
        id: t.id,
        maintenance_plan_id: t.maintenance_plan_id,
        name: t.name,
        description: t.description,
        ata: t.ata,
        time: n(t.time),
        sort_order: Number(t.sort_order),
      })),
  }));
}

/** One plan assigned to an aircraft, with its programme. */
export const presentAssignedPlan = (r: AssignedPlanRow) => ({
  id: r.id,
  name: r.name,
  hours_interval: n(r.hours_interval),
  landings_interval: n(r.landings_interval),
  repeat: r.repeat,
  maintenance_programme_id: r.programme_id ?? null,
  programme_name: r.programme_name ?? null,
});

/** One programme with its number of plans. */
export const presentProgramme = (r: ProgrammeCountRow) => ({
  id: r.id,
  name: r.name,
  plan_count: Number(r.plan_count ?? 0),
});
