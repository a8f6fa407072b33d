import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { hasPilotRecord } from '@ops/shared/rules/users/policy';

/** One's own account, and one's own pilot page (the pilots area's page, opened on oneself). */
export const profileScreens: ScreenEntry[] = [
  {
    screen: 'account',
    label: 'My account',
    group: 'Account',
    visible: () => true,
    component: lazy(() => import('./Account.tsx')),
  },
  {
    screen: 'me',
    label: 'My pilot page',
    group: 'Account',
    visible: hasPilotRecord,
    component: lazy(() => import('../pilots/PilotPage.tsx')),
  },
];
