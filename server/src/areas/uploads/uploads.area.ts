import type { AreaDef } from '../../area.ts';
import { liveRecordModels } from './attachments.service.ts';
import { aircraftUploadAlertSource } from './uploads.alerts.ts';
import { uploadCleanupJob } from './uploads.jobs.ts';
import { uploadsRoutes } from './uploads.routes.ts';
import { uploadRecords } from './uploads.sync.ts';

/** The uploads area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const uploadsArea: AreaDef = {
  name: 'uploads',
  routes: uploadsRoutes,
  collections: [uploadRecords],
  jobs: [uploadCleanupJob],
  alerts: [aircraftUploadAlertSource],
  uploadModels: liveRecordModels,
};
