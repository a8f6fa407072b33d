import type { AreaDef } from '../area.ts';
import { deviceCommandRecords, deviceOutcomeRecords } from './device.ts';
import { tombstonePurgeJob } from './retention.ts';
import { syncRoutes } from './sync.routes.ts';

/** The sync kernel's own contribution: its routes, the `device` collection and the tombstone purge. */
export const syncArea: AreaDef = {
  name: 'sync',
  routes: syncRoutes,
  collections: [deviceCommandRecords, deviceOutcomeRecords],
  jobs: [tombstonePurgeJob],
};
