import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** The technical log of one aircraft: defects, MEL and CDL items (offline); the buttons follow the MEL rules. */
export const aircraftReportsScreens: ScreenEntry[] = [
  {
    screen: 'techlog',
    label: 'Technical log',
    group: 'Maintenance',
    visible: () => true,
    component: lazy(() => import('./TechLog.tsx')),
  },
];
