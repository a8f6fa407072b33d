import type { AreaDef } from '../../area.ts';
import { classUploadModels } from './classes/justifications.service.ts';
import { trainingsRoutes } from './trainings.routes.ts';
import { trainingsSeedStep } from './trainings.seed.ts';
import { trainingRecordTypes } from './trainings.sync.ts';

/** The trainings area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const trainingsArea: AreaDef = {
  name: 'trainings',
  routes: trainingsRoutes,
  collections: trainingRecordTypes,
  uploadModels: classUploadModels,
  seed: trainingsSeedStep,
};
