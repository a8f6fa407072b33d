import type { InventoryPartDoc } from '@ops/shared';
import type { Kysely } from 'kysely';
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
