import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Every role has a logbook (its own figures); staff (<= 170) also pick another pilot. */
export const reportsScreens: ScreenEntry[] = [{ screen: 'logbook', label: 'My logbook', group: 'Operations', visible: () => true, component: lazy(() => import('./Logbook.tsx')) }];
