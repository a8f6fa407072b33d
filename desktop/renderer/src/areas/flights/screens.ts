import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** One's own flights (offline): create, dispatch, close; the dispatch rules are the shared ones. */
export const flightsScreens: ScreenEntry[] = [
  {
    screen: 'flights',
    label: 'My flights',
    group: 'Operations',
    visible: () => true,
    component: lazy(() => import('./Flights.tsx')),
  },
];
