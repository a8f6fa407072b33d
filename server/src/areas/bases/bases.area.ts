import type { AreaDef } from '../../area.ts';
import { setDefaultBaseCommand } from './bases.commands.ts';
import { basesRoutes } from './bases.routes.ts';
import { basesReference, dutyEntryRecords } from './bases.sync.ts';

/** The bases area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const basesArea: AreaDef = {
  name: 'bases',
  routes: basesRoutes,
  collections: [dutyEntryRecords, basesReference],
  tombstones: ['base_schedules'],
  commands: [setDefaultBaseCommand],
};
