import { isStaff, type PolicyActor } from '../../roles.ts';

/** Part A 4.11: staff (<= 170) read anyone's reports and the company statistics; others only their own. */
export const maySeeOthersReports = (actor: Pick<PolicyActor, 'role'>): boolean => isStaff(actor.role);
