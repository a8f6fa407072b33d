import { allows, type PolicyActor, ROLES, roleGate } from '../../roles.ts';

/**
 * Who may do what in training (Part B 4.7, 5): the routes, the services of
 * `trainings/` and `trainings/classes/`, the `training` collection and the
 * attendance rules ask here.
 */
export const trainingGates = {
  /** Training managers (<= 135): the catalog, enrollments, every class and its attendance (Part B 5). */
  manage: roleGate('trainings.manage', { maxRole: ROLES.GROUND_INSTRUCTOR }),
  /** Instructors and above (<= 150) read any student's subjects, lessons, exams, evaluations and classes (Part B 4.7 item 13). */
  readStudents: roleGate('trainings.read-students', { maxRole: ROLES.FLIGHT_INSTRUCTOR }),
  /** Office staff (<= 170) read any student's training summary (Part B 4.7 item 5). */
  readSummaries: roleGate('trainings.read-summaries', { maxRole: ROLES.DISPATCHER }),
};

type Role = Pick<PolicyActor, 'role'>;

/** Manages trainings, enrollments and every class of the company. */
export const mayManageTrainings = (actor: Role): boolean => allows(trainingGates.manage, actor.role);

/** Reads the training work of any student (without teaching them). */
export const mayReadStudentWork = (actor: Role): boolean => allows(trainingGates.readStudents, actor.role);

/** Runs a class (attendance, edits, unsigning): its teacher or a training manager. */
export const mayRunClass = (actor: PolicyActor, c: { teacher_id: string | null }): boolean =>
  mayManageTrainings(actor) || c.teacher_id === actor.userId;

/** Changes a subject: its teacher or a training manager. */
export const mayEditSubject = (actor: PolicyActor, s: { teacher_id: string | null }): boolean =>
  mayManageTrainings(actor) || s.teacher_id === actor.userId;

/** Sees every student row of a class, lesson or subject: instructors and above, and its teacher. */
export const maySeeAllStudentsOf = (actor: PolicyActor, c: { teacher_id: string | null }): boolean =>
  mayReadStudentWork(actor) || c.teacher_id === actor.userId;

/** Sees an enrollment's work by role or ownership (teaching the training is checked by the service, which needs the database). */
export const maySeeEnrollment = (actor: PolicyActor, e: { user_id: string }): boolean =>
  e.user_id === actor.userId || mayReadStudentWork(actor);

/** Reads an enrollment's training summary: its student or office staff. */
export const maySeeTrainingSummary = (actor: PolicyActor, e: { user_id: string }): boolean =>
  e.user_id === actor.userId || allows(trainingGates.readSummaries, actor.role);

/** Reads an evaluation: instructors and above, the class teacher and the evaluated student. */
export const maySeeEvaluation = (actor: PolicyActor, c: { teacher_id: string | null }, studentId: string): boolean =>
  maySeeAllStudentsOf(actor, c) || actor.userId === studentId;
