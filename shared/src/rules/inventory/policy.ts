import { ROLES, roleGate } from '../../roles.ts';
import { MAINTENANCE_ROLES } from '../aircraft/policy.ts';

/** Part B 4.1: reads are for any company user; edits for managers and mechanics; deletes for managers. */
export const inventoryGates = {
  edit: roleGate('inventory.edit', { roles: MAINTENANCE_ROLES }),
  delete: roleGate('inventory.delete', { maxRole: ROLES.SAFETY_MANAGER }),
} as const;
