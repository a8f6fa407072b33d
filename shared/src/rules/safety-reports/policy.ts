import type { Plan } from '../../enums.ts';
import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what with safety reports (Part B 4.4): the one answer to "which
 * role sees which safety report", shared by the routes, the SQL filters, the
 * `safety_reports` sync collection and the renderer.
 */

/** Company plans that include safety reports (Part B 4.4). */
export const SAFETY_PLANS = ['premium', 'unlimited'] as const satisfies readonly Plan[];

export const safetyGates = {
  /** Managers and the safety manager (<= 110): see and edit every report, the change history, and delete. */
  manage: roleGate('safety-reports.manage', { maxRole: ROLES.SAFETY_MANAGER }),
  /** Instructors and above (<= 150) view every submitted report. */
  viewAll: roleGate('safety-reports.view-all', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
};

/** The columns the visibility rule reads. */
export interface SafetyAccessRow {
  status: string;
  author_id: string | null;
  reviewer_id: string | null;
  crew_pic_id: string | null;
  crew_sic_id: string | null;
  crew_supervisor_id: string | null;
  deleted?: boolean | number;
}

/** Who asks (server actor, sync viewer and device session alike). */
export type SafetyViewer = PolicyActor;

/** Sets reviewers and outcomes, reads the change history, deletes. */
export const mayManageSafetyReports = (actor: Pick<PolicyActor, 'role'>): boolean =>
  allows(safetyGates.manage, actor.role);

/**
 * Part B 4.4 access table, the one definition REST and sync share: a draft is
 * its author's alone; roles <= 150 view every other report; others view their
 * own, the ones they review, those of flights they crewed (PIC, SIC,
 * supervisor), and published ones.
 */
export function maySeeSafetyReport(viewer: PolicyActor, row: SafetyAccessRow): boolean {
  if (row.status === 'draft') return row.author_id === viewer.userId;
  if (allows(safetyGates.viewAll, viewer.role)) return true;
  const me = viewer.userId;
  return (
    row.status === 'published' ||
    row.author_id === me ||
    row.reviewer_id === me ||
    row.crew_pic_id === me ||
    row.crew_sic_id === me ||
    row.crew_supervisor_id === me
  );
}

/** `allowEdit`: managers, the creator and the assigned reviewer, never on a deleted report; crew membership gives view only. */
export function mayEditSafetyReport(viewer: PolicyActor, row: SafetyAccessRow): boolean {
  if (row.deleted) return false;
  if (!maySeeSafetyReport(viewer, row)) return false;
  if (mayManageSafetyReports(viewer)) return true;
  return row.author_id === viewer.userId || row.reviewer_id === viewer.userId;
}

/** The statuses a submitted report moves between (review, close, publish); never back to draft. */
export const SAFETY_REVIEW_STATUSES = ['open', 'reviewed', 'closed', 'published'] as const;

/** Assigns the reviewer (and so who may review): managers and the safety manager only. */
export const mayAssignSafetyReviewer = (actor: Pick<PolicyActor, 'role'>): boolean => mayManageSafetyReports(actor);

/**
 * Review, classify and close: moving a submitted report between open,
 * reviewed, closed and published, and writing the reviewer's outcome. Managers
 * and the assigned reviewer; never on a draft (its author submits it) or a
 * deleted report.
 */
export function mayReviewSafetyReport(viewer: PolicyActor, row: SafetyAccessRow): boolean {
  if (row.status === 'draft') return false;
  if (!mayEditSafetyReport(viewer, row)) return false;
  return mayManageSafetyReports(viewer) || row.reviewer_id === viewer.userId;
}
