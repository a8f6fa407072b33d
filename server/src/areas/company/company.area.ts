import type { AreaDef } from '../../area.ts';
import { aircraftAlertSource, maintenanceAlertSource } from './alerts/fleet.alerts.ts';
import { userCertificateAlerts } from './alerts/user-certificates.alerts.ts';
import { companyRoutes } from './company.routes.ts';
import { companySeedStep } from './company.seed.ts';
import { companyReference } from './company.sync.ts';

/** The company area's manifest: what it registers (server/src/areas/index.ts lists it). */
export const companyArea: AreaDef = {
  name: 'company',
  routes: companyRoutes,
  collections: [companyReference],
  alerts: [userCertificateAlerts, aircraftAlertSource, maintenanceAlertSource],
  seed: companySeedStep,
};
