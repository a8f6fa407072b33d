/**
 * Class attendance (Part B 2.8, 4.7 item 15), pure so the server's store
 * endpoint, the sync adapter and the offline app decide the same way.
 *
 * Attendance is independent of activity progress: a student can attend an
 * onsite exam without passing it. A signed class is closed: its attendance
 * changes only after an unsign.
 */
import { mayRunClass } from './policy.ts';

export const ATTENDANCE_STATUSES = ['attended', 'attended_post_class', 'absent', 'absent_justified'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

export const JUSTIFICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type JustificationStatus = (typeof JUSTIFICATION_STATUSES)[number];

/** The legacy `attended` flag (SessionStudent.attended) as the status implies it. */
export function attendedFlag(status: AttendanceStatus | null): boolean {
  return status === 'attended' || status === 'attended_post_class';
}

export interface AttendanceActor {
  id: string;
  role: number;
}
export interface AttendanceClass {
  teacher_id: string | null;
  signed_at: number | null;
}

/** Why this actor may not change the attendance of this class, or null when they may. */
export function attendanceEditRefusal(actor: AttendanceActor, session: AttendanceClass): string | null {
  if (!mayRunClass({ userId: actor.id, role: actor.role }, session)) {
    return 'Only the class teacher or a training manager may take attendance.';
  }
  if (session.signed_at != null) return 'The attendance of this class is signed; unsign it before changing it.';
  return null;
}

/** Only the class teacher signs (with their own password); a signed class is not signed twice. */
export function signRefusal(actor: AttendanceActor, session: AttendanceClass): string | null {
  if (session.teacher_id !== actor.id) return 'Only the teacher of the class may sign its attendance.';
  if (session.signed_at != null) return 'The attendance of this class is already signed.';
  return null;
}

/** An approved justification turns an absence into a justified one; other statuses stay. */
export function statusAfterJustification(
  status: AttendanceStatus | null,
  decision: JustificationStatus,
): AttendanceStatus | null {
  return decision === 'approved' && status === 'absent' ? 'absent_justified' : status;
}

/** Deadlines default from the training's day counts, counted from the class start (unix seconds). */
export function defaultDeadline(classStart: number, days: number): number {
  return classStart + days * 86_400;
}

/** A submission after its deadline is late (no deadline: never late). */
export function isLate(submittedAt: number, deadline: number | null): boolean {
  return deadline != null && submittedAt > deadline;
}

/** Unsigning reopens a class: its teacher or a training manager; only a signed class. */
export function unsignRefusal(actor: AttendanceActor, session: AttendanceClass): string | null {
  if (!mayRunClass({ userId: actor.id, role: actor.role }, session))
    return 'Only the class teacher or a training manager may unsign a class.';
  if (session.signed_at == null) return 'The attendance of this class is not signed.';
  return null;
}

/**
 * Why a student may not justify their absence from a class now, or null:
 * nothing to justify when they attended, nothing more once justified, and
 * nothing after the class's justification deadline.
 */
export function justificationRefusal(
  status: AttendanceStatus | null,
  now: number,
  deadline: number | null,
): { code: string; message: string } | null {
  if (status === 'attended' || status === 'attended_post_class')
    return { code: 'NOT_ABSENT', message: 'You attended this class; there is nothing to justify' };
  if (status === 'absent_justified') return { code: 'ALREADY_JUSTIFIED', message: 'This absence is already justified' };
  if (isLate(now, deadline))
    return { code: 'DEADLINE_PASSED', message: 'The justification deadline of this class has passed' };
  return null;
}

/** Class work grades: 0 to 100 with at most one decimal (2.8: three digits, one decimal). */
export function isValidGrade(score: number): boolean {
  return Number.isFinite(score) && score >= 0 && score <= 100 && Math.abs(score * 10 - Math.round(score * 10)) < 1e-9;
}
