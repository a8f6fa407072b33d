import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Scheduling: the board and the "book a lesson" flow; everyone but the auditor and mechanics books or sees bookings. */
export const schedulesScreens: ScreenEntry[] = [
  {
    screen: 'schedule',
    label: 'Schedule',
    group: 'Operations',
    visible: () => true,
    component: lazy(() => import('./Schedules.tsx')),
  },
];
