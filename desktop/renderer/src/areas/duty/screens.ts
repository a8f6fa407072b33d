import { mayViewBoard } from '@ops/shared/rules/duty/policy';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Duty (issue 30): everyone sees their own duty (offline); the office sees the crew board. */
export const dutyScreens: ScreenEntry[] = [
  {
    screen: 'my-duty',
    label: 'My duty',
    group: 'Operations',
    visible: () => true,
    component: lazy(() => import('./MyDuty.tsx')),
  },
  {
    screen: 'crew-duty',
    label: 'Crew duty',
    group: 'Operations',
    visible: (role) => mayViewBoard({ userId: '', role }),
    component: lazy(() => import('./CrewDuty.tsx')),
  },
];
