import type { AreaDef } from '../area.ts';
import { registerArea } from '../area.ts';
import type { RouteDef } from '../http/define-route.ts';
import type { SeedStep } from '../seed/index.ts';
import { syncArea } from '../sync/sync.area.ts';
import { accountsArea } from './accounts/accounts.area.ts';
import { aircraftArea } from './aircraft/aircraft.area.ts';
import { aircraftReportsArea } from './aircraft-reports/aircraft-reports.area.ts';
import { airportsArea } from './airports/airports.area.ts';
import { basesArea } from './bases/bases.area.ts';
import { billingArea } from './billing/billing.area.ts';
import { certificatesArea } from './certificates/certificates.area.ts';
import { companyArea } from './company/company.area.ts';
import { dutyArea } from './duty/duty.area.ts';
import { readinessArea } from './readiness/readiness.area.ts';
import { flightTypesArea } from './flight-types/flight-types.area.ts';
import { flightsArea } from './flights/flights.area.ts';
import { inventoryArea } from './inventory/inventory.area.ts';
import { maintenanceJobsArea } from './maintenance-jobs/maintenance-jobs.area.ts';
import { maintenancePlansArea } from './maintenance-plans/maintenance-plans.area.ts';
import { newsArea } from './news/news.area.ts';
import { notificationsArea } from './notifications/notifications.area.ts';
import { pilotGroupsArea } from './pilot-groups/pilot-groups.area.ts';
import { pilotsArea } from './pilots/pilots.area.ts';
import { profileArea } from './profile/profile.area.ts';
import { reportsArea } from './reports/reports.area.ts';
import { safetyReportsArea } from './safety-reports/safety-reports.area.ts';
import { schedulesArea } from './schedules/schedules.area.ts';
import { systemArea } from './system/system.area.ts';
import { trainingsArea } from './trainings/trainings.area.ts';
import { uploadsArea } from './uploads/uploads.area.ts';
import { usersArea } from './users/users.area.ts';
import { webhooksArea } from './webhooks/webhooks.area.ts';

/**
 * Every area, once, in the order its routes are matched and everything it lists is registered
 * (docs/architecture.md, "How an area registers"). Routes of areas sharing a first path segment
 * (`/manager`, `/maintenance`, `/pilots`, `/users`) are tried in this order. A new area adds its
 * manifest here (one line); `test/integration/system/layout.test.ts` fails on an area folder missing.
 */
export const AREAS: readonly AreaDef[] = [
  systemArea,
  accountsArea,
  aircraftArea,
  syncArea,
  flightTypesArea,
  inventoryArea,
  aircraftReportsArea,
  maintenanceJobsArea,
  maintenancePlansArea,
  flightsArea,
  airportsArea,
  notificationsArea,
  companyArea,
  newsArea,
  usersArea,
  profileArea,
  basesArea,
  pilotGroupsArea,
  pilotsArea,
  certificatesArea,
  webhooksArea,
  reportsArea,
  schedulesArea,
  uploadsArea,
  trainingsArea,
  safetyReportsArea,
  billingArea,
  dutyArea,
  readinessArea,
];

/**
 * The order seed steps run in, by area (one transaction). Later steps read what earlier ones
 * created through the refs: flights need flight types and aircraft, people need the company
 * settings, schedules, trainings, safety reports, billing and duty need people and flights.
 */
export const SEED_ORDER: readonly string[] = [
  'flight-types',
  'aircraft',
  'flights',
  'company',
  'news',
  'pilots',
  'schedules',
  'trainings',
  'safety-reports',
  'billing',
  'duty',
  'readiness',
];

/** The route registry: every area's routes, in the order of AREAS. */
export function allRoutes(): RouteDef[] {
  return AREAS.flatMap((a) => a.routes ?? []);
}

/** The seed steps in SEED_ORDER; an area with a seed step missing from it is a mistake, caught here. */
export function seedSteps(): SeedStep[] {
  const seeding = AREAS.filter((a) => a.seed).map((a) => a.name);
  const unordered = seeding.filter((n) => !SEED_ORDER.includes(n));
  if (unordered.length) throw new Error(`areas with a seed step missing from SEED_ORDER: ${unordered.join(', ')}`);
  return SEED_ORDER.map((name) => {
    const step = AREAS.find((a) => a.name === name)?.seed;
    if (!step) throw new Error(`SEED_ORDER names ${name}, which has no seed step`);
    return step;
  });
}

let registered = false;

/**
 * Registers every area's collections, record types, tombstone tables, commands, jobs, alert
 * sources and upload models with the generic registries, once per process. Called by
 * `startServer` and the seed command before anything reads a registry.
 */
export function registerAreas(): void {
  if (registered) return;
  registered = true;
  for (const area of AREAS) registerArea(area);
}
