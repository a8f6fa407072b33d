/**
 * The navigation registry: every screen of the app, which roles see it, and
 * how it renders. An area adds its screens with ONE line below, importing an
 * array from `areas/<area>/screens.ts`:
 *
 *   export const safetyScreens: ScreenEntry[] = [{
 *     screen: 'safety', label: 'Safety reports', group: 'Safety',
 *     visible: (role) => allows(GATES.member, role),   // a gate from roles.ts or the area's policy
 *     component: lazy(() => import('./SafetyReports.tsx')),   // lazy: keeps the first load small
 *   }];
 *
 * A screen component is the file's default export and takes `ScreenProps`.
 *
 * `visible` mirrors the API's gates for the menu only; the server stays the authority.
 */
import type { Plan } from '@ops/shared';
import { type ComponentType, lazy } from 'react';
import { accountsScreens } from './areas/accounts/screens.ts';
import { aircraftScreens } from './areas/aircraft/screens.ts';
import { aircraftReportsScreens } from './areas/aircraft-reports/screens.ts';
import { basesScreens } from './areas/bases/screens.ts';
import { billingScreens } from './areas/billing/screens.ts';
import { companyScreens } from './areas/company/screens.ts';
import { flightsScreens } from './areas/flights/screens.ts';
import { maintenanceJobsScreens } from './areas/maintenance-jobs/screens.ts';
import { newsScreens } from './areas/news/screens.ts';
import { pilotGroupsScreens } from './areas/pilot-groups/screens.ts';
import { pilotsScreens } from './areas/pilots/screens.ts';
import { profileScreens } from './areas/profile/screens.ts';
import { reportsScreens } from './areas/reports/screens.ts';
import { safetyScreens } from './areas/safety-reports/screens.ts';
import { schedulesScreens } from './areas/schedules/screens.ts';
import { trainingsScreens } from './areas/trainings/screens.ts';
import { usersScreens } from './areas/users/screens.ts';
import type { Rejection } from './decisions.ts';
import { dutyScreens } from './areas/duty/screens.ts';
import { readinessScreens } from './areas/readiness/screens.ts';

export interface Route {
  screen: string;
  /** A record the screen opens (the aircraft of the technical log...). */
  id?: string;
}

export interface ScreenProps {
  route: Route;
  go(route: Route): void;
  /** Changes the server refused, for the sync screen. */
  rejected: Rejection[];
}

export type NavGroup = 'Operations' | 'Maintenance' | 'Training' | 'Safety' | 'People' | 'Office' | 'Account' | 'Sync';

/** The order of the groups in the navigation (screens keep their registry order inside a group). */
export const NAV_GROUPS: readonly NavGroup[] = [
  'Operations',
  'Maintenance',
  'Training',
  'Safety',
  'People',
  'Office',
  'Account',
  'Sync',
];

export interface ScreenEntry {
  screen: string;
  label: string;
  group: NavGroup;
  visible(role: number): boolean;
  /** The plans whose API serves this screen (the area policy's plan list); absent: every plan. */
  plans?: readonly Plan[];
  /** Opened by links only (a record's page), not listed in the navigation. */
  hidden?: boolean;
  component: ComponentType<ScreenProps>;
}

/** The shell's own screen: generic sync UI (what waits, what the server refused), for every role. */
const syncScreens: ScreenEntry[] = [
  {
    screen: 'changes',
    label: 'Sync & rejections',
    group: 'Sync',
    visible: () => true,
    component: lazy(() => import('./Changes.tsx')),
  },
];

/** Areas: one line each (the order is the menu order inside a group). */
export const SCREENS: ScreenEntry[] = [
  ...aircraftScreens,
  ...aircraftReportsScreens,
  ...maintenanceJobsScreens,
  ...flightsScreens,
  ...syncScreens,
  ...companyScreens,
  ...usersScreens,
  ...pilotsScreens,
  ...pilotGroupsScreens,
  ...basesScreens,
  ...accountsScreens,
  ...newsScreens,
  ...profileScreens,
  ...reportsScreens,
  ...schedulesScreens,
  ...safetyScreens,
  ...trainingsScreens,
  ...billingScreens,
  ...dutyScreens,
  ...readinessScreens,
];

/**
 * The screens of a role on the company's plan. `plan` unknown (the company
 * document not synced yet): no plan filter, the screens say why when refused.
 */
export const screensFor = (role: number, plan?: Plan | null): ScreenEntry[] =>
  SCREENS.filter((s) => s.visible(role) && (!plan || !s.plans || s.plans.includes(plan)));

/** The navigation of a role: its visible, listed screens by group, groups in `NAV_GROUPS` order, empty groups left out. */
export function menuFor(role: number, plan?: Plan | null): Array<{ group: NavGroup; screens: ScreenEntry[] }> {
  const mine = screensFor(role, plan).filter((s) => !s.hidden);
  return NAV_GROUPS.map((group) => ({ group, screens: mine.filter((s) => s.group === group) })).filter(
    (g) => g.screens.length > 0,
  );
}
