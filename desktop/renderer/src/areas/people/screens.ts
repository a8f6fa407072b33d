import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** The same gates as the API (server/src/areas/users, pilots, pilot-groups, bases, accounts/api-keys). */
const USER_READERS = [1, 100, 105, 110, 250];

export const peopleScreens: ScreenEntry[] = [
  { screen: 'users', label: 'Users', group: 'People', visible: (role) => USER_READERS.includes(role), component: lazy(() => import('./Users.tsx')) },
  { screen: 'pilots', label: 'Pilot directory', group: 'People', visible: (role) => role <= 170 || role === 250, component: lazy(() => import('./Pilots.tsx')) },
  { screen: 'pilot', label: 'Pilot', group: 'People', hidden: true, visible: () => true, component: lazy(() => import('./PilotPage.tsx')) },
  { screen: 'groups', label: 'Pilot groups', group: 'People', visible: (role) => role <= 150, component: lazy(() => import('./PilotGroups.tsx')) },
  { screen: 'bases', label: 'Bases and duty', group: 'People', visible: (role) => role <= 170 || role === 250, component: lazy(() => import('./Bases.tsx')) },
  { screen: 'api-keys', label: 'API keys', group: 'Office', visible: (role) => role <= 110, component: lazy(() => import('./ApiKeys.tsx')) },
];
