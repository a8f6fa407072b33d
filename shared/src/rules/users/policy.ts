import { ALL_ROLES, allows, type PolicyActor, type Role as RoleNumber, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what with accounts (Part A 4.4): user administration, the role an
 * editor may give, and which personal fields a viewer reads. The pilots and
 * pilot-groups areas and the `users` collection ask here too.
 */
export const userGates = {
  /** User administration reads: management, the safety manager and the external auditor (read-only, fields masked). */
  read: roleGate('users.read', {
    roles: [ROLES.PLATFORM_ADMIN, ROLES.COMPANY_ADMIN, ROLES.OPERATIONS_MANAGER, ROLES.SAFETY_MANAGER, ROLES.AUDITOR],
  }),
  /** User administration writes: managers (<= 110, the spec's manager threshold, as for API keys). */
  write: roleGate('users.write', { maxRole: ROLES.SAFETY_MANAGER }),
  /** The platform administrator (role 1): acts above every company role. */
  platform: roleGate('users.platform', { roles: [ROLES.PLATFORM_ADMIN] }),
  /** Viewers at or below 150 read the restricted fields of others (Part A 4.8 item 4). */
  fullView: roleGate('users.full-view', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
};

type Role = Pick<PolicyActor, 'role'>;

export const isPlatformAdmin = (actor: Role): boolean => allows(userGates.platform, actor.role);

/** Edits, deletes, (de)activates an account: never one above the actor's own role (role 1 excepted). */
export const mayChangeAccount = (actor: Role, target: { user_group_id: number }): boolean =>
  isPlatformAdmin(actor) || target.user_group_id >= actor.role;

/** Why an editor may not give this role, or null: never above their own role, role 1 only by role 1. */
export function roleGrantRefusal(actor: Role, role: number): string | null {
  if (isPlatformAdmin(actor)) return null;
  if (role === ROLES.PLATFORM_ADMIN || role < actor.role) return 'You cannot give a role above your own';
  return null;
}

/** Part A 4.4: an external auditor reads the personal fields (AUDITOR_MASKED_FIELDS) of nobody but themself. */
export const mayReadPersonalFields = (viewer: PolicyActor, ownerId: string): boolean =>
  viewer.role !== ROLES.AUDITOR || ownerId === viewer.userId;

/** Part A 4.8 item 4: viewers above 150 lose the restricted fields (RESTRICTED_VIEWER_FIELDS) of others. */
export const mayReadRestrictedFields = (viewer: Role): boolean => allows(userGates.fullView, viewer.role);

/** An account of this role is an external auditor (expiration required, never a pilot). */
export const isAuditorRole = (role: number): boolean => role === ROLES.AUDITOR;

/** An account of this role is a mechanic (not a pilot unless told). */
export const isMechanicRole = (role: number): boolean => role === ROLES.MECHANIC;

/** User administration's default `pilot` flag: not for mechanics nor platform staff above company administrators. */
export const defaultPilotFlag = (role: number): boolean => !(isMechanicRole(role) || role < ROLES.COMPANY_ADMIN);

/** Who has a pilot record (own pilot page, own training): everyone but the auditor and mechanics. */
export const hasPilotRecord = (role: number): boolean => !isAuditorRole(role) && !isMechanicRole(role);

/** The roles a manager may give in the users screen: their own and less privileged ones, never the platform's. */
export const assignableRoles = (mine: number): RoleNumber[] =>
  ALL_ROLES.filter((r) => r >= mine && r !== ROLES.PLATFORM_ADMIN);
