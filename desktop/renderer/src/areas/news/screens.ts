import { lazy } from 'react';
import type { ScreenEntry } from '../../nav.ts';

/** Everyone reads news (and signs what needs a signature); roles <= 135 also write and see receipts. */
export const newsScreens: ScreenEntry[] = [
  { screen: 'news', label: 'News', group: 'Office', visible: () => true, component: lazy(() => import('./News.tsx')) },
];
