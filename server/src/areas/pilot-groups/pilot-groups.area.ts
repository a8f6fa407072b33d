import type { AreaDef } from '../../area.ts';
import { pilotGroupsRoutes } from './pilot-groups.routes.ts';

/** The pilot-groups area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const pilotGroupsArea: AreaDef = {
  name: 'pilot-groups',
  routes: pilotGroupsRoutes,
};
