import type { AreaDef } from '../../area.ts';
import { peopleSeedStep } from './people.seed.ts';
import { pilotsRoutes } from './pilots.routes.ts';

/** The pilots area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const pilotsArea: AreaDef = {
  name: 'pilots',
  routes: pilotsRoutes,
  seed: peopleSeedStep,
};
