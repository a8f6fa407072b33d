import type { RouteDef } from '../http/define-route.ts';
import { accountsRoutes } from './accounts/accounts.routes.ts';
import { apiKeysRoutes } from './accounts/api-keys.routes.ts';
import { aircraftRoutes } from './aircraft/aircraft.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { syncRoutes } from '../sync/sync.routes.ts';
import { inventoryRoutes } from './inventory/inventory.routes.ts';
import { aircraftReportsRoutes } from './aircraft-reports/aircraft-reports.routes.ts';
import { maintenanceJobsRoutes } from './maintenance-jobs/maintenance-jobs.routes.ts';
import { maintenancePlansRoutes } from './maintenance-plans/maintenance-plans.routes.ts';
import { flightTypesRoutes } from './flight-types/flight-types.routes.ts';
import { flightsRoutes } from './flights/flights.routes.ts';
import { airportsRoutes } from './airports/airports.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { companyRoutes } from './company/company.routes.ts';
import { newsRoutes } from './news/news.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { profileRoutes } from './profile/profile.routes.ts';
import { basesRoutes } from './bases/bases.routes.ts';
import { pilotGroupsRoutes } from './pilot-groups/pilot-groups.routes.ts';
import { pilotsRoutes } from './pilots/pilots.routes.ts';
import { certificatesRoutes } from './certificates/certificates.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import '../db/core-tables.ts';
import '../db/domain-tables.ts';
import './bases/bases.commands.ts';
import './flights/flights.commands.ts';
import './aircraft-reports/aircraft-reports.commands.ts';

/** The route registry: every area adds its list here (one line per area). */
export function allRoutes(): RouteDef[] {
  return [...systemRoutes, ...accountsRoutes, ...apiKeysRoutes, ...aircraftRoutes, ...syncRoutes, ...flightTypesRoutes, ...inventoryRoutes, ...aircraftReportsRoutes, ...maintenanceJobsRoutes, ...maintenancePlansRoutes, ...flightsRoutes, ...airportsRoutes, ...notificationsRoutes, ...companyRoutes, ...newsRoutes, ...usersRoutes, ...profileRoutes, ...basesRoutes, ...pilotGroupsRoutes, ...pilotsRoutes, ...certificatesRoutes, ...webhooksRoutes];
}
