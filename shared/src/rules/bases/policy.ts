import { ALL_ROLES, allows, isStaff, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

export const baseGates = {
  /** Add, edit, delete bases and set the default one: managers (<= 110, as for API keys). */
  manage: roleGate('bases.manage', { maxRole: ROLES.SAFETY_MANAGER }),
  /** Everyone but the read-only external auditor keeps a duty schedule. */
  dutyWrite: roleGate('bases.duty-write', { roles: ALL_ROLES.filter((r) => r !== ROLES.AUDITOR) }),
} as const;

/** The `base.set_default` command decides with the route's gate. */
export const maySetDefaultBase = (actor: Pick<PolicyActor, 'role'>): boolean => allows(baseGates.manage, actor.role);

/** Duty entries: staff (<= 170) manage anyone's, everyone else only their own. */
export const mayManageDutyOf = (actor: PolicyActor, userId: string): boolean =>
  isStaff(actor.role) || userId === actor.userId;

/** Past entries are duty history: only staff change them. */
export const mayChangeDutyEntry = (
  actor: PolicyActor,
  entry: { end_at: number | string | null },
  now: number,
): boolean => isStaff(actor.role) || entry.end_at === null || Number(entry.end_at) > now;
