import { ALL_ROLES, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

export const certificateGates = {
  /** Everyone but the read-only external auditor keeps certificates. */
  write: roleGate('certificates.write', { roles: ALL_ROLES.filter((r) => r !== ROLES.AUDITOR) }),
} as const;

/** Instructors and above (<= 150) see and change anyone's certificates; everyone else only their own. */
export const mayManageCertificatesOf = (actor: PolicyActor, userId: string): boolean =>
  userId === actor.userId || actor.role <= ROLES.FLIGHT_INSTRUCTOR;
