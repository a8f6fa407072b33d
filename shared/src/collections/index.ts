import { aircraftCollection } from './aircraft.ts';
import { commandsCollection } from './commands.ts';
import { outcomesCollection } from './outcomes.ts';
import { referenceCollection } from './reference.ts';
import type { CollectionDef } from './types.ts';
import { usersCollection } from './users.ts';

export * from './types.ts';
export * from './reference.ts';
export * from './users.ts';
export * from './aircraft.ts';
export * from './commands.ts';
export * from './outcomes.ts';

/**
 * Every replicated collection, in one list the server and clients share. Keep
 * it at 13 or fewer: free RxDB opens about 13 collections per context.
 */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of definitions
export const COLLECTIONS: CollectionDef<any>[] = [referenceCollection, usersCollection, aircraftCollection, commandsCollection, outcomesCollection];
export const MAX_COLLECTIONS = 13;
