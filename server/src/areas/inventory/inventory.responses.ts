import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the inventory routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /maintenance/inventory/available.json */
export const ZMaintenanceInventoryAvailable = z.strictObject({
  result: z.boolean(),
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      category: z.string(),
    }),
  ),
});

/** One inventory part (catalogue entry). */
const zInventory = z.object({
  id: z.string(),
  part_number: z.string(),
  name: z.string(),
  mfr_name: z.string(),
  category: z.string(),
  approval_status: z.string(),
  description: z.string().nullable(),
  created: z.number(),
  modified: z.number(),
});

/** POST /maintenance/inventory/index.json */
export const ZMaintenanceInventoryIndex = z.strictObject({
  result: z.boolean(),
  items: z.array(
    z.object({
      Inventory: zInventory,
      unit_count: z.number(),
      available_count: z.number(),
    }),
  ),
  paginate: ZPaginate,
});

/** GET /maintenance/inventory/selectables.json */
export const ZMaintenanceInventorySelectables = z.strictObject({
  result: z.boolean(),
  categories: z
    .array(
      z.enum([
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
      ]),
    )
    .readonly(),
  statuses: z
    .array(
      z.enum([
        'Pending',
        'Approved',
        'Rejected',
        'Quarantined',
        'Certified',
        'Non-certified',
        'Under-review',
        'Expired',
        'Unapproved',
      ]),
    )
    .readonly(),
  unit_statuses: z.array(z.enum(['IN_STOCK', 'RESERVED', 'INSTALLED', 'IN_REPAIR', 'SCRAPPED'])).readonly(),
  unit_conditions: z.array(z.enum(['NEW', 'OVERHAULED', 'SERVICEABLE', 'REPAIRED', 'UNSERVICEABLE'])).readonly(),
});

/** An inventory provider. */
const zInventoryProvider = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

/** GET /maintenance/inventory/view/:id.json */
export const ZMaintenanceInventoryView = z.strictObject({
  result: z.boolean(),
  Inventory: zInventory,
  InventoryUnit: z.array(
    z.object({
      id: z.string(),
      serial_number: z.string().nullable(),
      status: z.string(),
      condition: z.string(),
      base_id: z.string().nullable(),
      aircraft_id: z.string().nullable(),
      workorder_id: z.string().nullable(),
      created: z.number(),
    }),
  ),
  InventoryProvider: z.array(zInventoryProvider),
  InventoryHistory: z.array(
    z.object({
      id: z.string(),
      action: z.string(),
      fields: z.unknown(),
      created: z.number(),
      User: z
        .object({
          id: z.string(),
          name: z.string().nullable(),
          surname: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
});

/** POST /maintenance/inventory/edit.json */
export const ZMaintenanceInventoryEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** POST /maintenance/inventory/delete.json */
export const ZMaintenanceInventoryDelete = z.strictObject({
  result: z.boolean(),
  message: z.string(),
});

/** POST /maintenance/inventory/providers.json */
export const ZMaintenanceInventoryProviders = z.strictObject({
  result: z.boolean(),
  providers: z.array(zInventoryProvider),
});

/** GET /maintenance/inventory/provider/:id.json */
export const ZMaintenanceInventoryProvider = z.strictObject({
  result: z.boolean(),
  InventoryProvider: z.object({
    created: z.number(),
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  Inventory: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      part_number: z.string(),
    }),
  ),
});
