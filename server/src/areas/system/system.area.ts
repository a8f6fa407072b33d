import type { AreaDef } from '../../area.ts';
import { systemRoutes } from './system.routes.ts';

/** The system area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const systemArea: AreaDef = {
  name: 'system',
  routes: systemRoutes,
};
