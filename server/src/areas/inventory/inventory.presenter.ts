import type { Selectable } from 'kysely';
import type { PartHistoryRow, PartListRow, PartUnitRow } from './inventory.repository.ts';
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

/** One row of the parts list: the part and its unit counts. */
export const presentPartListRow = (r: PartListRow) => ({
  Inventory: presentPart(r),
  unit_count: Number(r.unit_count ?? 0),
  available_count: Number(r.available_count ?? 0),
});

/** A unit as the part's view shows it. */
export const presentUnit = (u: PartUnitRow) => ({
  id: u.id,
  serial_number: u.serial_number,
  status: u.status,
  condition: u.condition,
  base_id: u.base_id,
  aircraft_id: u.aircraft_id,
  workorder_id: u.workorder_id,
  created: Number(u.created),
});

/** A history entry with its recorded fields and who made it. */
export const presentHistory = (h: PartHistoryRow) => ({
  id: h.id,
  action: h.action,
  fields: h.fields ? (JSON.parse(h.fields) as unknown) : null,
  created: Number(h.created),
  User: h.user_id ? { id: h.user_id, name: h.name, surname: h.surname } : null,
});
