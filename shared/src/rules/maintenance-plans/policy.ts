import { roleGate } from '../../roles.ts';
import { MAINTENANCE_ROLES } from '../aircraft/policy.ts';

export const maintenancePlanGates = {
  /** Edit, delete and reorder maintenance plans: managers and mechanics (Part B 5). */
  edit: roleGate('maintenance-plans.edit', { roles: MAINTENANCE_ROLES }),
} as const;
