import type { AreaDef } from '../../area.ts';
import { webhookDeliveryJob } from './delivery.jobs.ts';
import { melExpiryJob } from './mel-expiry.jobs.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

/** The webhooks area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const webhooksArea: AreaDef = {
  name: 'webhooks',
  routes: webhooksRoutes,
  jobs: [webhookDeliveryJob, melExpiryJob],
};
