import type { AreaDef } from '../../area.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { apiKeysRoutes } from './api-keys.routes.ts';

/** The accounts area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const accountsArea: AreaDef = {
  name: 'accounts',
  routes: [...accountsRoutes, ...apiKeysRoutes],
};
