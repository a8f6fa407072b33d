import type { AreaDef } from '../../area.ts';
import { billingMailJob } from './billing.jobs.ts';
import { billingRoutes } from './billing.routes.ts';
import { billingSeedStep } from './billing.seed.ts';
import { billingAccountRecords } from './billing.sync.ts';
import { paymentsRoutes } from './payments.routes.ts';

/** The billing area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const billingArea: AreaDef = {
  name: 'billing',
  routes: [...billingRoutes, ...paymentsRoutes],
  collections: [billingAccountRecords],
  jobs: [billingMailJob],
  seed: billingSeedStep,
};
