import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Company managers (roles <= 105) own settings, hours and permissions (server: COMPANY_MANAGER_MAX_ROLE). */
const manager = (role: number) => role <= 105;

export const companyScreens: ScreenEntry[] = [
  { screen: 'alerts', label: 'Alerts', group: 'Office', visible: () => true, component: lazy(() => import('./Alerts.tsx')) },
  { screen: 'company', label: 'Company settings', group: 'Office', visible: manager, component: lazy(() => import('./CompanySettings.tsx')) },
  { screen: 'hours', label: 'Operating hours', group: 'Office', visible: manager, component: lazy(() => import('./OperatingHours.tsx')) },
  { screen: 'permissions', label: 'Permissions', group: 'Office', visible: manager, component: lazy(() => import('./Permissions.tsx')) },
];
