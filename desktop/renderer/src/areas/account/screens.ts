import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

export const accountScreens: ScreenEntry[] = [
  { screen: 'account', label: 'My account', group: 'Account', visible: () => true, component: lazy(() => import('./Account.tsx')) },
  { screen: 'me', label: 'My pilot page', group: 'Account', visible: (role) => role !== 300 && role !== 250, component: lazy(() => import('../people/PilotPage.tsx')) },
];
