import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** API keys for managers (server/src/areas/accounts/api-keys). */
export const accountsScreens: ScreenEntry[] = [
  {
    screen: 'api-keys',
    label: 'API keys',
    group: 'Office',
    visible: (role) => allows(GATES.managers, role),
    component: lazy(() => import('./ApiKeys.tsx')),
  },
];
