import { ROLES, roleGate } from '../../roles.ts';

/** Who may manage pilot groups (Part A 4.7); bulk (de)activation also asks `mayChangeAccount` of rules/users/policy.ts per member. */
export const pilotGroupGates = {
  /** Every pilot-group endpoint is for roles <= 150. */
  manage: roleGate('pilot-groups.manage', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
};
