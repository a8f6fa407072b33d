import { isStaff } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { isAuditorRole as isAuditor } from '@ops/shared/rules/users/policy';

/** Bases, crew and duty for office staff and the auditor (server/src/areas/bases). */
export const basesScreens: ScreenEntry[] = [
  {
    screen: 'bases',
    label: 'Bases and duty',
    group: 'People',
    visible: (role) => isStaff(role) || isAuditor(role),
    component: lazy(() => import('./Bases.tsx')),
  },
];
