import type { AreaDef } from '../../area.ts';
import { profileRoutes } from './profile.routes.ts';

/** The profile area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const profileArea: AreaDef = {
  name: 'profile',
  routes: profileRoutes,
};
