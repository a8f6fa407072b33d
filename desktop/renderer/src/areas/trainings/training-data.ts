/**
 * The replicated `training` collection read by the screens: documents grouped
 * by record type, and the progress of an enrollment computed with the shared
 * rules (`theoryProgress`), the same numbers the server's summary gives.
 */
import {
  TRAINING_RECORDS,
  type TrainingActivityDoc,
  type TrainingAttemptDoc,
  type TrainingClassDoc,
  type TrainingClassStudentDoc,
  type TrainingCourseDoc,
  type TrainingEnrollmentDoc,
  type TrainingExamDoc,
  type TrainingGradeDoc,
  type TrainingJustificationDoc,
  type TrainingLessonDoc,
  type TrainingProgressDoc,
  type TrainingSubjectDoc,
} from '@ops/shared';
import {
  type ExamNode,
  indexProgress,
  type LessonNode,
  type TheoryProgress,
  theoryProgress,
} from '@ops/shared/rules/trainings/progress';

export interface TrainingData {
  trainings: TrainingCourseDoc[];
  subjects: TrainingSubjectDoc[];
  lessons: TrainingLessonDoc[];
  exams: TrainingExamDoc[];
  activities: TrainingActivityDoc[];
  enrollments: TrainingEnrollmentDoc[];
  progress: TrainingProgressDoc[];
  attempts: TrainingAttemptDoc[];
  classes: TrainingClassDoc[];
  classStudents: TrainingClassStudentDoc[];
  grades: TrainingGradeDoc[];
  justifications: TrainingJustificationDoc[];
}

type Stored = { type: string } & Record<string, unknown>;

/** Splits the collection's documents by `type`. */
export function groupTraining(docs: readonly Stored[]): TrainingData {
  const T = TRAINING_RECORDS;
  const of = <D>(type: string) => docs.filter((d) => d.type === type) as unknown as D[];
  return {
    trainings: of<TrainingCourseDoc>(T.training).sort((a, b) => a.name.localeCompare(b.name)),
    subjects: of<TrainingSubjectDoc>(T.subject).sort((a, b) => a.position - b.position),
    lessons: of<TrainingLessonDoc>(T.lesson),
    exams: of<TrainingExamDoc>(T.exam),
    activities: of<TrainingActivityDoc>(T.activity).sort((a, b) => a.position - b.position),
    enrollments: of<TrainingEnrollmentDoc>(T.enrollment),
    progress: of<TrainingProgressDoc>(T.progress),
    attempts: of<TrainingAttemptDoc>(T.attempt),
    classes: of<TrainingClassDoc>(T.class).sort((a, b) => a.datetime - b.datetime),
    classStudents: of<TrainingClassStudentDoc>(T.classStudent),
    grades: of<TrainingGradeDoc>(T.grade),
    // Newest first: the latest submission is the one that counts.
    justifications: of<TrainingJustificationDoc>(T.justification).sort((a, b) => b.created - a.created),
  };
}

/** The lesson and exam nodes of a training, keyed to their activities, as the progress rules take them. */
export function nodesOf(data: TrainingData, trainingId: string): { lessons: LessonNode[]; exams: ExamNode[] } {
  const activityOf = new Map(
    data.activities.filter((a) => a.training_id === trainingId).map((a) => [a.entity_id, a.id]),
  );
  return {
    lessons: data.lessons
      .filter((l) => l.training_id === trainingId)
      .map((l) => ({ id: l.id, activityId: activityOf.get(l.id) ?? null, mandatory: l.mandatory })),
    exams: data.exams
      .filter((x) => x.training_id === trainingId)
      .map((x) => ({
        id: x.id,
        activityId: activityOf.get(x.id) ?? null,
        type: x.exam_type === 'ONLINE' ? 'ONLINE' : 'ONSITE',
        lessonId: x.lesson_id,
        mandatory: x.mandatory,
      })),
  };
}

/** Theory progress of one enrollment from the local rows. */
export function enrollmentProgress(
  data: TrainingData,
  enrollment: Pick<TrainingEnrollmentDoc, 'id' | 'training_id'>,
): TheoryProgress {
  const { lessons, exams } = nodesOf(data, enrollment.training_id);
  const idx = indexProgress(
    data.progress
      .filter((p) => p.enrollment_id === enrollment.id)
      .map((p) => ({ activityId: p.activity_id, value: p.value, resetAt: null })),
    data.attempts
      .filter((a) => a.enrollment_id === enrollment.id)
      .map((a) => ({ examId: a.exam_id, start: a.start, passed: a.passed, finished: a.finished_at !== null })),
  );
  return theoryProgress(lessons, exams, idx);
}

/** A new progress row completing a lesson, or the existing one set to 1 (the server re-decides on push). */
export function completion(
  data: TrainingData,
  enrollmentId: string,
  activityId: string,
  userId: string,
  newId: string,
  now: number,
): TrainingProgressDoc & { type: string } {
  const found = data.progress.find((p) => p.enrollment_id === enrollmentId && p.activity_id === activityId);
  const base = found ?? {
    id: newId,
    enrollment_id: enrollmentId,
    activity_id: activityId,
    user_id: userId,
    value: 0,
    modified: now,
  };
  return { ...base, value: 1, type: TRAINING_RECORDS.progress };
}

/** ISO date (YYYY-MM-DD) `days` after `iso`. */
export function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The Monday-to-Sunday ISO dates of the week holding `iso`. */
export function weekOf(iso: string): string[] {
  const [y, m, d] = iso.split('-').map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  const monday = addDays(iso, -weekday);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** One of a student's classes with what they owe and what they got: deadlines, the grade, the justification. */
export interface MyClass {
  row: TrainingClassStudentDoc;
  class: TrainingClassDoc;
  grade: TrainingGradeDoc | null;
  justification: TrainingJustificationDoc | null;
}

/** The student's classes (newest first), each with its grade and latest justification, from the local collection. */
export function myClasses(data: TrainingData, userId: string): MyClass[] {
  const classes = new Map(data.classes.map((c) => [c.id, c]));
  return data.classStudents
    .filter((r) => r.user_id === userId)
    .flatMap((row) => {
      const c = classes.get(row.session_id);
      if (!c) return [];
      return [
        {
          row,
          class: c,
          grade: data.grades.find((g) => g.session_student_id === row.id) ?? null,
          justification: data.justifications.find((j) => j.session_student_id === row.id) ?? null,
        },
      ];
    })
    .sort((a, b) => b.class.datetime - a.class.datetime);
}
