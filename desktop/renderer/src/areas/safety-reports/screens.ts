import { SAFETY_PLANS } from '@ops/shared/rules/safety-reports/policy';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Everyone files reports (offline too); the list shows what the API's access table lets each role see. */
export const safetyScreens: ScreenEntry[] = [
  {
    screen: 'safety',
    label: 'Safety reports',
    group: 'Safety',
    visible: () => true,
    plans: SAFETY_PLANS,
    component: lazy(() => import('./SafetyReports.tsx')),
  },
];
