import type { AreaDef } from '../../area.ts';
import { maintenancePlansRoutes } from './maintenance-plans.routes.ts';

/** The maintenance-plans area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const maintenancePlansArea: AreaDef = {
  name: 'maintenance-plans',
  routes: maintenancePlansRoutes,
};
