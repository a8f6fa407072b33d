import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Maintenance jobs (offline): everyone reads; the writers' roles are the shared rule's. */
export const maintenanceJobsScreens: ScreenEntry[] = [
  {
    screen: 'maintenance',
    label: 'Maintenance',
    group: 'Maintenance',
    visible: () => true,
    component: lazy(() => import('./Maintenance.tsx')),
  },
];
