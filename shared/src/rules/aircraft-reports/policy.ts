import { ALL_ROLES, allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';
import { MAINTENANCE_ROLES } from '../aircraft/policy.ts';
import { groundsAircraft } from './blockers.ts';

/** Roles that manage MEL and CDL items and anyone's reports: managers and mechanics (Part B 4.2 role table). */
export const MEL_MANAGER_ROLES: readonly number[] = MAINTENANCE_ROLES;
/**
 * Part B 6: who is told of a new aircraft report: administrators, managers, instructors,
 * dispatchers, pilots (<= 190) and mechanics; not students nor external auditors (docs/areas/fleet.md).
 */
export const REPORT_RECIPIENT_ROLES: readonly number[] = ALL_ROLES.filter(
  (r) => r <= ROLES.PILOT || r === ROLES.MECHANIC,
);

export const aircraftReportGates = {
  /** Extend MEL and CDL items (answers 404 to others, Part B 4.2 item 7). */
  melManage: roleGate('aircraft-reports.mel-manage', { roles: MEL_MANAGER_ROLES }),
} as const;

export type MelAction = 'raise' | 'edit' | 'extend' | 'close';

/** Part B 4.2 role table: the aircraft's assigned pilot may raise, never edit, extend or close. */
export function canActOnMel(action: MelAction, role: number, ctx: { isAssignedPilot: boolean }): boolean {
  if (allows(aircraftReportGates.melManage, role)) return true;
  return action === 'raise' && ctx.isAssignedPilot;
}

/** Part B 4.2 item 6: managers and mechanics, or the requester themself; a student pilot never. */
export function canBeReleaser(role: number, isRequester: boolean): boolean {
  if (role === ROLES.STUDENT) return false;
  return allows(aircraftReportGates.melManage, role) || isRequester;
}

/** The external auditor is read-only (Part A 5): no report is written, pushed or changed by them. */
export const mayWriteAircraftReports = (actor: Pick<PolicyActor, 'role'>): boolean => actor.role !== ROLES.AUDITOR;

/** Edit or delete a report: its reporter, managers and mechanics. */
export const mayChangeAircraftReport = (actor: PolicyActor, report: { user_id: string | null }): boolean =>
  allows(aircraftReportGates.melManage, actor.role) || report.user_id === actor.userId;

/** May this actor act on the MEL item of a report (the aircraft's assigned pilot may raise one). */
export const mayActOnMel = (
  actor: PolicyActor,
  action: MelAction,
  aircraft: { user_id: string | null } | null,
): boolean =>
  canActOnMel(action, actor.role, { isAssignedPilot: aircraft !== null && aircraft.user_id === actor.userId });

/** Who manages MEL/CDL items (extend, close) on a screen. */
export const mayManageMel = (role: number): boolean => MEL_MANAGER_ROLES.includes(role);

/**
 * Close a report, or release an aircraft it grounds: a release to service is
 * maintenance work, so a grounding report is closed by managers and mechanics
 * only; a report that grounds nothing also by its reporter (issue 28 items 6, 8).
 */
export const mayCloseAircraftReport = (
  actor: PolicyActor,
  report: { user_id: string | null; type: string; aircraft_status: string | null; dispatch_condition: string | null },
): boolean => {
  if (!mayWriteAircraftReports(actor)) return false;
  if (allows(aircraftReportGates.melManage, actor.role)) return true;
  if (report.type === 'MEL' || report.type === 'CDL') return false;
  return !groundsAircraft(report) && report.user_id === actor.userId;
};
