import type { AreaDef } from '../../area.ts';
import { dutyAlertSource } from './duty.alerts.ts';
import { dutyRoutes } from './duty.routes.ts';
import { dutySeedStep } from './duty.seed.ts';

/** The duty area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const dutyArea: AreaDef = {
  name: 'duty',
  routes: dutyRoutes,
  alerts: [dutyAlertSource],
  seed: dutySeedStep,
};
