import type { AreaDef } from '../../area.ts';
import { maintenanceJobsRoutes } from './maintenance-jobs.routes.ts';
import { maintenanceJobRecords } from './maintenance-jobs.sync.ts';

/** The maintenance-jobs area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const maintenanceJobsArea: AreaDef = {
  name: 'maintenance-jobs',
  routes: maintenanceJobsRoutes,
  collections: [maintenanceJobRecords],
};
