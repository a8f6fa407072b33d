import { isStaff } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';

/** The directory for office staff and the auditor (server/src/areas/pilots); a pilot's page opens by link for everyone. */
export const pilotsScreens: ScreenEntry[] = [
  {
    screen: 'pilots',
    label: 'Pilot directory',
    group: 'People',
    visible: (role) => isStaff(role) || isAuditor(role),
    component: lazy(() => import('./Pilots.tsx')),
  },
  {
    screen: 'pilot',
    label: 'Pilot',
    group: 'People',
    hidden: true,
    visible: () => true,
    component: lazy(() => import('./PilotPage.tsx')),
  },
];
