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
import { reportsRoutes } from './reports/reports.routes.ts';
import { safetyReportsRoutes } from './safety-reports/safety-reports.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { schedulesRoutes } from './schedules/schedules.routes.ts';
import { uploadsRoutes } from './uploads/uploads.routes.ts';
import { trainingsRoutes } from './trainings/trainings.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { paymentsRoutes } from './billing/payments.routes.ts';
import { dutyRoutes } from './duty/duty.routes.ts';
import { readinessRoutes } from './readiness/readiness.routes.ts';
import '../db/core-tables.ts';
import '../db/domain-tables.ts';
import './bases/bases.commands.ts';
import './flights/flights.commands.ts';
import './aircraft-reports/aircraft-reports.commands.ts';
import './company/company.sync.ts';
import './bases/bases.sync.ts';
import './users/users.sync.ts';
import './certificates/certificates.sync.ts';
import './aircraft/aircraft.sync.ts';
import './aircraft-reports/aircraft-reports.sync.ts';
import './maintenance-jobs/maintenance-jobs.sync.ts';
import './inventory/inventory.sync.ts';
import './flights/flights.sync.ts';
import './notifications/notifications.sync.ts';
import './news/news.sync.ts';
import './schedules/schedules.commands.ts';
import './safety-reports/safety-reports.sync.ts';
import './trainings/trainings.sync.ts';
import './billing/billing.sync.ts';
import './billing/billing.jobs.ts';

import './duty/duty.alerts.ts';

/** The route registry: every area adds its list here (one line per area). */
export function allRoutes(): RouteDef[] {
  return [
    ...systemRoutes,
    ...accountsRoutes,
    ...apiKeysRoutes,
    ...aircraftRoutes,
    ...syncRoutes,
    ...flightTypesRoutes,
    ...inventoryRoutes,
    ...aircraftReportsRoutes,
    ...maintenanceJobsRoutes,
    ...maintenancePlansRoutes,
    ...flightsRoutes,
    ...airportsRoutes,
    ...notificationsRoutes,
    ...companyRoutes,
    ...newsRoutes,
    ...usersRoutes,
    ...profileRoutes,
    ...basesRoutes,
    ...pilotGroupsRoutes,
    ...pilotsRoutes,
    ...certificatesRoutes,
    ...webhooksRoutes,
    ...reportsRoutes,
    ...schedulesRoutes,
    ...uploadsRoutes,
    ...trainingsRoutes,
    ...safetyReportsRoutes,
    ...billingRoutes,
    ...paymentsRoutes,
    ...dutyRoutes,
    ...readinessRoutes,
  ];
}
