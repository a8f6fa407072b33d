import { APPROVAL_STATUSES, INVENTORY_CATEGORIES, UNIT_CONDITIONS, UNIT_STATUSES } from '@ops/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { unwrapData } from '../../http/body.ts';
import { parseOr400 } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { emptyToUndefined, zPage } from '../../http/zod.ts';
import { presentHistory, presentPart, presentPartListRow, presentUnit } from './inventory.presenter.ts';
import {
  availablePartRows,
  partHistoryRows,
  partListPage,
  partProviderRows,
  partRow,
  partUnitRows,
  providerPartRows,
  providerRow,
  providerRows,
} from './inventory.repository.ts';

export const INVENTORY_PAGE_DEFAULT = 50;
export const INVENTORY_PAGE_MAX = 200;

/** Parts with at least one unit not on a work order, by name (Part B 4.1). */
export async function availableParts(db: Kysely<DB>, actor: Actor) {
  return { result: true, items: await availablePartRows(db, actor.companyId) };
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
  const { count, rows } = await partListPage(db, actor.companyId, f, page, limit);
  return {
    result: true,
    items: rows.map(presentPartListRow),
    paginate: paginate(page, limit, count, rows.length),
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
  const part = await partRow(db, actor.companyId, id);
  if (!part) throw notFound('Part not found');
  const units = await partUnitRows(db, actor.companyId, id);
  const providers = await partProviderRows(db, actor.companyId, id);
  const history = await partHistoryRows(db, actor.companyId, id);
  return {
    result: true,
    Inventory: presentPart(part),
    InventoryUnit: units.map(presentUnit),
    InventoryProvider: providers,
    InventoryHistory: history.map(presentHistory),
  };
}

export const ZProviderSearch = z.object({
  search: z.preprocess(emptyToUndefined, z.string().trim().max(120).optional()),
});

export async function searchProviders(db: Kysely<DB>, actor: Actor, raw: unknown) {
  const f = parseOr400(ZProviderSearch, unwrapData(raw));
  return { result: true, providers: await providerRows(db, actor.companyId, f.search) };
}

export async function viewProvider(db: Kysely<DB>, actor: Actor, id: string) {
  const provider = await providerRow(db, actor.companyId, id);
  if (!provider) throw notFound('Provider not found');
  const parts = await providerPartRows(db, actor.companyId, id);
  return { result: true, InventoryProvider: { ...provider, created: Number(provider.created) }, Inventory: parts };
}
