import type { AreaDef } from '../../area.ts';
import { flightTypesRoutes } from './flight-types.routes.ts';
import { flightTypesSeedStep } from './flight-types.seed.ts';

/** The flight-types area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const flightTypesArea: AreaDef = {
  name: 'flight-types',
  routes: flightTypesRoutes,
  seed: flightTypesSeedStep,
};
