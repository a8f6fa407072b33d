import { lazy } from 'react';
import { REPORTS_STAFF_MAX_ROLE } from '@ops/shared/rules/reports/scope';
import type { ScreenEntry } from '../../nav.ts';

/** Every role has a logbook (its own figures); office staff (<= 170, who may scope reports by aircraft) see the company's statistics. */
export const reportsScreens: ScreenEntry[] = [
  { screen: 'logbook', label: 'My logbook', group: 'Operations', visible: () => true, component: lazy(() => import('./Logbook.tsx')) },
  { screen: 'company-stats', label: 'Company statistics', group: 'Office', visible: (role) => role <= REPORTS_STAFF_MAX_ROLE, component: lazy(() => import('./CompanyStats.tsx')) },
];
