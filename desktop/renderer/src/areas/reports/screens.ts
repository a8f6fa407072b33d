import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Every role has a logbook (its own figures); office staff (who may scope reports by aircraft) see the company's statistics. */
export const reportsScreens: ScreenEntry[] = [
  {
    screen: 'logbook',
    label: 'My logbook',
    group: 'Operations',
    visible: () => true,
    component: lazy(() => import('./Logbook.tsx')),
  },
  {
    screen: 'company-stats',
    label: 'Company statistics',
    group: 'Office',
    visible: (role) => allows(GATES.staff, role),
    component: lazy(() => import('./CompanyStats.tsx')),
  },
];
