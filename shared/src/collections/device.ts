import { areaCollection } from './area.ts';
import { commandsCollection } from './commands.ts';
import { outcomesCollection } from './outcomes.ts';

/**
 * This device's conversation with the server, own scope: queued and decided
 * commands (`command`) and the server's outcomes of refused pushes (`outcome`).
 */
export const DEVICE_TYPES = { command: 'command', outcome: 'outcome' } as const;

export const deviceCollection = areaCollection({
  name: 'device',
  version: 0,
  parts: [
    { types: [DEVICE_TYPES.command], def: commandsCollection },
    { types: [DEVICE_TYPES.outcome], def: outcomesCollection },
  ],
});
