import { aircraftCollection } from './aircraft.ts';
import { aircraftReportsCollection } from './aircraft-reports.ts';
import { inventoryCollection } from './inventory.ts';
import { maintenanceJobsCollection } from './maintenance-jobs.ts';
import { commandsCollection } from './commands.ts';
import { outcomesCollection } from './outcomes.ts';
import { referenceCollection } from './reference.ts';
import type { CollectionDef } from './types.ts';
import { usersCollection } from './users.ts';
import { flightsCollection } from './flights.ts';
import { notificationsCollection } from './notifications.ts';
import { newsCollection } from './news.ts';
import { personalCollection } from './personal.ts';
import { safetyCollection } from './safety.ts';

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
export * from './safety.ts';

/**
 * Every replicated collection, in one list the server and clients share. Keep
 * it at 13 or fewer: free RxDB opens about 13 collections per context.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of definitions
export const COLLECTIONS: CollectionDef<any>[] = [referenceCollection, usersCollection, aircraftCollection, commandsCollection, outcomesCollection, aircraftReportsCollection, maintenanceJobsCollection, inventoryCollection, flightsCollection, notificationsCollection, newsCollection, personalCollection, safetyCollection];
export const MAX_COLLECTIONS = 13;
