import type { AreaDef } from '../../area.ts';
import { newsRoutes } from './news.routes.ts';
import { newsSeedStep } from './news.seed.ts';
import { newsRecords } from './news.sync.ts';

/** The news area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const newsArea: AreaDef = {
  name: 'news',
  routes: newsRoutes,
  collections: [newsRecords],
  seed: newsSeedStep,
};
