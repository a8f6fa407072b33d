import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** The fleet board: every role sees the aircraft and what blocks them (offline). */
export const aircraftScreens: ScreenEntry[] = [
  {
    screen: 'fleet',
    label: 'Fleet',
    group: 'Maintenance',
    visible: () => true,
    component: lazy(() => import('./FleetBoard.tsx')),
  },
];
