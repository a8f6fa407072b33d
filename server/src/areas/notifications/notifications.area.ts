import type { AreaDef } from '../../area.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { notificationRecords } from './notifications.sync.ts';

/** The notifications area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const notificationsArea: AreaDef = {
  name: 'notifications',
  routes: notificationsRoutes,
  collections: [notificationRecords],
  tombstones: ['notifications'],
};
