import { seesAllFlights } from '@ops/shared/rules/flights/policy';
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
  {
    // The office's list of every company flight: the roles the policy lets see them all.
    screen: 'company-flights',
    label: 'Company flights',
    group: 'Operations',
    visible: (role) => seesAllFlights({ role }),
    component: lazy(() => import('./FlightList.tsx')),
  },
];
