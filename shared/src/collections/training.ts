import { mayManageTrainings } from '../rules/trainings/policy.ts';
import { areaCollection } from './area.ts';
import { type CollectionDef, type JsonSchemaProp, type RowScope, s, type Viewer } from './types.ts';

/**
 * Trainings offline (issue 18 item 7, issue 19 item 9; docs/areas/trainings.md):
 * one area collection `training` with the course structure a student works
 * through, their enrollments, progress and exam results, and the classes with
 * their students.
 *
 * Rows (one definition, REST and sync):
 * - the structure (training, subject, lesson, exam, activity) and the class
 *   timetable are company information: every member of the company receives
 *   them (exam questions and slides are not replicated);
 * - enrollments, progress and exam attempts: roles <= 135 (training managers)
 *   every row, the student their own, the supervisor the enrollments they supervise;
 * - class students (attendance), classwork grades and absence justifications:
 *   roles <= 135 every row, the student their own, the class teacher those of
 *   the classes they teach (one scope, `TRAINING_SCOPES.classStudent`).
 *
 * Writable offline: `progress.value` (a student completes a lesson; the
 * server re-decides with the progress rules) and `class_student.attendance_status`
 * (the teacher or a manager takes attendance; re-decided with `attendanceEditRefusal`).
 * Signing a class needs the password: an online REST step. Grades and
 * justifications are read-only offline (grading and submitting are REST steps).
 */

/** Record types of `training`. */
export const TRAINING_RECORDS = {
  training: 'training',
  subject: 'subject',
  lesson: 'lesson',
  exam: 'exam',
  activity: 'activity',
  enrollment: 'enrollment',
  progress: 'progress',
  attempt: 'attempt',
  class: 'class',
  classStudent: 'class_student',
  grade: 'grade',
  justification: 'justification',
} as const;

export interface TrainingCourseDoc {
  id: string;
  name: string;
  /** ONSITE, DISTANCE or REMOTE (the training's own `type`). */
  training_type: string;
  active: boolean;
  template: boolean;
  start_date: string | null;
  end_date: string | null;
  color: string | null;
  announcement: string | null;
  modified: number;
}
export interface TrainingSubjectDoc {
  id: string;
  training_id: string;
  name: string;
  teacher_id: string | null;
  position: number;
  modified: number;
}
export interface TrainingLessonDoc {
  id: string;
  training_id: string;
  subject_id: string;
  name: string;
  minutes: number;
  mandatory: boolean;
  modified: number;
}
export interface TrainingExamDoc {
  id: string;
  training_id: string;
  subject_id: string | null;
  lesson_id: string | null;
  /** ONLINE or ONSITE (the exam's own `type`). */
  exam_type: string;
  name: string;
  minutes: number;
  mandatory: boolean;
  /** The passing score in percent. */
  pass_score: number;
  modified: number;
}
export interface TrainingActivityDoc {
  id: string;
  training_id: string;
  subject_id: string;
  /** LESSON or EXAM. */
  kind: string;
  entity_id: string;
  position: number;
  modified: number;
}
export interface TrainingEnrollmentDoc {
  id: string;
  training_id: string;
  user_id: string;
  supervisor_id: string | null;
  /** Deadline, unix seconds. */
  finish_before: number | null;
  finished: boolean;
  status: string;
  created: number;
  modified: number;
}
export interface TrainingProgressDoc {
  id: string;
  enrollment_id: string;
  activity_id: string;
  /** 1 is done; fractions are on the way. */
  value: number;
  /** The enrollment's student (row scope). */
  user_id: string;
  modified: number;
}
export interface TrainingAttemptDoc {
  id: string;
  enrollment_id: string;
  exam_id: string;
  user_id: string;
  start: number;
  finished_at: number | null;
  score: number | null;
  passed: boolean;
  modified: number;
}
export interface TrainingClassDoc {
  id: string;
  training_id: string;
  subject_id: string;
  activity_id: string | null;
  lesson_id: string | null;
  exam_id: string | null;
  /** Start, unix seconds. */
  datetime: number;
  minutes: number;
  teacher_id: string | null;
  remarks: string | null;
  classwork_deadline: number | null;
  justification_deadline: number | null;
  signed_at: number | null;
  signed_by: string | null;
  modified: number;
}
export interface TrainingClassStudentDoc {
  id: string;
  session_id: string;
  user_id: string;
  enrollment_id: string | null;
  invited: boolean;
  attended: boolean;
  attendance_status: string | null;
  /** The class's teacher when the row last changed (row scope: the teacher sees the class's students). */
  class_teacher_id: string | null;
  modified: number;
}

/** A classwork grade (`training_classwork_grades`); fields as the REST `Grade` (trainings.justifications.ts). */
export interface TrainingGradeDoc {
  id: string;
  /** The class (REST: the `class_id` of the classwork endpoints). */
  class_id: string;
  session_student_id: string;
  user_id: string;
  upload_id: string | null;
  score: number;
  feedback: string | null;
  graded_by: string;
  /** Unix seconds. */
  graded_at: number;
  /** The class's teacher when the row last changed (row scope, as on class_student). */
  class_teacher_id: string | null;
  created: number;
  modified: number;
}
/** An absence justification (`training_justifications`); fields as the REST presenter (trainings.justifications.ts). */
export interface TrainingJustificationDoc {
  id: string;
  class_id: string;
  session_student_id: string;
  user_id: string;
  text: string;
  upload_id: string | null;
  /** pending, approved or rejected. */
  status: string;
  reviewed_by: string | null;
  reviewed_at: number | null;
  review_note: string | null;
  class_teacher_id: string | null;
  created: number;
  modified: number;
}

const manager = (viewer: Viewer) => mayManageTrainings(viewer);
const mine = (row: Record<string, unknown>, viewer: Viewer, fields: readonly string[]) =>
  fields.some((f) => row[f] === viewer.userId);

/** Personal rows: managers every row, otherwise the people named in `fields`. */
function personal(fields: readonly string[]): RowScope {
  return { kind: 'custom', fields, test: (row, viewer) => manager(viewer) || mine(row, viewer, fields) };
}

/** Whether a viewer receives a row of this record type (`row` carries the scope fields). */
export const TRAINING_SCOPES = {
  enrollment: personal(['user_id', 'supervisor_id']),
  progress: personal(['user_id']),
  attempt: personal(['user_id']),
  /** Rows of a class's students (attendance, grades, justifications): the student and the class teacher. */
  classStudent: personal(['user_id', 'class_teacher_id']),
} as const;

const str = (n = 64): JsonSchemaProp => ({ type: 'string', maxLength: n });
const optStr = s.str;
const optNum = s.num;

function record<Doc extends { id: string }>(
  name: string,
  props: Record<keyof Doc & string, JsonSchemaProp>,
  required: readonly (keyof Doc & string)[],
  rows: RowScope,
  writable: readonly (keyof Doc & string)[] = [],
): CollectionDef<Doc> {
  return {
    name,
    version: 0,
    schema: { properties: props, required },
    rows,
    visible: (doc) => doc,
    writableFields: writable,
    // Who may change which row is the server's write decision (the student's own lesson, the teacher's class).
    canPush: () => writable.length > 0,
  };
}

const company: RowScope = { kind: 'company' };

export const trainingCourseRecord = record<TrainingCourseDoc>(
  'training',
  {
    id: s.id,
    name: s.reqStr,
    training_type: str(16),
    active: s.bool,
    template: s.bool,
    start_date: optStr,
    end_date: optStr,
    color: optStr,
    announcement: optStr,
    modified: s.int,
  },
  ['id', 'name', 'training_type', 'active', 'template', 'modified'],
  company,
);
export const trainingSubjectRecord = record<TrainingSubjectDoc>(
  'subject',
  { id: s.id, training_id: str(), name: s.reqStr, teacher_id: optStr, position: s.int, modified: s.int },
  ['id', 'training_id', 'name', 'position', 'modified'],
  company,
);
export const trainingLessonRecord = record<TrainingLessonDoc>(
  'lesson',
  {
    id: s.id,
    training_id: str(),
    subject_id: str(),
    name: s.reqStr,
    minutes: s.int,
    mandatory: s.bool,
    modified: s.int,
  },
  ['id', 'training_id', 'subject_id', 'name', 'minutes', 'mandatory', 'modified'],
  company,
);
export const trainingExamRecord = record<TrainingExamDoc>(
  'exam',
  {
    id: s.id,
    training_id: str(),
    subject_id: optStr,
    lesson_id: optStr,
    exam_type: str(16),
    name: s.reqStr,
    minutes: s.int,
    mandatory: s.bool,
    pass_score: s.int,
    modified: s.int,
  },
  ['id', 'training_id', 'exam_type', 'name', 'minutes', 'mandatory', 'pass_score', 'modified'],
  company,
);
export const trainingActivityRecord = record<TrainingActivityDoc>(
  'activity',
  {
    id: s.id,
    training_id: str(),
    subject_id: str(),
    kind: str(16),
    entity_id: str(),
    position: s.int,
    modified: s.int,
  },
  ['id', 'training_id', 'subject_id', 'kind', 'entity_id', 'position', 'modified'],
  company,
);
export const trainingEnrollmentRecord = record<TrainingEnrollmentDoc>(
  'enrollment',
  {
    id: s.id,
    training_id: str(),
    user_id: str(),
    supervisor_id: optStr,
    finish_before: optNum,
    finished: s.bool,
    status: str(16),
    created: s.int,
    modified: s.int,
  },
  ['id', 'training_id', 'user_id', 'finished', 'status', 'created', 'modified'],
  TRAINING_SCOPES.enrollment,
);
export const trainingProgressRecord = record<TrainingProgressDoc>(
  'progress',
  { id: s.id, enrollment_id: str(), activity_id: str(), value: { type: 'number' }, user_id: str(), modified: s.int },
  ['id', 'enrollment_id', 'activity_id', 'value', 'user_id', 'modified'],
  TRAINING_SCOPES.progress,
  ['value'],
);
export const trainingAttemptRecord = record<TrainingAttemptDoc>(
  'attempt',
  {
    id: s.id,
    enrollment_id: str(),
    exam_id: str(),
    user_id: str(),
    start: s.int,
    finished_at: optNum,
    score: optNum,
    passed: s.bool,
    modified: s.int,
  },
  ['id', 'enrollment_id', 'exam_id', 'user_id', 'start', 'passed', 'modified'],
  TRAINING_SCOPES.attempt,
);
export const trainingClassRecord = record<TrainingClassDoc>(
  'class',
  {
    id: s.id,
    training_id: str(),
    subject_id: str(),
    activity_id: optStr,
    lesson_id: optStr,
    exam_id: optStr,
    datetime: s.int,
    minutes: s.int,
    teacher_id: optStr,
    remarks: optStr,
    classwork_deadline: optNum,
    justification_deadline: optNum,
    signed_at: optNum,
    signed_by: optStr,
    modified: s.int,
  },
  ['id', 'training_id', 'subject_id', 'datetime', 'minutes', 'modified'],
  company,
);
export const trainingClassStudentRecord = record<TrainingClassStudentDoc>(
  'class_student',
  {
    id: s.id,
    session_id: str(),
    user_id: str(),
    enrollment_id: optStr,
    invited: s.bool,
    attended: s.bool,
    attendance_status: optStr,
    class_teacher_id: optStr,
    modified: s.int,
  },
  ['id', 'session_id', 'user_id', 'invited', 'attended', 'modified'],
  TRAINING_SCOPES.classStudent,
  ['attendance_status'],
);

export const trainingGradeRecord = record<TrainingGradeDoc>(
  'grade',
  {
    id: s.id,
    class_id: str(),
    session_student_id: str(),
    user_id: str(),
    upload_id: optStr,
    score: { type: 'number' },
    feedback: optStr,
    graded_by: str(),
    graded_at: s.int,
    class_teacher_id: optStr,
    created: s.int,
    modified: s.int,
  },
  ['id', 'class_id', 'session_student_id', 'user_id', 'score', 'graded_by', 'graded_at', 'created', 'modified'],
  TRAINING_SCOPES.classStudent,
);
export const trainingJustificationRecord = record<TrainingJustificationDoc>(
  'justification',
  {
    id: s.id,
    class_id: str(),
    session_student_id: str(),
    user_id: str(),
    text: s.reqStr,
    upload_id: optStr,
    status: str(16),
    reviewed_by: optStr,
    reviewed_at: optNum,
    review_note: optStr,
    class_teacher_id: optStr,
    created: s.int,
    modified: s.int,
  },
  ['id', 'class_id', 'session_student_id', 'user_id', 'status', 'created', 'modified'],
  TRAINING_SCOPES.classStudent,
);

const T = TRAINING_RECORDS;
export const trainingCollection = areaCollection({
  name: 'training',
  version: 0,
  parts: [
    { types: [T.training], def: trainingCourseRecord },
    { types: [T.subject], def: trainingSubjectRecord },
    { types: [T.lesson], def: trainingLessonRecord },
    { types: [T.exam], def: trainingExamRecord },
    { types: [T.activity], def: trainingActivityRecord },
    { types: [T.enrollment], def: trainingEnrollmentRecord },
    { types: [T.progress], def: trainingProgressRecord },
    { types: [T.attempt], def: trainingAttemptRecord },
    { types: [T.class], def: trainingClassRecord },
    { types: [T.classStudent], def: trainingClassStudentRecord },
    { types: [T.grade], def: trainingGradeRecord },
    { types: [T.justification], def: trainingJustificationRecord },
  ],
});
