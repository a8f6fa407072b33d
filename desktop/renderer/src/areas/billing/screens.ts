import { allows } from '@ops/shared';
import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';
import { billingGates } from '@ops/shared/rules/billing/policy';

/** Billing (CONTRACT 6): one's own account for everyone; every account and the rates for the office (the API's gates). */
export const billingScreens: ScreenEntry[] = [
  {
    screen: 'my-billing',
    label: 'My billing',
    group: 'Account',
    visible: (role) => allows(billingGates.own, role),
    component: lazy(() => import('./MyAccount.tsx')),
  },
  {
    screen: 'billing-accounts',
    label: 'Accounts',
    group: 'Office',
    visible: (role) => allows(billingGates.office, role),
    component: lazy(() => import('./Accounts.tsx')),
  },
  {
    screen: 'billing-rates',
    label: 'Rates',
    group: 'Office',
    visible: (role) => allows(billingGates.office, role),
    component: lazy(() => import('./Rates.tsx')),
  },
];
