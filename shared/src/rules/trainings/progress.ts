/**
 * Training progress (Part B 4.7 items 1 and 5), pure so the server and the
 * offline app compute the same numbers from the same rows.
 *
 * - A lesson is done when its progress value is 1 and every mandatory gate exam
 *   on it is done.
 * - An onsite exam is done at progress value 1.
 * - An online exam is done when any attempt passed (attempts started before a
 *   reset of its activity do not count).
 * - `Lessons` counts mandatory lessons plus exams that are not lesson gates
 *   (subject and training level, online and onsite).
 */

export const ENROLLMENT_STATUSES = ['ACTIVE', 'COMPLETED', 'STOPPED', 'FAILED', 'EXPELLED'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
export const TRAINING_TYPES = ['ONSITE', 'DISTANCE', 'REMOTE'] as const;
export const EXAM_TYPES = ['ONLINE', 'ONSITE'] as const;
export type ExamType = (typeof EXAM_TYPES)[number];

export interface LessonNode {
  id: string;
  /** The lesson's TrainingActivity id (progress rows are keyed by activity). */
  activityId: string | null;
  mandatory: boolean;
}
export interface ExamNode {
  id: string;
  activityId: string | null;
  type: ExamType;
  /** Set when the exam is a gate of that lesson. */
  lessonId: string | null;
  mandatory: boolean;
}
export interface ProgressRow {
  activityId: string;
  value: number;
  resetAt: number | null;
}
export interface AttemptRow {
  examId: string;
  start: number;
  passed: boolean;
  finished: boolean;
}

/** A progress value counts as done at 1 (fractions are percentages on the way). */
export const isComplete = (value: number | null | undefined) => (value ?? 0) >= 1;

export interface ProgressIndex {
  byActivity: Map<string, ProgressRow>;
  attemptsByExam: Map<string, AttemptRow[]>;
}

export function indexProgress(progress: readonly ProgressRow[], attempts: readonly AttemptRow[]): ProgressIndex {
  const byActivity = new Map(progress.map((p) => [p.activityId, p]));
  const attemptsByExam = new Map<string, AttemptRow[]>();
  for (const a of attempts) {
    const list = attemptsByExam.get(a.examId) ?? [];
    list.push(a);
    attemptsByExam.set(a.examId, list);
  }
  return { byActivity, attemptsByExam };
}

/** Attempts that count after a reset of the activity (a reset hides earlier attempts from the student). */
export function attemptsAfterReset<T extends { start: number }>(
  attempts: readonly T[],
  resetAt: number | null | undefined,
): T[] {
  return resetAt ? attempts.filter((a) => a.start > resetAt) : [...attempts];
}

export function examDone(exam: ExamNode, idx: ProgressIndex): boolean {
  const p = exam.activityId ? idx.byActivity.get(exam.activityId) : undefined;
  if (exam.type === 'ONSITE') return isComplete(p?.value);
  return attemptsAfterReset(idx.attemptsByExam.get(exam.id) ?? [], p?.resetAt).some((a) => a.passed);
}

export function lessonDone(lesson: LessonNode, gates: readonly ExamNode[], idx: ProgressIndex): boolean {
  const p = lesson.activityId ? idx.byActivity.get(lesson.activityId) : undefined;
  if (!isComplete(p?.value)) return false;
  return gates.filter((g) => g.mandatory).every((g) => examDone(g, idx));
}

export interface TheoryProgress {
  total: number;
  completed: number;
  /** floor(completed * 100 / total); 0 when there is nothing to do. */
  percentage: number;
  finished: boolean;
}

/** The counted items of a training and how many are done (`Training.Lessons` and the summary's `theory.progress`). */
export function theoryProgress(
  lessons: readonly LessonNode[],
  exams: readonly ExamNode[],
  idx: ProgressIndex,
): TheoryProgress {
  const gatesByLesson = new Map<string, ExamNode[]>();
  for (const e of exams) {
    if (!e.lessonId) continue;
    const list = gatesByLesson.get(e.lessonId) ?? [];
    list.push(e);
    gatesByLesson.set(e.lessonId, list);
  }
  let total = 0;
  let completed = 0;
  for (const l of lessons) {
    if (!l.mandatory) continue;
    total++;
    if (lessonDone(l, gatesByLesson.get(l.id) ?? [], idx)) completed++;
  }
  for (const e of exams) {
    if (e.lessonId) continue;
    total++;
    if (examDone(e, idx)) completed++;
  }
  return { total, completed, percentage: percentage(completed, total), finished: total > 0 && completed >= total };
}

export const percentage = (completed: number, total: number) => (total > 0 ? Math.floor((completed * 100) / total) : 0);

/** Flown hours: landed block time (seconds) in hours, rounded to one decimal. */
export const flownHours = (blockSeconds: number) => Math.round((blockSeconds / 3600) * 10) / 10;

/** Planned hours of the mission templates (minutes), one decimal. */
export const plannedHours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

export interface AttendanceRow {
  /** The session is in the past. */
  past: boolean;
  invited: boolean;
  attended: boolean;
}

/** `theory.attendance`: invited past sessions given, those attended taken; DISTANCE trainings mirror progress. */
export function theoryAttendance(
  trainingType: string,
  rows: readonly AttendanceRow[],
  progress: TheoryProgress,
): { given: number; taken: number } {
  if (trainingType === 'DISTANCE') return { given: progress.total, taken: progress.completed };
  let given = 0;
  let taken = 0;
  for (const r of rows) {
    if (!r.past || !r.invited) continue;
    given++;
    if (r.attended) taken++;
  }
  return { given, taken };
}

/** Attendance statuses that count as attended (part 2 stores them per session student). */
export const ATTENDED_STATUSES = ['attended', 'attended_post_class'] as const;
export const attendedFrom = (status: string | null | undefined, raw: boolean) =>
  status ? (ATTENDED_STATUSES as readonly string[]).includes(status) : raw;

/**
 * Enrollment transitions a manager makes (Part B 3.4; docs/areas/trainings.md).
 * ACTIVE may close as COMPLETED, STOPPED, FAILED or EXPELLED; STOPPED may be
 * resumed to ACTIVE; every other closed state is final (enrol again instead).
 */
export const ENROLLMENT_TRANSITIONS: Record<EnrollmentStatus, readonly EnrollmentStatus[]> = {
  ACTIVE: ['COMPLETED', 'STOPPED', 'FAILED', 'EXPELLED'],
  STOPPED: ['ACTIVE', 'COMPLETED', 'FAILED', 'EXPELLED'],
  COMPLETED: [],
  FAILED: [],
  EXPELLED: [],
};

export function canTransition(from: EnrollmentStatus, to: EnrollmentStatus): boolean {
  return ENROLLMENT_TRANSITIONS[from].includes(to);
}

/** `finished` follows the status: every state but ACTIVE and STOPPED is finished. */
export const isFinishedStatus = (s: EnrollmentStatus) => s === 'COMPLETED' || s === 'FAILED' || s === 'EXPELLED';

/** A reason is required when closing as STOPPED, FAILED or EXPELLED. */
export const reasonRequired = (to: EnrollmentStatus) => to === 'STOPPED' || to === 'FAILED' || to === 'EXPELLED';
