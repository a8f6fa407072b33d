import type { AreaDef } from '../../area.ts';
import { readinessRoutes } from './readiness.routes.ts';
import { readinessSeedStep } from './readiness.seed.ts';
import { readinessReference } from './readiness.sync.ts';

/** The readiness area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const readinessArea: AreaDef = {
  name: 'readiness',
  routes: readinessRoutes,
  collections: [readinessReference],
  seed: readinessSeedStep,
};
