/**
 * Every area's messages, one line per area so areas add theirs without conflicts.
 * A message id is `<area>.<key>`.
 */
import { documentsMessages } from './documents/index.ts';
import { errorsMessages } from './errors/index.ts';
import { mailMessages } from './mail/index.ts';
import { notificationsMessages } from './notifications/index.ts';
import { profileMessages } from './profile/index.ts';
import { refusalsMessages } from './refusals/index.ts';
import { shellMessages } from './shell/index.ts';
import { safetyReportsMessages } from './safety-reports/index.ts';
import { trainingsMessages } from './trainings/index.ts';
import { reportsMessages } from './reports/index.ts';
import { pilotsMessages } from './pilots/index.ts';

export const AREA_MESSAGES = {
  errors: errorsMessages,
  mail: mailMessages,
  documents: documentsMessages,
  notifications: notificationsMessages,
  shell: shellMessages,
  refusals: refusalsMessages,
  profile: profileMessages,
  'safety-reports': safetyReportsMessages,
  trainings: trainingsMessages,
  reports: reportsMessages,
  pilots: pilotsMessages,
} as const;
