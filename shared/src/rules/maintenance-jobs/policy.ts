import { allows, type PolicyActor, roleGate } from '../../roles.ts';
import { MAINTENANCE_ROLES } from '../aircraft/policy.ts';

/** Who writes maintenance jobs and work orders: managers and mechanics (Part B 4.3). */
export const MAINTENANCE_JOB_WRITERS = MAINTENANCE_ROLES;

export const maintenanceJobGates = {
  /** Create, edit, delete jobs, link reports, sign the CRS, edit work orders. */
  write: roleGate('maintenance-jobs.write', { roles: MAINTENANCE_JOB_WRITERS }),
} as const;

/** REST writes and the device's push of the `fleet` collection's jobs ask the same rule. */
export const mayWriteMaintenanceJobs = (actor: Pick<PolicyActor, 'role'>): boolean =>
  allows(maintenanceJobGates.write, actor.role);
