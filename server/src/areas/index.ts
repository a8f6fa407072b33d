import type { RouteDef } from '../http/define-route.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { apiKeysRoutes } from './accounts/api-keys.routes.ts';
import { aircraftRoutes } from './aircraft/aircraft.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { syncRoutes } from '../sync/sync.routes.ts';
import '../db/core-tables.ts';
import '../db/domain-tables.ts';
import './bases/bases.commands.ts';

/** The route registry: every area adds its list here (one line per area). */
export function allRoutes(): RouteDef[] {
  return [...systemRoutes, ...accountsRoutes, ...apiKeysRoutes, ...aircraftRoutes, ...syncRoutes];
}
