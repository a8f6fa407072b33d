import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';

/** The same gate as the API (server/src/areas/users): managers, and the auditor who reads. */
export const usersScreens: ScreenEntry[] = [
  {
    screen: 'users',
    label: 'Users',
    group: 'People',
    visible: (role) => allows(GATES.managers, role) || isAuditor(role),
    component: lazy(() => import('./Users.tsx')),
  },
];
