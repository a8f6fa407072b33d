import type { AreaDef } from '../../area.ts';
import { airportsRoutes } from './airports.routes.ts';

/** The airports area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const airportsArea: AreaDef = {
  name: 'airports',
  routes: airportsRoutes,
};
