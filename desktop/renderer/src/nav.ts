/**
 * The navigation registry: every screen of the app, which roles see it, and
 * how it renders. An area adds its screens with ONE line below, importing an
 * array from `areas/<area>/screens.ts`:
 *
 *   export const safetyScreens: ScreenEntry[] = [{
 *     screen: 'safety', label: 'Safety reports', group: 'Safety',
 *     visible: (role) => role !== 250,
 *     component: lazy(() => import('./SafetyReports.tsx')),   // lazy: keeps the first load small
 *   }];
 *
 * `visible` mirrors the API's gates for the menu only; the server stays the authority.
 */
import { type ComponentType, createElement } from 'react';
import { accountScreens } from './areas/account/screens.ts';
import { companyScreens } from './areas/company/screens.ts';
import { newsScreens } from './areas/news/screens.ts';
import { peopleScreens } from './areas/people/screens.ts';
import { reportsScreens } from './areas/reports/screens.ts';
import { safetyScreens } from './areas/safety-reports/screens.ts';
import type { Rejection } from './decisions.ts';
import { Changes } from './screens/Changes.tsx';
import { FleetBoard } from './screens/FleetBoard.tsx';
import { Flights } from './screens/Flights.tsx';
import { Maintenance } from './screens/Maintenance.tsx';
import { TechLog } from './screens/TechLog.tsx';
import { schedulesScreens } from './areas/schedules/screens.ts';
import { trainingsScreens } from './areas/trainings/screens.ts';
import { dutyScreens } from './areas/duty/screens.ts';

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
export const NAV_GROUPS: readonly NavGroup[] = ['Operations', 'Maintenance', 'Training', 'Safety', 'People', 'Office', 'Account', 'Sync'];

export interface ScreenEntry {
  screen: string;
  label: string;
  group: NavGroup;
  visible(role: number): boolean;
  /** Opened by links only (a record's page), not listed in the navigation. */
  hidden?: boolean;
  component: ComponentType<ScreenProps>;
}

const everyone = () => true;

const coreScreens: ScreenEntry[] = [
  { screen: 'fleet', label: 'Fleet', group: 'Maintenance', visible: everyone, component: ({ go }) => createElement(FleetBoard, { onOpen: (id) => go({ screen: 'techlog', id }) }) },
  { screen: 'techlog', label: 'Technical log', group: 'Maintenance', visible: everyone, component: ({ route, go }) => createElement(TechLog, { aircraftId: route.id, onPick: (id) => go({ screen: 'techlog', id }) }) },
  { screen: 'maintenance', label: 'Maintenance', group: 'Maintenance', visible: everyone, component: Maintenance },
  { screen: 'flights', label: 'My flights', group: 'Operations', visible: everyone, component: Flights },
  { screen: 'changes', label: 'Sync & rejections', group: 'Sync', visible: everyone, component: ({ rejected }) => createElement(Changes, { rejected }) },
];

/** Areas: one line each. */
export const SCREENS: ScreenEntry[] = [
  ...coreScreens,
  ...companyScreens,
  ...peopleScreens,
  ...newsScreens,
  ...accountScreens,
  ...reportsScreens,
  ...schedulesScreens,
  ...safetyScreens,
  ...trainingsScreens,
  ...dutyScreens,
];

export const screensFor = (role: number): ScreenEntry[] => SCREENS.filter((s) => s.visible(role));

/** The navigation of a role: its visible, listed screens by group, groups in `NAV_GROUPS` order, empty groups left out. */
export function menuFor(role: number): Array<{ group: NavGroup; screens: ScreenEntry[] }> {
  const mine = screensFor(role).filter((s) => !s.hidden);
  return NAV_GROUPS.map((group) => ({ group, screens: mine.filter((s) => s.group === group) })).filter((g) => g.screens.length > 0);
}
