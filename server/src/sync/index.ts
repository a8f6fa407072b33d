import './tables.ts';
import './device.ts';

/**
 * The sync kernel: the protocol only (pull, push, stream, commands,
 * checkpoints, change bus, tombstone retention). Areas register their
 * collections and record types from `server/src/areas/<area>/<area>.sync.ts`
 * (imported for their side effect from `server/src/areas/index.ts`); nothing
 * here imports an area.
 */
export { registerCollection, registerRecordType, registerTombstones } from './registry.ts';
export { registerCommand, CommandRejected } from './commands.ts';
