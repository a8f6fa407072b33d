import type { AreaDef } from '../../area.ts';
import { melCloseCommand, melExtendCommand, melRaiseCommand } from './aircraft-reports.commands.ts';
import { aircraftReportsRoutes } from './aircraft-reports.routes.ts';
import { aircraftReportRecords } from './aircraft-reports.sync.ts';

/** The aircraft-reports area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const aircraftReportsArea: AreaDef = {
  name: 'aircraft-reports',
  routes: aircraftReportsRoutes,
  collections: [aircraftReportRecords],
  commands: [melRaiseCommand, melExtendCommand, melCloseCommand],
};
