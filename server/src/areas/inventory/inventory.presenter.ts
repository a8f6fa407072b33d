import type { Selectable } from 'kysely';
import type { InventoryPartsTable } from './inventory.tables.ts';

export type PartRow = Selectable<InventoryPartsTable>;

/** A part's own fields as the REST answers and the collection's document show them. */
export function presentPart(p: PartRow) {
  return {
    id: p.id,
    part_number: p.part_number,
    name: p.name,
    mfr_name: p.mfr_name,
    category: p.category,
    approval_status: p.approval_status,
    description: p.description,
    created: Number(p.created),
    modified: Number(p.modified),
  };
}
