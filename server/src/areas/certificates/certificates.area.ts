import type { AreaDef } from '../../area.ts';
import { certificatesRoutes } from './certificates.routes.ts';
import { certificateRecords } from './certificates.sync.ts';

/** The certificates area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const certificatesArea: AreaDef = {
  name: 'certificates',
  routes: certificatesRoutes,
  collections: [certificateRecords],
  tombstones: ['user_certificates'],
};
