import type { AreaDef } from '../../area.ts';
import { scheduleBookCommand, scheduleCancelCommand } from './schedules.commands.ts';
import { schedulesRoutes } from './schedules.routes.ts';
import { schedulesSeedStep } from './schedules.seed.ts';
import { bookingsServerCollection } from './schedules.sync.ts';

/** The schedules area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const schedulesArea: AreaDef = {
  name: 'schedules',
  routes: schedulesRoutes,
  collections: [bookingsServerCollection],
  commands: [scheduleBookCommand, scheduleCancelCommand],
  seed: schedulesSeedStep,
};
