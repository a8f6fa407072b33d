import type { AreaDef } from '../../area.ts';
import { flightConfirmCommand, flightDispatchCommand } from './flights.commands.ts';
import { flightsRoutes } from './flights.routes.ts';
import { flightsSeedStep } from './flights.seed.ts';
import { flightsServerCollection, flightsReference } from './flights.sync.ts';

/** The flights area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const flightsArea: AreaDef = {
  name: 'flights',
  routes: flightsRoutes,
  collections: [flightsServerCollection, flightsReference],
  commands: [flightConfirmCommand, flightDispatchCommand],
  seed: flightsSeedStep,
};
