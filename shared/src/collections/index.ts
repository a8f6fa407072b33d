import { referenceCollection } from './reference.ts';
import type { CollectionDef } from './types.ts';
import { flightsCollection } from './flights.ts';
import { fleetCollection } from './fleet.ts';
import { peopleCollection } from './people.ts';
import { inboxCollection } from './inbox.ts';
import { deviceCollection } from './device.ts';
import { bookingsCollection } from './schedules.ts';
import { safetyCollection } from './safety.ts';
import { filesCollection } from './files.ts';
import { trainingCollection } from './training.ts';

export * from './types.ts';
export * from './reference.ts';
export * from './users.ts';
export * from './aircraft.ts';
export * from './commands.ts';
export * from './outcomes.ts';
export * from './aircraft-reports.ts';
export * from './maintenance-jobs.ts';
export * from './inventory.ts';
export * from './flights.ts';
export * from './notifications.ts';
export * from './news.ts';
export * from './personal.ts';
export * from './area.ts';
export * from './fleet.ts';
export * from './people.ts';
export * from './inbox.ts';
export * from './device.ts';
export * from './legacy.ts';
export * from './schedules.ts';
export * from './safety.ts';
export * from './files.ts';
export * from './training.ts';
export * from './windows.ts';

/**
 * Every replicated collection, in one list the server and clients share: one
 * collection per area, record types told apart by `type` (docs/sync.md has the
 * budget table). Free RxDB opens at most 16 collections per JavaScript context;
 * keep this at MAX_COLLECTIONS or fewer (a test fails beyond it). Areas add
 * theirs at the end, one line each.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of definitions
export const COLLECTIONS: CollectionDef<any>[] = [
  referenceCollection,
  peopleCollection,
  fleetCollection,
  flightsCollection,
  inboxCollection,
  deviceCollection,
  bookingsCollection,
  safetyCollection,
  filesCollection,
  trainingCollection,
];
export const MAX_COLLECTIONS = 13;
