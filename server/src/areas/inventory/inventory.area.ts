import type { AreaDef } from '../../area.ts';
import { inventoryRoutes } from './inventory.routes.ts';
import { inventoryPartRecords } from './inventory.sync.ts';

/** The inventory area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const inventoryArea: AreaDef = {
  name: 'inventory',
  routes: inventoryRoutes,
  collections: [inventoryPartRecords],
};
