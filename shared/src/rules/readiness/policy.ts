/** Who may read readiness and who sets the company's readiness policy (issue 31). */
import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

export const readinessGates = {
  /** Anyone signed in may ask about a flight or a booking they could see or make. */
  read: roleGate('readiness.read', {}),
  /** Company managers (<= 105) choose ignore / warn / block per check, as for the other company settings. */
  manage: roleGate('readiness.manage', { maxRole: ROLES.OPERATIONS_MANAGER }),
} as const;

/** The settings screen and its save button. */
export const mayManageReadiness = (actor: Pick<PolicyActor, 'role'>): boolean =>
  allows(readinessGates.manage, actor.role);

/** Student minimums apply to a pilot of the student role. */
export const isStudentPilot = (role: number | null | undefined): boolean => role === ROLES.STUDENT;
