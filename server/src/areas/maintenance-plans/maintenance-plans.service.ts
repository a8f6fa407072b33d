import { uuidv7 } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { type FieldErrors, notFound, zodFieldErrors } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { rowsOf, unwrapData } from '../../http/body.ts';
import { addError, invalid, mergeErrors } from '../../http/errors.ts';
import { emptyToNull, emptyToUndefined, zDecimal, zIdList, zOptText } from '../../http/zod.ts';
import { zIntish } from '../../http/zod.ts';
import { PLAN_REPEATS } from '@ops/shared/rules/maintenance-plans/schedule';
import './maintenance-plans.tables.ts';

/**
 * Plan actions (Part B 4.3 edit, delete, reorder). A save is validated as a
 * whole before anything is written, and runs in one transaction.
 */

export const ZPlan = z.object({
  id: z.preprocess(emptyToUndefined, z.string().max(64).optional()),
  name: z.preprocess(
    emptyToUndefined,
    z.string().trim().min(1, 'Required').max(180, 'At most 180 characters').optional(),
  ),
  description: zOptText(5000),
  hours_interval: z.preprocess(
    emptyToNull,
    zDecimal.pipe(z.number().min(0, 'Must be 0 or more')).nullable().optional(),
  ),
  landings_interval: z.preprocess(
    emptyToNull,
    zIntish.pipe(z.number().min(0, 'Must be 0 or more')).nullable().optional(),
  ),
  repeat: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
    z.enum(PLAN_REPEATS, { error: `One of ${PLAN_REPEATS.join(', ')}` }).optional(),
  ),
  maintenance_programme_id: z.preprocess(
    emptyToNull,
    z.union([z.string(), z.number()]).transform(String).nullable().optional(),
  ),
  programme_name: zOptText(120),
});

export const ZTemplate = z.object({
  id: z.preprocess(emptyToUndefined, z.union([z.string(), z.number()]).transform(String).optional()),
  name: z.preprocess(emptyToUndefined, z.string().trim().max(180, 'At most 180 characters').optional()),
  description: zOptText(5000),
  ata: zOptText(20),
  time: z.preprocess(emptyToNull, zDecimal.pipe(z.number().min(0, 'Must be 0 or more')).nullable().optional()),
});
type TTemplate = z.output<typeof ZTemplate>;

/** The posted aircraft set: `data[Aircraft][Aircraft][]`, `Aircraft: [...]` or `Aircraft: {Aircraft: [...]}`; null when not posted. */
function aircraftSet(b: Record<string, unknown>): unknown {
  if (!('Aircraft' in b)) return undefined;
  const a = b.Aircraft;
  if (a && typeof a === 'object' && !Array.isArray(a) && 'Aircraft' in a)
    return (a as Record<string, unknown>).Aircraft;
  return a;
}

async function resolveProgramme(
  uow: UnitOfWork,
  companyId: string,
  f: { maintenance_programme_id?: string | null; programme_name?: string | null },
  current: string | null,
): Promise<{ id: string } | { error: string }> {
  const trx = uow.trx;
  if (f.maintenance_programme_id === undefined && f.programme_name === undefined && current) {
    const kept = await trx
      .selectFrom('maintenance_programmes')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', current)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (kept) return { id: kept.id };
  }
  // An invalid or foreign id counts as empty (Part B 4.3).
  if (f.maintenance_programme_id) {
    const p = await trx
      .selectFrom('maintenance_programmes')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', f.maintenance_programme_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (p) return { id: p.id };
  }
  const name = f.programme_name?.trim();
  if (!name) return { error: 'Choose a maintenance programme or give the name of one' };
  const same = await trx
    .selectFrom('maintenance_programmes')
    .select('id')
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .orderBy('sort_order')
    .orderBy('id')
    .executeTakeFirst();
  if (same) return { id: same.id };
  const last = await trx
    .selectFrom('maintenance_programmes')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  const id = uuidv7();
  const now = nowSeconds();
  await trx
    .insertInto('maintenance_programmes')
    .values({
      id,
      company_id: companyId,
      name,
      sort_order: last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1,
      deleted: 0,
      created: now,
      modified: now,
    })
    .execute();
  return { id };
}

export async function savePlan(uow: UnitOfWork, actor: Actor, raw: unknown): Promise<{ id: string }> {
  const trx = uow.trx;
  const b = unwrapData(raw);
  const errors: FieldErrors = {};
  const parsed = ZPlan.safeParse(b.MaintenancePlan && typeof b.MaintenancePlan === 'object' ? b.MaintenancePlan : {});
  if (!parsed.success) mergeErrors(errors, '', zodFieldErrors(parsed.error));
  const f = parsed.success ? parsed.data : null;

  const existing = f?.id
    ? await trx
        .selectFrom('maintenance_plans')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', f.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  if (f?.id && !existing) throw notFound('Maintenance plan action not found');
  if (f && !existing && !f.name) addError(errors, 'name', 'Required');

  const postedAircraft = aircraftSet(b);
  let aircraftIds: string[] | null = null;
  if (postedAircraft !== undefined) {
    const ids = zIdList.safeParse(postedAircraft);
    if (!ids.success) mergeErrors(errors, 'Aircraft.', zodFieldErrors(ids.error));
    else {
      aircraftIds = [...new Set(ids.data)];
      const found = aircraftIds.length
        ? await trx
            .selectFrom('aircraft')
            .select('id')
            .where('company_id', '=', actor.companyId)
            .where('id', 'in', aircraftIds)
            .where('deleted', '=', 0)
            .execute()
        : [];
      if (found.length !== aircraftIds.length) addError(errors, 'Aircraft', 'Unknown aircraft');
    }
  }

  let templates: TTemplate[] | null = null;
  if ('PlanWorkOrder' in b) {
    templates = [];
    const rows = b.PlanWorkOrder === '' || b.PlanWorkOrder === null ? [] : rowsOf(b.PlanWorkOrder);
    rows.forEach((row, i) => {
      const t = ZTemplate.safeParse(row ?? {});
      if (!t.success) mergeErrors(errors, `PlanWorkOrder.${i}.`, zodFieldErrors(t.error));
      // Rows without a name are skipped (Part B 4.3).
      else if (t.data.name) templates?.push(t.data);
    });
  }
  // A programme created here is rolled back with the transaction when the save fails.
  const programme = f
    ? await resolveProgramme(uow, actor.companyId, f, existing?.maintenance_programme_id ?? null)
    : null;
  if (programme && 'error' in programme) addError(errors, 'maintenance_programme_id', programme.error);
  if (Object.keys(errors).length || !f || !programme || 'error' in programme) throw invalid(errors);

  const now = nowSeconds();
  const changeNo = await uow.changeNo(actor.companyId, 'maintenance_plans');
  let id: string;
  if (existing) {
    id = existing.id;
    const set: Record<string, unknown> = { maintenance_programme_id: programme.id };
    for (const k of ['name', 'description', 'hours_interval', 'landings_interval', 'repeat'] as const)
      if (f[k] !== undefined) set[k] = f[k];
    await trx
      .updateTable('maintenance_plans')
      .set({ ...set, modified: now, change_no: changeNo })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', id)
      .execute();
  } else {
    id = uuidv7();
    const last = await trx
      .selectFrom('maintenance_plans')
      .select((eb) => eb.fn.max('sort_order').as('m'))
      .where('company_id', '=', actor.companyId)
      .executeTakeFirst();
    await trx
      .insertInto('maintenance_plans')
      .values({
        id,
        company_id: actor.companyId,
        change_no: changeNo,
        deleted: 0,
        created: now,
        modified: now,
        user_id: actor.userId,
        name: f.name as string,
        description: f.description ?? null,
        hours_interval: f.hours_interval ?? null,
        landings_interval: f.landings_interval ?? null,
        repeat: f.repeat ?? 'NEVER',
        maintenance_programme_id: programme.id,
        sort_order: last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1,
      })
      .execute();
  }

  if (aircraftIds !== null) {
    // The submitted set replaces the links; an empty set leaves the action unassigned.
    await trx
      .deleteFrom('plan_aircraft')
      .where('company_id', '=', actor.companyId)
      .where('maintenance_plan_id', '=', id)
      .execute();
    if (aircraftIds.length) {
      await trx
        .insertInto('plan_aircraft')
        .values(aircraftIds.map((a) => ({ company_id: actor.companyId, maintenance_plan_id: id, aircraft_id: a })))
        .execute();
    }
  }
  if (templates !== null) await replaceTemplates(trx, actor.companyId, id, templates, now);
  return { id };
}

/** Rows saved in submitted order; an id of this plan updates its row, any other id is a new row; unsent rows go. */
async function replaceTemplates(trx: Kysely<DB>, companyId: string, planId: string, rows: TTemplate[], now: number) {
  const current = await trx
    .selectFrom('plan_work_orders')
    .select('id')
    .where('company_id', '=', companyId)
    .where('maintenance_plan_id', '=', planId)
    .execute();
  const known = new Set(current.map((c) => c.id));
  const kept = new Set<string>();
  for (const [i, t] of rows.entries()) {
    const values = {
      name: t.name as string,
      description: t.description ?? null,
      ata: t.ata ?? null,
      time: t.time ?? null,
      sort_order: i,
      modified: now,
    };
    if (t.id && known.has(t.id) && !kept.has(t.id)) {
      kept.add(t.id);
      await trx
        .updateTable('plan_work_orders')
        .set(values)
        .where('company_id', '=', companyId)
        .where('id', '=', t.id)
        .execute();
    } else {
      await trx
        .insertInto('plan_work_orders')
        .values({ id: uuidv7(), company_id: companyId, maintenance_plan_id: planId, created: now, ...values })
        .execute();
    }
  }
  const gone = [...known].filter((k) => !kept.has(k));
  if (gone.length)
    await trx.deleteFrom('plan_work_orders').where('company_id', '=', companyId).where('id', 'in', gone).execute();
}

/** Soft delete: jobs already created from the action are kept (Part B 4.3). */
export async function deletePlan(uow: UnitOfWork, actor: Actor, id: string): Promise<void> {
  const res = await uow.trx
    .updateTable('maintenance_plans')
    .set({ deleted: 1, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'maintenance_plans') })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notFound('Maintenance plan action not found');
}

export const ZReorder = z.object({ order: zIdList.pipe(z.array(z.string()).min(1, 'At least one plan action')) });

/** Positions follow the posted order; ids that are not live actions of the company are ignored. */
export async function reorderPlans(uow: UnitOfWork, actor: Actor, order: readonly string[]): Promise<number> {
  const ids = [...new Set(order)];
  const live = await uow.trx
    .selectFrom('maintenance_plans')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', 'in', ids)
    .where('deleted', '=', 0)
    .execute();
  const known = new Set(live.map((p) => p.id));
  const ordered = ids.filter((i) => known.has(i));
  if (!ordered.length) return 0;
  const changeNo = await uow.changeNo(actor.companyId, 'maintenance_plans');
  const now = nowSeconds();
  for (const [i, id] of ordered.entries()) {
    await uow.trx
      .updateTable('maintenance_plans')
      .set({ sort_order: i, modified: now, change_no: changeNo })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', id)
      .execute();
  }
  return ordered.length;
}
