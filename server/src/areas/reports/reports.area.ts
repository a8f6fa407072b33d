import type { AreaDef } from '../../area.ts';
import { reportsRoutes } from './reports.routes.ts';

/** The reports area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const reportsArea: AreaDef = {
  name: 'reports',
  routes: reportsRoutes,
};
