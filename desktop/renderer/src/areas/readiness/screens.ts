import { mayManageReadiness } from '@ops/shared/rules/readiness/policy';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Readiness (issue 31): the company policy per check, for managers (the panels live on the booking form and flights). */
export const readinessScreens: ScreenEntry[] = [
  {
    screen: 'readiness-settings',
    label: 'Readiness',
    group: 'Office',
    visible: (role) => mayManageReadiness({ role }),
    component: lazy(() => import('./ReadinessSettings.tsx')),
  },
];
