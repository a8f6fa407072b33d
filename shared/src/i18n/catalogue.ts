/**
 * Every area's messages, one line per area so areas add theirs without conflicts.
 * A message id is `<area>.<key>`.
 */
import { accountsMessages } from './accounts/index.ts';
import { aircraftMessages } from './aircraft/index.ts';
import { billingMessages } from './billing/index.ts';
import { aircraftReportsMessages } from './aircraft-reports/index.ts';
import { documentsMessages } from './documents/index.ts';
import { errorsMessages } from './errors/index.ts';
import { flightsMessages } from './flights/index.ts';
import { formsMessages } from './forms/index.ts';
import { mailMessages } from './mail/index.ts';
import { maintenanceJobsMessages } from './maintenance-jobs/index.ts';
import { notificationsMessages } from './notifications/index.ts';
import { profileMessages } from './profile/index.ts';
import { refusalsMessages } from './refusals/index.ts';
import { schedulesMessages } from './schedules/index.ts';
import { shellMessages } from './shell/index.ts';
import { uploadsMessages } from './uploads/index.ts';
import { companyMessages } from './company/index.ts';
import { usersMessages } from './users/index.ts';
import { basesMessages } from './bases/index.ts';
import { newsMessages } from './news/index.ts';
import { pilotGroupsMessages } from './pilot-groups/index.ts';
import { dutyMessages } from './duty/index.ts';
import { readinessMessages } from './readiness/index.ts';
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
  billing: billingMessages,
  accounts: accountsMessages,
  uploads: uploadsMessages,
  aircraft: aircraftMessages,
  'aircraft-reports': aircraftReportsMessages,
  flights: flightsMessages,
  'maintenance-jobs': maintenanceJobsMessages,
  schedules: schedulesMessages,
  forms: formsMessages,
  company: companyMessages,
  users: usersMessages,
  bases: basesMessages,
  news: newsMessages,
  'pilot-groups': pilotGroupsMessages,
  duty: dutyMessages,
  readiness: readinessMessages,
  'safety-reports': safetyReportsMessages,
  trainings: trainingsMessages,
  reports: reportsMessages,
  pilots: pilotsMessages,
} as const;
