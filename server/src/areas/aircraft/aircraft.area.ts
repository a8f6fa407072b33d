import type { AreaDef } from '../../area.ts';
import { aircraftRoutes } from './aircraft.routes.ts';
import { aircraftRecords } from './aircraft.sync.ts';
import { fleetSeedStep } from './fleet.seed.ts';

/** The aircraft area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const aircraftArea: AreaDef = {
  name: 'aircraft',
  routes: aircraftRoutes,
  collections: [aircraftRecords],
  seed: fleetSeedStep,
};
