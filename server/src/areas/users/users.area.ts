import type { AreaDef } from '../../area.ts';
import { usersRoutes } from './users.routes.ts';
import { userRecords } from './users.sync.ts';

/** The users area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const usersArea: AreaDef = {
  name: 'users',
  routes: usersRoutes,
  collections: [userRecords],
};
