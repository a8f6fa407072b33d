import { allows, GATES } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { hasPilotRecord } from '@ops/shared/rules/users/policy';

/**
 * Trainings offline: a student's own training (anyone with a pilot record may be
 * enrolled), the class screen of teachers (instructors; ground and flight instructors
 * teach classes) and the training staff's overview.
 */
export const trainingsScreens: ScreenEntry[] = [
  {
    screen: 'my-training',
    label: 'My training',
    group: 'Training',
    visible: hasPilotRecord,
    component: lazy(() => import('./MyTraining.tsx')),
  },
  {
    screen: 'training-today',
    label: 'Classes today',
    group: 'Training',
    visible: (role) => allows(GATES.instructors, role),
    component: lazy(() => import('./TrainingToday.tsx')),
  },
  {
    screen: 'training-overview',
    label: 'Training overview',
    group: 'Training',
    visible: (role) => allows(GATES.trainingStaff, role),
    component: lazy(() => import('./TrainingOverview.tsx')),
  },
];
