import type { ReplicatedBase } from '../../db/core-tables.ts';

/** Row types of migration 0030 for the inventory (Part B 2.1). */
export interface InventoryPartsTable extends ReplicatedBase {
  user_id: string | null;
  part_number: string;
  name: string;
  mfr_name: string;
  category: string;
  approval_status: string;
  description: string | null;
}

export interface InventoryUnitsTable {
  id: string;
  company_id: string;
  part_id: string;
  serial_number: string | null;
  status: string;
  condition: string;
  base_id: string | null;
  aircraft_id: string | null;
  workorder_id: string | null;
  deleted: number;
  created: number;
  modified: number;
}

export interface InventoryProvidersTable {
  id: string;
  company_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  deleted: number;
  created: number;
  modified: number;
}

declare module '../../db/schema.ts' {
  interface DB {
    inventory_parts: InventoryPartsTable;
    inventory_units: InventoryUnitsTable;
    inventory_providers: InventoryProvidersTable;
    inventory_part_providers: { company_id: string; part_id: string; provider_id: string; created: number };
    inventory_history: {
      id: string;
      company_id: string;
      part_id: string;
      user_id: string | null;
      action: string;
      fields: string | null;
      created: number;
    };
  }
}
