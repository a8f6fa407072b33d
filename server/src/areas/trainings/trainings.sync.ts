import {
  isUuid,
  TRAINING_RECORDS as T,
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
  trainingActivityRecord,
  trainingAttemptRecord,
  trainingClassRecord,
  trainingClassStudentRecord,
  trainingCollection,
  trainingCourseRecord,
  trainingEnrollmentRecord,
  trainingExamRecord,
  trainingGradeRecord,
  trainingJustificationRecord,
  trainingLessonRecord,
  trainingProgressRecord,
  trainingSubjectRecord,
} from '@ops/shared';
import {
  ATTENDANCE_STATUSES,
  type AttendanceStatus,
  attendanceEditRefusal,
} from '@ops/shared/rules/trainings/attendance';
import { isComplete } from '@ops/shared/rules/trainings/progress';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { type CollectionPart, recordType, type SyncPartDef } from '../../sync/registry.ts';
import { type SourceQuery, tableSource } from '../../sync/table-source.ts';
import { bool, num, stamp } from './trainings.repository.ts';
import { setProgress } from './learning.service.ts';
import './trainings.tables.ts';
import { attendanceColumns } from './classes/attendance.service.ts';

/**
 * The `training` collection (shared/src/collections/training.ts): one source
 * per table, rows filtered by the record type's scope. Two record types take
 * offline writes, each re-decided here with the shared rules: a student's
 * lesson completion (`progress.value`) and a class's attendance
 * (`class_student.attendance_status`, `attendanceEditRefusal`). Grades and
 * justifications are read-only here: no `write`, so the kernel refuses a push.
 */

type Db = Kysely<DB>;
interface Synced {
  id: string;
  change_no: number;
  deleted: number;
}

/** The record types of `training`, in order (the trainings manifest lists them). */
export const trainingRecordTypes: SyncPartDef[] = [];

/** Defines one record type read from one query; `load` reads the same query by id. */
function part<Row extends Synced, Doc extends { id: string }>(
  type: string,
  def: { rows: Parameters<typeof tableSource>[0]['rows'] },
  table: string,
  alias: string,
  query: (db: Db, companyId: string) => SourceQuery<Row>,
  toDoc: (r: Row) => Doc,
  write?: CollectionPart<Doc>['write'],
) {
  trainingRecordTypes.push(
    recordType<Doc>(trainingCollection, {
      types: [type],
      sources: [tableSource<Row, Doc>({ tables: [table], alias, rows: def.rows, query, toDoc })],
      async load(db, companyId, id) {
        const rows = await query(db, companyId)
          .where(sql<boolean>`${sql.ref(`${alias}.id`)} = ${id}`)
          .limit(1)
          .execute();
        const r = rows[0];
        return r ? ({ ...toDoc(r), _deleted: !!r.deleted } as Doc) : null;
      },
      write,
    }),
  );
}

const nullableNum = (v: unknown) => (v === null || v === undefined ? null : Number(v));

part(
  T.training,
  trainingCourseRecord,
  'trainings',
  't',
  (db, c) =>
    db
      .selectFrom('trainings as t')
      .select([
        't.id',
        't.change_no',
        't.deleted',
        't.name',
        't.type',
        't.active',
        't.template',
        't.start_date',
        't.end_date',
        't.color',
        't.announcement',
        't.modified',
      ])
      .where('t.company_id', '=', c),
  (r): TrainingCourseDoc => ({
    id: r.id,
    name: r.name,
    training_type: r.type,
    active: bool(r.active),
    template: bool(r.template),
    start_date: r.start_date,
    end_date: r.end_date,
    color: r.color,
    announcement: r.announcement,
    modified: num(r.modified),
  }),
);

part(
  T.subject,
  trainingSubjectRecord,
  'training_subjects',
  'sj',
  (db, c) =>
    db
      .selectFrom('training_subjects as sj')
      .select([
        'sj.id',
        'sj.change_no',
        'sj.deleted',
        'sj.training_id',
        'sj.name',
        'sj.teacher_id',
        'sj.position',
        'sj.modified',
      ])
      .where('sj.company_id', '=', c),
  (r): TrainingSubjectDoc => ({
    id: r.id,
    training_id: r.training_id,
    name: r.name,
    teacher_id: r.teacher_id,
    position: num(r.position),
    modified: num(r.modified),
  }),
);

part(
  T.lesson,
  trainingLessonRecord,
  'training_lessons',
  'l',
  (db, c) =>
    db
      .selectFrom('training_lessons as l')
      .select([
        'l.id',
        'l.change_no',
        'l.deleted',
        'l.training_id',
        'l.subject_id',
        'l.name',
        'l.minutes',
        'l.mandatory',
        'l.modified',
      ])
      .where('l.company_id', '=', c),
  (r): TrainingLessonDoc => ({
    id: r.id,
    training_id: r.training_id,
    subject_id: r.subject_id,
    name: r.name,
    minutes: num(r.minutes),
    mandatory: bool(r.mandatory),
    modified: num(r.modified),
  }),
);

part(
  T.exam,
  trainingExamRecord,
  'training_exams',
  'x',
  (db, c) =>
    db
      .selectFrom('training_exams as x')
      .select([
        'x.id',
        'x.change_no',
        'x.deleted',
        'x.training_id',
        'x.subject_id',
        'x.lesson_id',
        'x.type',
        'x.name',
        'x.minutes',
        'x.mandatory',
        'x.score',
        'x.modified',
      ])
      .where('x.company_id', '=', c),
  (r): TrainingExamDoc => ({
    id: r.id,
    training_id: r.training_id,
    subject_id: r.subject_id,
    lesson_id: r.lesson_id,
    exam_type: r.type,
    name: r.name,
    minutes: num(r.minutes),
    mandatory: bool(r.mandatory),
    pass_score: num(r.score),
    modified: num(r.modified),
  }),
);

part(
  T.activity,
  trainingActivityRecord,
  'training_activities',
  'a',
  (db, c) =>
    db
      .selectFrom('training_activities as a')
      .select([
        'a.id',
        'a.change_no',
        'a.deleted',
        'a.training_id',
        'a.subject_id',
        'a.kind',
        'a.entity_id',
        'a.position',
        'a.modified',
      ])
      .where('a.company_id', '=', c),
  (r): TrainingActivityDoc => ({
    id: r.id,
    training_id: r.training_id,
    subject_id: r.subject_id,
    kind: r.kind,
    entity_id: r.entity_id,
    position: num(r.position),
    modified: num(r.modified),
  }),
);

part(
  T.enrollment,
  trainingEnrollmentRecord,
  'training_enrollments',
  'e',
  (db, c) =>
    db
      .selectFrom('training_enrollments as e')
      .select([
        'e.id',
        'e.change_no',
        'e.deleted',
        'e.training_id',
        'e.user_id',
        'e.supervisor_id',
        'e.finish_before',
        'e.finished',
        'e.status',
        'e.created',
        'e.modified',
      ])
      .where('e.company_id', '=', c),
  (r): TrainingEnrollmentDoc => ({
    id: r.id,
    training_id: r.training_id,
    user_id: r.user_id,
    supervisor_id: r.supervisor_id,
    finish_before: nullableNum(r.finish_before),
    finished: bool(r.finished),
    status: r.status,
    created: num(r.created),
    modified: num(r.modified),
  }),
);

// Progress and attempts carry their enrollment's student: the row scope reads `user_id` (an enrollment never changes student).
const progressQuery = (db: Db, c: string) =>
  db
    .selectFrom('training_progress as p')
    .innerJoin('training_enrollments as pe', 'pe.id', 'p.enrollment_id')
    .select([
      'p.id',
      'p.change_no',
      'p.deleted',
      'p.enrollment_id',
      'p.activity_id',
      'p.value',
      'pe.user_id',
      'p.modified',
    ])
    .where('p.company_id', '=', c);
type ProgressRow = Awaited<ReturnType<ReturnType<typeof progressQuery>['execute']>>[number];
const toProgress = (r: ProgressRow): TrainingProgressDoc => ({
  id: r.id,
  enrollment_id: r.enrollment_id,
  activity_id: r.activity_id,
  value: Number(r.value),
  user_id: r.user_id,
  modified: num(r.modified),
});

part(
  T.progress,
  trainingProgressRecord,
  'training_progress',
  'p',
  progressQuery,
  toProgress,
  async (ctx, actor, next, master) => {
    // Offline, a student records one thing: a lesson done (value 1). Anything else goes through REST.
    if (typeof next.value !== 'number' || !isComplete(next.value) || next.value !== 1)
      return { ok: false, reason: 'Offline, a lesson can only be marked complete (progress 1).' };
    if (master && master.user_id !== actor.userId)
      return { ok: false, reason: 'Only the student completes their own lesson.' };
    if (master && isComplete(master.value)) return { ok: true };
    const enrollmentId = master?.enrollment_id ?? next.enrollment_id;
    const activityId = master?.activity_id ?? next.activity_id;
    if (typeof enrollmentId !== 'string' || typeof activityId !== 'string')
      return { ok: false, reason: 'A progress row names its enrollment and activity.' };
    if (!master && !isUuid(next.id)) return { ok: false, reason: 'A new progress row needs a UUID id.' };
    const e = await ctx.db
      .selectFrom('training_enrollments')
      .select(['id', 'user_id', 'status', 'training_id'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', enrollmentId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!e || e.user_id !== actor.userId) return { ok: false, reason: 'Only the student completes their own lesson.' };
    if (e.status !== 'ACTIVE')
      return { ok: false, reason: `The enrollment is ${e.status}; its lessons cannot be completed.` };
    const a = await ctx.db
      .selectFrom('training_activities')
      .select(['id', 'kind', 'training_id'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', activityId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!a || a.training_id !== e.training_id)
      return { ok: false, reason: 'This activity is not part of the enrollment’s training.' };
    if (a.kind !== 'LESSON') return { ok: false, reason: 'Exams are completed by passing them, not offline.' };
    return ctx.tx(async (uow) => {
      const existing = await uow.trx
        .selectFrom('training_progress')
        .select('id')
        .where('enrollment_id', '=', e.id)
        .where('activity_id', '=', a.id)
        .executeTakeFirst();
      if (existing && existing.id !== next.id) {
        // Another device recorded this lesson first: the completion lands on that row; this copy is dropped.
        await setProgress(uow, actor.companyId, e.id, a.id, { value: 1 });
        return {
          ok: false as const,
          reason: 'This lesson was already recorded from another device; the completion was added there.',
        };
      }
      if (existing) {
        await setProgress(uow, actor.companyId, e.id, a.id, { value: 1 });
        return { ok: true as const };
      }
      const st = await stamp(uow, actor.companyId, 'training_progress');
      await uow.trx
        .insertInto('training_progress')
        .values({
          id: next.id,
          company_id: actor.companyId,
          ...st,
          deleted: 0,
          created: st.modified,
          enrollment_id: e.id,
          activity_id: a.id,
          value: 1,
          session_id: null,
          reset_at: null,
          time_spent: 0,
        })
        .execute();
      return { ok: true as const };
    });
  },
);

part(
  T.attempt,
  trainingAttemptRecord,
  'training_attempts',
  'at',
  (db, c) =>
    db
      .selectFrom('training_attempts as at')
      .select([
        'at.id',
        'at.change_no',
        'at.deleted',
        'at.enrollment_id',
        'at.exam_id',
        'at.user_id',
        'at.start',
        'at.finished_at',
        'at.score',
        'at.passed',
        'at.modified',
      ])
      .where('at.company_id', '=', c),
  (r): TrainingAttemptDoc => ({
    id: r.id,
    enrollment_id: r.enrollment_id,
    exam_id: r.exam_id,
    user_id: r.user_id,
    start: num(r.start),
    finished_at: nullableNum(r.finished_at),
    score: nullableNum(r.score),
    passed: bool(r.passed),
    modified: num(r.modified),
  }),
);

part(
  T.class,
  trainingClassRecord,
  'training_sessions',
  'c',
  (db, c) =>
    db
      .selectFrom('training_sessions as c')
      .select([
        'c.id',
        'c.change_no',
        'c.deleted',
        'c.training_id',
        'c.subject_id',
        'c.activity_id',
        'c.lesson_id',
        'c.exam_id',
        'c.datetime',
        'c.minutes',
        'c.teacher_id',
        'c.remarks',
        'c.classwork_deadline',
        'c.justification_deadline',
        'c.signed_at',
        'c.signed_by',
        'c.modified',
      ])
      .where('c.company_id', '=', c),
  (r): TrainingClassDoc => ({
    id: r.id,
    training_id: r.training_id,
    subject_id: r.subject_id,
    activity_id: r.activity_id,
    lesson_id: r.lesson_id,
    exam_id: r.exam_id,
    datetime: num(r.datetime),
    minutes: num(r.minutes),
    teacher_id: r.teacher_id,
    remarks: r.remarks,
    classwork_deadline: nullableNum(r.classwork_deadline),
    justification_deadline: nullableNum(r.justification_deadline),
    signed_at: nullableNum(r.signed_at),
    signed_by: r.signed_by,
    modified: num(r.modified),
  }),
);

// A class student carries the class's teacher (`class_teacher_id`): the teacher receives the students of the classes they teach.
const studentQuery = (db: Db, c: string) =>
  db
    .selectFrom('training_session_students as ss')
    .leftJoin('training_sessions as sc', 'sc.id', 'ss.session_id')
    .select([
      'ss.id',
      'ss.change_no',
      'ss.deleted',
      'ss.session_id',
      'ss.user_id',
      'ss.enrollment_id',
      'ss.invited',
      'ss.attended',
      'ss.attendance_status',
      'sc.teacher_id as class_teacher_id',
      'ss.modified',
    ])
    .where('ss.company_id', '=', c);
type StudentRow = Awaited<ReturnType<ReturnType<typeof studentQuery>['execute']>>[number];
const toStudent = (r: StudentRow): TrainingClassStudentDoc => ({
  id: r.id,
  session_id: r.session_id,
  user_id: r.user_id,
  enrollment_id: r.enrollment_id,
  invited: bool(r.invited),
  attended: bool(r.attended),
  attendance_status: r.attendance_status,
  class_teacher_id: r.class_teacher_id ?? null,
  modified: num(r.modified),
});

const isStatus = (v: unknown): v is AttendanceStatus =>
  typeof v === 'string' && (ATTENDANCE_STATUSES as readonly string[]).includes(v);

part(
  T.classStudent,
  trainingClassStudentRecord,
  'training_session_students',
  'ss',
  studentQuery,
  toStudent,
  async (ctx, actor, next, master) => {
    if (!master || (master as { _deleted?: boolean })._deleted)
      return { ok: false, reason: 'No such class student (students are invited to a class online).' };
    const status = next.attendance_status ?? null;
    if (status !== null && !isStatus(status))
      return {
        ok: false,
        reason: `Unknown attendance status ${String(status)}; expected one of ${ATTENDANCE_STATUSES.join(', ')}.`,
      };
    const session = await ctx.db
      .selectFrom('training_sessions')
      .select(['id', 'teacher_id', 'signed_at'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', master.session_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!session) return { ok: false, reason: 'The class no longer exists.' };
    const refusal = attendanceEditRefusal(
      { id: actor.userId, role: actor.role },
      { teacher_id: session.teacher_id, signed_at: nullableNum(session.signed_at) },
    );
    if (refusal) return { ok: false, reason: refusal };
    if (status === master.attendance_status) return { ok: true };
    await ctx.tx(async (uow) => {
      await uow.trx
        .updateTable('training_session_students')
        .set({ ...attendanceColumns(status), ...(await stamp(uow, actor.companyId, 'training_session_students')) })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', master.id)
        .execute();
    });
    return { ok: true };
  },
);

// Grades and justifications carry the class's teacher like class students (one scope); the class edit restamps them when the teacher changes.
const gradeQuery = (db: Db, c: string) =>
  db
    .selectFrom('training_classwork_grades as g')
    .leftJoin('training_sessions as gc', 'gc.id', 'g.session_id')
    .select([
      'g.id',
      'g.change_no',
      'g.deleted',
      'g.session_id',
      'g.session_student_id',
      'g.user_id',
      'g.upload_id',
      'g.score',
      'g.feedback',
      'g.graded_by',
      'g.graded_at',
      'gc.teacher_id as class_teacher_id',
      'g.created',
      'g.modified',
    ])
    .where('g.company_id', '=', c);
type GradeRow = Awaited<ReturnType<ReturnType<typeof gradeQuery>['execute']>>[number];
part(
  T.grade,
  trainingGradeRecord,
  'training_classwork_grades',
  'g',
  gradeQuery,
  (r: GradeRow): TrainingGradeDoc => ({
    id: r.id,
    class_id: r.session_id,
    session_student_id: r.session_student_id,
    user_id: r.user_id,
    upload_id: r.upload_id,
    // Rounded as the REST `Grade` presents it.
    score: Math.round(Number(r.score) * 10) / 10,
    feedback: r.feedback,
    graded_by: r.graded_by,
    graded_at: num(r.graded_at),
    class_teacher_id: r.class_teacher_id ?? null,
    created: num(r.created),
    modified: num(r.modified),
  }),
);

const justificationQuery = (db: Db, c: string) =>
  db
    .selectFrom('training_justifications as j')
    .leftJoin('training_sessions as jc', 'jc.id', 'j.session_id')
    .select([
      'j.id',
      'j.change_no',
      'j.deleted',
      'j.session_id',
      'j.session_student_id',
      'j.user_id',
      'j.text',
      'j.upload_id',
      'j.status',
      'j.reviewed_by',
      'j.reviewed_at',
      'j.review_note',
      'jc.teacher_id as class_teacher_id',
      'j.created',
      'j.modified',
    ])
    .where('j.company_id', '=', c);
type JustificationRow = Awaited<ReturnType<ReturnType<typeof justificationQuery>['execute']>>[number];
part(
  T.justification,
  trainingJustificationRecord,
  'training_justifications',
  'j',
  justificationQuery,
  (r: JustificationRow): TrainingJustificationDoc => ({
    id: r.id,
    class_id: r.session_id,
    session_student_id: r.session_student_id,
    user_id: r.user_id,
    text: r.text,
    upload_id: r.upload_id,
    status: r.status,
    reviewed_by: r.reviewed_by,
    reviewed_at: nullableNum(r.reviewed_at),
    review_note: r.review_note,
    class_teacher_id: r.class_teacher_id ?? null,
    created: num(r.created),
    modified: num(r.modified),
  }),
);
