import type { AreaDef } from '../../area.ts';
import { SAFETY_REPORT_MODEL, safetyReportUploadModel } from './safety-reports.repository.ts';
import { safetyReportsRoutes } from './safety-reports.routes.ts';
import { safetyReportsSeedStep } from './safety-reports.seed.ts';
import { safetyServerCollection, safetyFileCommand, safetySubmitCommand } from './safety-reports.sync.ts';

/** The safety-reports area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const safetyReportsArea: AreaDef = {
  name: 'safety-reports',
  routes: safetyReportsRoutes,
  collections: [safetyServerCollection],
  commands: [safetyFileCommand, safetySubmitCommand],
  uploadModels: { [SAFETY_REPORT_MODEL]: safetyReportUploadModel },
  seed: safetyReportsSeedStep,
};
