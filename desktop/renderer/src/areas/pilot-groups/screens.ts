import { allows } from '@ops/shared';
import { pilotGroupGates } from '@ops/shared/rules/pilot-groups/policy';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Instructors and above manage pilot groups: the routes' own gate (server/src/areas/pilot-groups). */
export const pilotGroupsScreens: ScreenEntry[] = [
  {
    screen: 'groups',
    label: 'Pilot groups',
    group: 'People',
    visible: (role) => allows(pilotGroupGates.manage, role),
    component: lazy(() => import('./PilotGroups.tsx')),
  },
];
