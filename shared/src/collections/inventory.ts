import { type CollectionDef, s } from './types.ts';

/** Part B 2.1 values. */
export const INVENTORY_CATEGORIES = [
  'Avionics',
  'Hydraulics',
  'Engine',
  'Landing Gear',
  'Electrical',
  'Fuel System',
  'Flight Controls',
  'Cabin Interior',
  'Propulsion',
  'Navigation',
  'Pneumatics',
  'Airframe',
  'Communication',
  'Lighting',
  'Braking System',
  'Oxygen System',
  'Environmental Control System',
  'Emergency Equipment',
  'Structure',
  'Consumables',
  'Miscellaneous',
] as const;

export const APPROVAL_STATUSES = [
  'Pending',
  'Approved',
  'Rejected',
  'Quarantined',
  'Certified',
  'Non-certified',
  'Under-review',
  'Expired',
  'Unapproved',
] as const;

/** Designed (the spec does not show them): where a unit is and what state it is in. */
export const UNIT_STATUSES = ['IN_STOCK', 'RESERVED', 'INSTALLED', 'IN_REPAIR', 'SCRAPPED'] as const;
export const UNIT_CONDITIONS = ['NEW', 'OVERHAULED', 'SERVICEABLE', 'REPAIRED', 'UNSERVICEABLE'] as const;

export interface InventoryUnitDoc {
  id: string;
  serial_number: string | null;
  status: string;
  condition: string;
  base_id: string | null;
  aircraft_id: string | null;
  workorder_id: string | null;
}

export interface InventoryPartDoc {
  id: string;
  part_number: string;
  name: string;
  mfr_name: string;
  category: string;
  approval_status: string;
  description: string | null;
  created: number;
  modified: number;
  InventoryUnit: InventoryUnitDoc[];
  /** Provider ids and names (the provider records themselves stay online). */
  InventoryProvider: Array<{ id: string; name: string }>;
}

/** Parts with their units, read-only offline: part numbers are unique per company, decided online. */
export const inventoryCollection: CollectionDef<InventoryPartDoc> = {
  name: 'inventory',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      part_number: s.reqStr,
      name: s.reqStr,
      mfr_name: s.reqStr,
      category: s.reqStr,
      approval_status: s.reqStr,
      description: s.str,
      created: s.int,
      modified: s.int,
      InventoryUnit: { type: 'array', items: { type: 'object', additionalProperties: true } },
      InventoryProvider: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
    required: [
      'id',
      'part_number',
      'name',
      'mfr_name',
      'category',
      'approval_status',
      'created',
      'modified',
      'InventoryUnit',
      'InventoryProvider',
    ],
  },
  rows: { kind: 'company' },
  visible: (doc) => doc,
  writableFields: [],
  canPush: () => false,
};
