import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Company management (server: the management gate) owns settings, hours and permissions. */
const manager = (role: number) => allows(GATES.management, role);

export const companyScreens: ScreenEntry[] = [
  {
    screen: 'alerts',
    label: 'Alerts',
    group: 'Office',
    visible: () => true,
    component: lazy(() => import('./Alerts.tsx')),
  },
  {
    screen: 'company',
    label: 'Company settings',
    group: 'Office',
    visible: manager,
    component: lazy(() => import('./CompanySettings.tsx')),
  },
  {
    screen: 'hours',
    label: 'Operating hours',
    group: 'Office',
    visible: manager,
    component: lazy(() => import('./OperatingHours.tsx')),
  },
  {
    screen: 'permissions',
    label: 'Permissions',
    group: 'Office',
    visible: manager,
    component: lazy(() => import('./Permissions.tsx')),
  },
];
