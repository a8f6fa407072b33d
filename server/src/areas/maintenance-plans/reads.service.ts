import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { type PlanRow, plansRepository } from './maintenance-plans.repository.ts';
import { nextInOrder } from '@ops/shared/rules/maintenance-plans/schedule';

const n = (v: number | null) => (v === null ? null : Number(v));

/**
 * `{MaintenancePlan, Aircraft[], MaintenanceProgramme, PlanWorkOrder[]}` for
 * plan rows, in three queries whatever their number (links, programmes, templates).
 */
export async function presentPlans(db: Kysely<DB>, companyId: string, rows: readonly PlanRow[]) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const links = await db
    .selectFrom('plan_aircraft as pa')
    .innerJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'pa.aircraft_id').on('a.company_id', '=', companyId))
    .select(['pa.maintenance_plan_id', 'a.id', 'a.registration'])
    .where('pa.company_id', '=', companyId)
    .where('pa.maintenance_plan_id', 'in', ids)
    .where('a.deleted', '=', 0)
    .orderBy('a.registration')
    .execute();
  const programmeIds = [...new Set(rows.map((r) => r.maintenance_programme_id).filter((x): x is string => !!x))];
  const programmes = programmeIds.length
    ? await db
        .selectFrom('maintenance_programmes')
        .select(['id', 'name', 'sort_order'])
        .where('company_id', '=', companyId)
        .where('id', 'in', programmeIds)
        .where('deleted', '=', 0)
        .execute()
    : [];
  const templates = await plansRepository.templates(db, companyId, ids);
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

export async function listPlans(db: Kysely<DB>, actor: Actor, aircraftId: string | undefined) {
  const rows = aircraftId
    ? await plansRepository.linkedTo(db, actor.companyId, aircraftId)
    : await db
        .selectFrom('maintenance_plans')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('deleted', '=', 0)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
  return { result: true, plans: await presentPlans(db, actor.companyId, rows) };
}

export async function viewPlan(db: Kysely<DB>, actor: Actor, id: string) {
  const row = await plansRepository.find(db, actor.companyId, id);
  if (!row) throw notFound('Maintenance plan action not found');
  const [plan] = await presentPlans(db, actor.companyId, [row]);
  return { result: true, ...plan };
}

async function companyAircraft(db: Kysely<DB>, companyId: string, id: string) {
  const a = await db
    .selectFrom('aircraft')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!a) throw notFound('Aircraft not found');
  return a.id;
}

/** Linked actions in order, the next one due (after the last completed plan job, wrapping) and those with an open job. */
export async function plansForAircraft(db: Kysely<DB>, actor: Actor, aircraftIdParam: string) {
  const aircraftId = await companyAircraft(db, actor.companyId, aircraftIdParam);
  const linked = await plansRepository.linkedTo(db, actor.companyId, aircraftId);
  const lastDone = await db
    .selectFrom('maintenance_jobs as j')
    .innerJoin('maintenance_plans as p', (jn) =>
      jn.onRef('p.id', '=', 'j.maintenance_plan_id').on('p.company_id', '=', actor.companyId),
    )
    .select(['p.id', 'p.sort_order'])
    .where('j.company_id', '=', actor.companyId)
    .where('j.aircraft_id', '=', aircraftId)
    .where('j.crs_signed', '=', 1)
    .where('j.deleted', '=', 0)
    .orderBy(sql`coalesce(j.finish, j.crs_signed_at, 0)`, 'desc')
    .orderBy('j.crs_signed_at', 'desc')
    .orderBy('j.id', 'desc')
    .executeTakeFirst();
  const open = await db
    .selectFrom('maintenance_jobs')
    .select('maintenance_plan_id')
    .distinct()
    .where('company_id', '=', actor.companyId)
    .where('aircraft_id', '=', aircraftId)
    .where('crs_signed', '=', 0)
    .where('deleted', '=', 0)
    .where('maintenance_plan_id', 'is not', null)
    .execute();
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
  const rows = await db
    .selectFrom('maintenance_plans as p')
    .innerJoin('plan_aircraft as pa', (j) =>
      j.onRef('pa.maintenance_plan_id', '=', 'p.id').on('pa.company_id', '=', actor.companyId),
    )
    .leftJoin('maintenance_programmes as g', (j) =>
      j
        .onRef('g.id', '=', 'p.maintenance_programme_id')
        .on('g.company_id', '=', actor.companyId)
        .on('g.deleted', '=', 0),
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
    .where('p.company_id', '=', actor.companyId)
    .where('p.deleted', '=', 0)
    .where('pa.aircraft_id', '=', aircraftId)
    .orderBy('p.sort_order')
    .orderBy('p.id')
    .execute();
  return {
    result: true,
    count: rows.length,
    plans: rows.map((r) => ({
      id: r.id,
      name: r.name,
      hours_interval: n(r.hours_interval),
      landings_interval: n(r.landings_interval),
      repeat: r.repeat,
      maintenance_programme_id: r.programme_id ?? null,
      programme_name: r.programme_name ?? null,
    })),
  };
}

export async function listProgrammes(db: Kysely<DB>, actor: Actor) {
  const rows = await db
    .selectFrom('maintenance_programmes as g')
    .select((eb) => [
      'g.id',
      'g.name',
      eb
        .selectFrom('maintenance_plans as p')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('p.maintenance_programme_id', '=', 'g.id')
        .where('p.company_id', '=', actor.companyId)
        .where('p.deleted', '=', 0)
        .as('plan_count'),
    ])
    .where('g.company_id', '=', actor.companyId)
    .where('g.deleted', '=', 0)
    .orderBy('g.sort_order')
    .orderBy('g.name')
    .orderBy('g.id')
    .execute();
  return {
    result: true,
    programmes: rows.map((r) => ({ id: r.id, name: r.name, plan_count: Number(r.plan_count ?? 0) })),
  };
}
