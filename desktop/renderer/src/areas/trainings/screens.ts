import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/**
 * Trainings offline: a student's own training (anyone may be enrolled), the
 * managers' overview (roles <= 135) and the class screen of teachers (instructors
 * up to 150; ground and flight instructors teach classes).
 */
export const trainingsScreens: ScreenEntry[] = [
  { screen: 'my-training', label: 'My training', group: 'Training', visible: (role) => role !== 250 && role !== 300, component: lazy(() => import('./MyTraining.tsx')) },
  { screen: 'training-today', label: 'Classes today', group: 'Training', visible: (role) => role <= 150, component: lazy(() => import('./TrainingToday.tsx')) },
  { screen: 'training-overview', label: 'Training overview', group: 'Training', visible: (role) => role <= 135, component: lazy(() => import('./TrainingOverview.tsx')) },
];
