import { APPROVAL_STATUSES, INVENTORY_CATEGORIES, UNIT_CONDITIONS, UNIT_STATUSES } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { emptyToUndefined, zPage } from '../../http/zod.ts';
import { presentPart } from './inventory.presenter.ts';

export const INVENTORY_PAGE_DEFAULT = 50;
export const INVENTORY_PAGE_MAX = 200;

const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Parts with at least one unit not on a work order, by name (Part B 4.1). */
export async function availableParts(db: Kysely<DB>, actor: Actor) {
  const items = await db
    .selectFrom('inventory_parts as p')
    .select(['p.id', 'p.name', 'p.category'])
    .where('p.company_id', '=', actor.companyId)
    .where('p.deleted', '=', 0)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('inventory_units as u')
          .select('u.id')
          .whereRef('u.part_id', '=', 'p.id')
          .where('u.company_id', '=', actor.companyId)
          .where('u.deleted', '=', 0)
          .where('u.workorder_id', 'is', null),
      ),
    )
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return { result: true, items };
}

export const ZIndex = z.object({
  category: z.preprocess(emptyToUndefined, z.string().max(60).optional()),
  status: z.preprocess(emptyToUndefined, z.string().max(60).optional()),
  name: z.preprocess(emptyToUndefined, z.string().trim().max(120).optional()),
  page: zPage,
  limit: z.preprocess(
    emptyToUndefined,
    z
      .union([z.number(), z.string().regex(/^\d+$/)])
      .transform(Number)
      .pipe(z.number().int().min(1))
      .optional(),
  ),
});

export async function listParts(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZIndex, unwrapData(raw));
  const limit = Math.min(f.limit ?? INVENTORY_PAGE_DEFAULT, INVENTORY_PAGE_MAX);
  const page = f.page ?? 1;
  let q = db.selectFrom('inventory_parts as p').where('p.company_id', '=', actor.companyId).where('p.deleted', '=', 0);
  if (f.category) q = q.where(sql<string>`lower(p.category)`, '=', f.category.toLowerCase());
  if (f.status) q = q.where(sql<string>`lower(p.approval_status)`, '=', f.status.toLowerCase());
  if (f.name) {
    const p = likePattern(f.name);
    q = q.where(
      sql<boolean>`(lower(p.part_number) like ${p} escape '\\' or lower(p.name) like ${p} escape '\\' or lower(p.mfr_name) like ${p} escape '\\')`,
    );
  }
  const [{ count }] = await q.select((eb) => eb.fn.countAll<number>().as('count')).execute();
  const rows = await q
    .selectAll('p')
    .select((eb) => [
      eb
        .selectFrom('inventory_units as u')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('u.part_id', '=', 'p.id')
        .where('u.company_id', '=', actor.companyId)
        .where('u.deleted', '=', 0)
        .as('unit_count'),
      eb
        .selectFrom('inventory_units as u')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('u.part_id', '=', 'p.id')
        .where('u.company_id', '=', actor.companyId)
        .where('u.deleted', '=', 0)
        .where('u.workorder_id', 'is', null)
        .as('available_count'),
    ])
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return {
    result: true,
    items: rows.map((r) => ({
      Inventory: presentPart(r),
      unit_count: Number(r.unit_count ?? 0),
      available_count: Number(r.available_count ?? 0),
    })),
    paginate: paginate(page, limit, Number(count), rows.length),
  };
}

export const selectables = () => ({
  result: true,
  categories: INVENTORY_CATEGORIES,
  statuses: APPROVAL_STATUSES,
  unit_statuses: UNIT_STATUSES,
  unit_conditions: UNIT_CONDITIONS,
});

export async function viewPart(db: Kysely<DB>, actor: Actor, id: string) {
  const part = await db
    .selectFrom('inventory_parts')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!part) throw notFound('Part not found');
  const units = await db
    .selectFrom('inventory_units')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('part_id', '=', id)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const providers = await db
    .selectFrom('inventory_part_providers as pp')
    .innerJoin('inventory_providers as v', (j) =>
      j.onRef('v.id', '=', 'pp.provider_id').on('v.company_id', '=', actor.companyId),
    )
    .select(['v.id', 'v.name', 'v.email', 'v.phone'])
    .where('pp.company_id', '=', actor.companyId)
    .where('pp.part_id', '=', id)
    .where('v.deleted', '=', 0)
    .orderBy('v.name')
    .execute();
  const history = await db
    .selectFrom('inventory_history as h')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'h.user_id').on('u.company_id', '=', actor.companyId))
    .select(['h.id', 'h.action', 'h.fields', 'h.created', 'h.user_id', 'u.name', 'u.surname'])
    .where('h.company_id', '=', actor.companyId)
    .where('h.part_id', '=', id)
    .orderBy('h.created', 'desc')
    .orderBy('h.id', 'desc')
    .execute();
  return {
    result: true,
    Inventory: presentPart(part),
    InventoryUnit: units.map((u) => ({
      id: u.id,
      serial_number: u.serial_number,
      status: u.status,
      condition: u.condition,
      base_id: u.base_id,
      aircraft_id: u.aircraft_id,
      workorder_id: u.workorder_id,
      created: Number(u.created),
    })),
    InventoryProvider: providers,
    InventoryHistory: history.map((h) => ({
      id: h.id,
      action: h.action,
      fields: h.fields ? (JSON.parse(h.fields) as unknown) : null,
      created: Number(h.created),
      User: h.user_id ? { id: h.user_id, name: h.name, surname: h.surname } : null,
    })),
  };
}

export const ZProviderSearch = z.object({
  search: z.preprocess(emptyToUndefined, z.string().trim().max(120).optional()),
});

export async function searchProviders(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZProviderSearch, unwrapData(raw));
  let q = db
    .selectFrom('inventory_providers')
    .select(['id', 'name', 'email', 'phone'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0);
  if (f.search) {
    const p = likePattern(f.search);
    q = q.where(
      sql<boolean>`(lower(name) like ${p} escape '\\' or lower(coalesce(email, '')) like ${p} escape '\\' or lower(coalesce(phone, '')) like ${p} escape '\\')`,
    );
  }
  return { result: true, providers: await q.orderBy('name').orderBy('id').limit(100).execute() };
}

export async function viewProvider(db: Kysely<DB>, actor: Actor, id: string) {
  const provider = await db
    .selectFrom('inventory_providers')
    .select(['id', 'name', 'email', 'phone', 'created'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!provider) throw notFound('Provider not found');
  const parts = await db
    .selectFrom('inventory_part_providers as pp')
    .innerJoin('inventory_parts as p', (j) =>
      j.onRef('p.id', '=', 'pp.part_id').on('p.company_id', '=', actor.companyId),
    )
    .select(['p.id', 'p.part_number', 'p.name'])
    .where('pp.company_id', '=', actor.companyId)
    .where('pp.provider_id', '=', id)
    .where('p.deleted', '=', 0)
    .orderBy('p.name')
    .execute();
  return { result: true, InventoryProvider: { ...provider, created: Number(provider.created) }, Inventory: parts };
}
