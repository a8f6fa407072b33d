import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Instructors and above manage pilot groups (server/src/areas/pilot-groups). */
export const pilotGroupsScreens: ScreenEntry[] = [
  {
    screen: 'groups',
    label: 'Pilot groups',
    group: 'People',
    visible: (role) => allows(GATES.instructors, role),
    component: lazy(() => import('./PilotGroups.tsx')),
  },
];
