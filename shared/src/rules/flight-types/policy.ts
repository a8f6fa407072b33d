import { isStaff, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

export const flightTypeGates = {
  /** Add, edit, delete and reorder flight types: managers (<= 110). */
  manage: roleGate('flight-types.manage', { maxRole: ROLES.SAFETY_MANAGER }),
} as const;

/** Part B 4.5 compliance: staff (<= 170) check anyone, others only themselves. */
export const mayCheckComplianceOf = (actor: PolicyActor, userId: string): boolean =>
  userId === actor.userId || isStaff(actor.role);
