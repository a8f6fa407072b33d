import './tables.ts';

/**
 * The sync kernel: the protocol only (pull, push, stream, commands,
 * checkpoints, change bus, tombstone retention). Areas define their
 * collections and record types in `server/src/areas/<area>/<area>.sync.ts`
 * and list them in their manifest (`<area>.area.ts`); `registerAreas()` in
 * `server/src/areas/index.ts` registers them once. Nothing here imports an area.
 */
export {
  defineCollection,
  recordType,
  registerCollection,
  registerRecordType,
  registerTombstones,
} from './registry.ts';
export { defineCommand, registerCommand, CommandRejected } from './commands.ts';
