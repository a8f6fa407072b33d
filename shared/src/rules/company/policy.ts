import { isRole, type PolicyActor, ROLES, roleGate, allows } from '../../roles.ts';

/** Who may do what with the company's settings, permissions and alerts (Part A 4.2). */
export const companyGates = {
  /** Company managers (<= 105: platform administrator, company administrator, operations manager): settings, operating hours, the permission matrix. */
  manage: roleGate('company.manage', { maxRole: ROLES.OPERATIONS_MANAGER }),
  /** Changing the permission matrix is for company administrators (<= 100). */
  permissions: roleGate('company.permissions', { maxRole: ROLES.COMPANY_ADMIN }),
  /** Alert managers (Part A 4.2 item 6: `user_group_id` < 150) see every alert of the company and may name any user. */
  alerts: roleGate('company.alerts', { maxRole: ROLES.GROUND_INSTRUCTOR }),
  /** The platform administrator always holds every permission. */
  platform: roleGate('company.platform', { roles: [ROLES.PLATFORM_ADMIN] }),
};

/** Sees every alert of the company; others see their own and their students'. */
export const maySeeAllAlerts = (actor: Pick<PolicyActor, 'role'>): boolean => allows(companyGates.alerts, actor.role);

/** A role whose permissions a company sets: a known role other than the platform administrator. */
export const isCompanyRole = (role: number): boolean => isRole(role) && !allows(companyGates.platform, role);

/** Changes the permissions of `role`: never of a role above the actor's own (role 1 excepted). */
export const mayChangeRolePermissions = (actor: Pick<PolicyActor, 'role'>, role: number): boolean =>
  allows(companyGates.platform, actor.role) || role >= actor.role;
