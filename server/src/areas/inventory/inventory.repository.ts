import type { InventoryPartDoc } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { type PartRow, presentPart } from './inventory.presenter.ts';

/** Parts as documents with their live units and providers: two queries for any number of parts. */
export async function partDocs(
  db: Kysely<DB>,
  companyId: string,
  rows: readonly PartRow[],
): Promise<InventoryPartDoc[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const units = await db
    .selectFrom('inventory_units')
    .select(['id', 'part_id', 'serial_number', 'status', 'condition', 'base_id', 'aircraft_id', 'workorder_id'])
    .where('company_id', '=', companyId)
    .where('part_id', 'in', ids)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const providers = await db
    .selectFrom('inventory_part_providers as pp')
    .innerJoin('inventory_providers as v', (j) =>
      j.onRef('v.id', '=', 'pp.provider_id').on('v.company_id', '=', companyId),
    )
    .select(['pp.part_id', 'v.id', 'v.name'])
    .where('pp.company_id', '=', companyId)
    .where('pp.part_id', 'in', ids)
    .where('v.deleted', '=', 0)
    .orderBy('v.name')
    .execute();
  return rows.map((p) => ({
    ...presentPart(p),
    InventoryUnit: units.filter((u) => u.part_id === p.id).map(({ part_id: _p, ...u }) => u),
    InventoryProvider: providers.filter((v) => v.part_id === p.id).map((v) => ({ id: v.id, name: v.name })),
  }));
}

const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Parts with at least one unit not on a work order, by name (Part B 4.1). */
export function availablePartRows(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('inventory_parts as p')
    .select(['p.id', 'p.name', 'p.category'])
    .where('p.company_id', '=', companyId)
    .where('p.deleted', '=', 0)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('inventory_units as u')
          .select('u.id')
          .whereRef('u.part_id', '=', 'p.id')
          .where('u.company_id', '=', companyId)
          .where('u.deleted', '=', 0)
          .where('u.workorder_id', 'is', null),
      ),
    )
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
}

export interface PartListFilter {
  category?: string;
  status?: string;
  name?: string;
}

/** One page of live parts by name, with their unit counts, and the number matching. */
export async function partListPage(db: Kysely<DB>, companyId: string, f: PartListFilter, page: number, limit: number) {
  let q = db.selectFrom('inventory_parts as p').where('p.company_id', '=', companyId).where('p.deleted', '=', 0);
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
        .where('u.company_id', '=', companyId)
        .where('u.deleted', '=', 0)
        .as('unit_count'),
      eb
        .selectFrom('inventory_units as u')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('u.part_id', '=', 'p.id')
        .where('u.company_id', '=', companyId)
        .where('u.deleted', '=', 0)
        .where('u.workorder_id', 'is', null)
        .as('available_count'),
    ])
    .orderBy('p.name')
    .orderBy('p.id')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { count: Number(count), rows };
}
export type PartListRow = Awaited<ReturnType<typeof partListPage>>['rows'][number];

/** A live part of the company, or undefined. */
export function partRow(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('inventory_parts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** A part's live units, oldest first. */
export function partUnitRows(db: Kysely<DB>, companyId: string, partId: string) {
  return db
    .selectFrom('inventory_units')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('part_id', '=', partId)
    .where('deleted', '=', 0)
    .orderBy('created')
    .orderBy('id')
    .execute();
}

/** A part's live providers, by name. */
export function partProviderRows(db: Kysely<DB>, companyId: string, partId: string) {
  return db
    .selectFrom('inventory_part_providers as pp')
    .innerJoin('inventory_providers as v', (j) =>
      j.onRef('v.id', '=', 'pp.provider_id').on('v.company_id', '=', companyId),
    )
    .select(['v.id', 'v.name', 'v.email', 'v.phone'])
    .where('pp.company_id', '=', companyId)
    .where('pp.part_id', '=', partId)
    .where('v.deleted', '=', 0)
    .orderBy('v.name')
    .execute();
}

/** A part's history with who did it, newest first. */
export function partHistoryRows(db: Kysely<DB>, companyId: string, partId: string) {
  return db
    .selectFrom('inventory_history as h')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'h.user_id').on('u.company_id', '=', companyId))
    .select(['h.id', 'h.action', 'h.fields', 'h.created', 'h.user_id', 'u.name', 'u.surname'])
    .where('h.company_id', '=', companyId)
    .where('h.part_id', '=', partId)
    .orderBy('h.created', 'desc')
    .orderBy('h.id', 'desc')
    .execute();
}
export type PartUnitRow = Awaited<ReturnType<typeof partUnitRows>>[number];
export type PartHistoryRow = Awaited<ReturnType<typeof partHistoryRows>>[number];

/** Live providers whose name, email or phone contains `search` (at most 100, by name). */
export function providerRows(db: Kysely<DB>, companyId: string, search: string | undefined) {
  let q = db
    .selectFrom('inventory_providers')
    .select(['id', 'name', 'email', 'phone'])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0);
  if (search) {
    const p = likePattern(search);
    q = q.where(
      sql<boolean>`(lower(name) like ${p} escape '\\' or lower(coalesce(email, '')) like ${p} escape '\\' or lower(coalesce(phone, '')) like ${p} escape '\\')`,
    );
  }
  return q.orderBy('name').orderBy('id').limit(100).execute();
}

/** A live provider of the company, or undefined. */
export function providerRow(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('inventory_providers')
    .select(['id', 'name', 'email', 'phone', 'created'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** The live parts a provider supplies, by name. */
export function providerPartRows(db: Kysely<DB>, companyId: string, providerId: string) {
  return db
    .selectFrom('inventory_part_providers as pp')
    .innerJoin('inventory_parts as p', (j) => j.onRef('p.id', '=', 'pp.part_id').on('p.company_id', '=', companyId))
    .select(['p.id', 'p.part_number', 'p.name'])
    .where('pp.company_id', '=', companyId)
    .where('pp.provider_id', '=', providerId)
    .where('p.deleted', '=', 0)
    .orderBy('p.name')
    .execute();
}
