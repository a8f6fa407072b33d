import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';
import { isPlatformAdmin } from '../users/policy.ts';

/**
 * Who may do what with pilots (Part A 4.7, 4.8): the directory, pilot records,
 * their history and the currency requirements. Account-level rules (role above
 * one's own, personal fields) are in `rules/users/policy.ts`.
 */
export const pilotGates = {
  /** Part A 4.8 items 3 and 5: who creates and edits pilots (and sends their reminders). */
  admin: roleGate('pilots.admin', {
    roles: [
      ROLES.PLATFORM_ADMIN,
      ROLES.COMPANY_ADMIN,
      ROLES.OPERATIONS_MANAGER,
      ROLES.SAFETY_MANAGER,
      ROLES.HEAD_OF_TRAINING,
      ROLES.FLIGHT_INSTRUCTOR,
    ],
  }),
  /** Directory viewers at or below 170 get every row in full form; above it, the reduced view of staff rows only (Part A 4.8 item 2). */
  directory: roleGate('pilots.directory', { maxRole: ROLES.DISPATCHER }),
  /** Viewers at or below 150 see the full pilot record (notes, balances, roles, history) of others. */
  fullView: roleGate('pilots.full-view', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
  /** Editors at or below 120 give roles below 150 through pilot editing. */
  promote: roleGate('pilots.promote', { maxRole: ROLES.HEAD_OF_TRAINING }),
  /** Managers (<= 110) set the company's currency requirements. */
  currency: roleGate('pilots.currency', { maxRole: ROLES.SAFETY_MANAGER }),
};

type Role = Pick<PolicyActor, 'role'>;

/** The role a new pilot gets when none is given. */
export const DEFAULT_PILOT_ROLE = ROLES.PILOT;
/** Pilot creation never makes staff above flight instructor; user administration does. */
export const LOWEST_PILOT_ROLE = ROLES.FLIGHT_INSTRUCTOR;

/** Reads every directory row in full (otherwise the reduced view of staff rows). */
export const mayReadFullDirectory = (actor: Role): boolean => allows(pilotGates.directory, actor.role);

/** Sees others' full pilot record (notes, balances, roles) and may set `User.created`. */
export const mayViewPilotInFull = (actor: Role): boolean => allows(pilotGates.fullView, actor.role);

/** Reads an account's change history: their own, or anyone's for roles <= 150. */
export const maySeeAccountHistory = (actor: PolicyActor, target: { id: string }): boolean =>
  target.id === actor.userId || mayViewPilotInFull(actor);

/** Why pilot creation may not give this role, or null. */
export const pilotCreationRoleRefusal = (role: number): string | null =>
  role < LOWEST_PILOT_ROLE
    ? `Pilots get role ${LOWEST_PILOT_ROLE} or above; staff roles are given in user administration`
    : null;

/** Role rules of POST /pilots/edit.json (Part A 4.8 item 5): why this editor may not give `role` to `target`, or null. */
export function pilotRoleChangeRefusal(
  actor: PolicyActor,
  target: { id: string; user_group_id: number },
  role: number,
): string | null {
  if (target.id === actor.userId && target.user_group_id <= ROLES.COMPANY_ADMIN && role > ROLES.COMPANY_ADMIN) {
    return `You cannot demote yourself away from role ${ROLES.COMPANY_ADMIN} or below`;
  }
  const promoter = pilotGates.promote.maxRole;
  if (role < LOWEST_PILOT_ROLE && !allows(pilotGates.promote, actor.role))
    return `Only editors with role ${promoter} or below give roles below ${LOWEST_PILOT_ROLE}`;
  if (!isPlatformAdmin(actor) && (role === ROLES.PLATFORM_ADMIN || role < actor.role))
    return 'You cannot give a role above your own';
  return null;
}
