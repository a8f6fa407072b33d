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
import { companyMessages } from './company/index.ts';
import { usersMessages } from './users/index.ts';
import { basesMessages } from './bases/index.ts';
import { newsMessages } from './news/index.ts';
import { pilotGroupsMessages } from './pilot-groups/index.ts';
import { dutyMessages } from './duty/index.ts';
import { readinessMessages } from './readiness/index.ts';

export const AREA_MESSAGES = {
  errors: errorsMessages,
  mail: mailMessages,
  documents: documentsMessages,
  notifications: notificationsMessages,
  shell: shellMessages,
  refusals: refusalsMessages,
  profile: profileMessages,
  company: companyMessages,
  users: usersMessages,
  bases: basesMessages,
  news: newsMessages,
  'pilot-groups': pilotGroupsMessages,
  duty: dutyMessages,
  readiness: readinessMessages,
} as const;
