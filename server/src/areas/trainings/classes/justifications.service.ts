import { english, said } from '../../../http/messages.ts';
import { mayRunClass, maySeeAllStudentsOf } from '@ops/shared/rules/trainings/policy';
import { uuidv7 } from '@ops/shared';
import {
  type AttendanceStatus,
  attendedFlag,
  defaultDeadline,
  isLate,
  type JustificationStatus,
  justificationRefusal,
  statusAfterJustification,
} from '@ops/shared/rules/trainings/attendance';
import type { AppContext } from '../../../context.ts';
import type { UnitOfWork } from '../../../db/unit-of-work.ts';
import type { Actor } from '../../../http/actor.ts';
import { badRequest, forbidden, HttpError, notFound, validationFailed } from '../../../http/errors.ts';
import { nowSeconds } from '../../../lib/tokens.ts';
import { notify } from '../../notifications/notifications.notify.ts';
import { attachUploads, type UploadModel } from '../../uploads/attachments.service.ts';
import { classStudent, presentClass, requireClass, type SessionRow } from './classes.service.ts';
import type { TrainingClassworkGradesTable, TrainingJustificationsTable } from './classes.tables.ts';
import { type Db, num, requireTraining, stamp } from '../trainings.repository.ts';

/**
 * Justifications of absences and class work (Part B 2.8, 3.4; docs/areas/trainings.md).
 * Uploads of both are attached to the student's row of the class
 * (`training_session_students.id`) under the models `SessionJustification` and
 * `SessionClasswork`, tagged the same, with the `deadline` and `late` fields of
 * Part A 2.11 set when the student hands them in.
 */

export const JUSTIFICATION_MODEL = 'SessionJustification';
export const CLASSWORK_MODEL = 'SessionClasswork';

/** Everyone who sees every student of the class: the teacher, managers, instructors (<= 150). */

const liveSessionStudent = {
  async exists(db: Db, companyId: string, id: string) {
    const row = await db
      .selectFrom('training_session_students')
      .select('id')
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return !!row;
  },
  /** The files of a student's row follow the class work and justification lists: the student, the teacher and staff (`maySeeAllStudentsOf`). */
  async visibleTo(db: Db, actor: Actor, foreignKeys: readonly string[]) {
    if (foreignKeys.length === 0) return new Set<string>();
    const rows = await db
      .selectFrom('training_session_students as s')
      .innerJoin('training_sessions as c', (j) =>
        j.onRef('c.id', '=', 's.session_id').onRef('c.company_id', '=', 's.company_id'),
      )
      .select(['s.id', 's.user_id', 'c.teacher_id'])
      .where('s.company_id', '=', actor.companyId)
      .where('s.id', 'in', [...new Set(foreignKeys)])
      .execute();
    return new Set(rows.filter((r) => r.user_id === actor.userId || maySeeAllStudentsOf(actor, r)).map((r) => r.id));
  },
};
/** Upload models of class work and justifications (the trainings manifest lists them). */
export const classUploadModels: Record<string, UploadModel> = {
  [JUSTIFICATION_MODEL]: liveSessionStudent,
  [CLASSWORK_MODEL]: liveSessionStudent,
};

async function ownRow(ctx: AppContext, actor: Actor, c: SessionRow) {
  const row = await classStudent(ctx.db, actor.companyId, c.id, actor.userId);
  if (!row) throw forbidden(english('trainings.errNotStudent'));
  return row;
}

/** Tags an attached upload and stamps its deadline and late flag. */
async function tagUpload(
  uow: UnitOfWork,
  actor: Actor,
  uploadId: string,
  model: string,
  deadline: number | null,
  late: boolean,
) {
  await uow.trx
    .updateTable('uploads')
    .set({ tag: model, deadline, late: late ? 1 : 0, ...(await stamp(uow, actor.companyId, 'uploads')) })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', uploadId)
    .execute();
}

async function uploadRefs(db: Db, companyId: string, ids: string[]) {
  if (!ids.length)
    return new Map<
      string,
      {
        id: string;
        filename: string;
        mime: string;
        created: number;
        deadline: number | null;
        late: boolean;
        foreign_key: string | null;
        model: string | null;
      }
    >();
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'filename', 'mime', 'created', 'deadline', 'late', 'foreign_key', 'model'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .where('deleted', '=', 0)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        filename: r.filename,
        mime: r.mime,
        created: num(r.created),
        deadline: r.deadline === null ? null : num(r.deadline),
        late: num(r.late) === 1,
        foreign_key: r.foreign_key,
        model: r.model,
      },
    ]),
  );
}
const uploadOut = (u: {
  id: string;
  filename: string;
  mime: string;
  created: number;
  deadline: number | null;
  late: boolean;
}) => ({
  id: u.id,
  filename: u.filename,
  mime: u.mime,
  created: u.created,
  deadline: u.deadline,
  late: u.late,
});

async function presentJustifications(db: Db, companyId: string, c: SessionRow, rows: TrainingJustificationsTable[]) {
  const uploads = await uploadRefs(
    db,
    companyId,
    rows.map((r) => r.upload_id).filter((v): v is string => !!v),
  );
  return rows.map((j) => {
    const u = j.upload_id ? uploads.get(j.upload_id) : undefined;
    return {
      id: j.id,
      class_id: j.session_id,
      session_student_id: j.session_student_id,
      user_id: j.user_id,
      text: j.text,
      upload_id: j.upload_id,
      Upload: u ? uploadOut(u) : null,
      status: j.status as JustificationStatus,
      reviewed_by: j.reviewed_by,
      reviewed_at: j.reviewed_at === null ? null : num(j.reviewed_at),
      review_note: j.review_note,
      deadline: c.justification_deadline === null ? null : num(c.justification_deadline),
      late: isLate(num(j.created), c.justification_deadline === null ? null : num(c.justification_deadline)),
      created: num(j.created),
      modified: num(j.modified),
    };
  });
}

/**
 * POST /trainings/onsite/justifications/submit.json: the student justifies an
 * absence (or an undecided attendance) before the class's justification
 * deadline. A pending justification is replaced by a new submission; an
 * approved one closes the matter; after a rejection the student may submit again.
 */
export async function submitJustification(
  ctx: AppContext,
  actor: Actor,
  input: { class_id: string; text: string; upload_id?: string | null },
) {
  const c = await requireClass(ctx.db, actor.companyId, input.class_id);
  const row = await ownRow(ctx, actor, c);
  const status = row.attendance_status as AttendanceStatus | null;
  const deadline = c.justification_deadline === null ? null : num(c.justification_deadline);
  const refusal = justificationRefusal(status, nowSeconds(), deadline);
  if (refusal) throw badRequest(refusal.message, { code: refusal.code });
  const previous = await ctx.db
    .selectFrom('training_justifications')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('session_student_id', '=', row.id)
    .where('deleted', '=', 0)
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirst();
  if (previous?.status === 'approved')
    throw badRequest(english('trainings.refAlreadyJustified'), { code: 'ALREADY_JUSTIFIED' });
  const id = previous?.id ?? uuidv7();
  await ctx.tx(async (uow) => {
    if (input.upload_id) {
      const attached = await attachUploads(uow, actor, JUSTIFICATION_MODEL, row.id, [input.upload_id]);
      if (!attached.length) throw validationFailed({ upload_id: ['Unknown or unfinished upload'] });
      await tagUpload(uow, actor, input.upload_id, JUSTIFICATION_MODEL, deadline, false);
    }
    const st = await stamp(uow, actor.companyId, 'training_justifications');
    if (previous) {
      await uow.trx
        .updateTable('training_justifications')
        .set({ text: input.text, upload_id: input.upload_id ?? previous.upload_id, ...st })
        .where('id', '=', id)
        .execute();
    } else {
      await uow.trx
        .insertInto('training_justifications')
        .values({
          id,
          company_id: actor.companyId,
          deleted: 0,
          created: st.modified,
          ...st,
          session_student_id: row.id,
          session_id: c.id,
          user_id: actor.userId,
          upload_id: input.upload_id ?? null,
          text: input.text,
          status: 'pending',
          reviewed_by: null,
          reviewed_at: null,
          review_note: null,
        })
        .execute();
    }
    if (c.teacher_id)
      await notify(uow, {
        companyId: actor.companyId,
        userIds: [c.teacher_id],
        title: english('trainings.notifyJustificationFrom', { name: `${actor.name} ${actor.surname}` }),
        titleId: 'trainings.notifyJustificationFrom',
        titleValues: { name: `${actor.name} ${actor.surname}` },
        body: input.text.slice(0, 200),
        link: `/trainings/onsite/class/${c.id}`,
      });
  });
  const saved = await ctx.db
    .selectFrom('training_justifications')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    result: true as const,
    Justification: (await presentJustifications(ctx.db, actor.companyId, c, [saved]))[0],
    attendance_status: status,
  };
}

/** POST /trainings/onsite/justifications/review.json: the teacher or a manager decides a pending justification. */
export async function reviewJustification(
  ctx: AppContext,
  actor: Actor,
  input: { id: string; status: 'approved' | 'rejected'; review_note?: string | null },
) {
  const j = await ctx.db
    .selectFrom('training_justifications')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', input.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!j) throw notFound(english('trainings.errJustificationNotFound'));
  const c = await requireClass(ctx.db, actor.companyId, j.session_id);
  if (!mayRunClass(actor, c)) throw forbidden(english('trainings.errReviewJustifications'));
  if (j.status !== 'pending')
    throw new HttpError(400, {
      result: false,
      ...said('trainings.errJustificationAlready', { status: j.status }),
      code: 'ALREADY_REVIEWED',
    });
  const now = nowSeconds();
  const status = await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('training_justifications')
      .set({
        status: input.status,
        reviewed_by: actor.userId,
        reviewed_at: now,
        review_note: input.review_note ?? null,
        ...(await stamp(uow, actor.companyId, 'training_justifications')),
      })
      .where('id', '=', j.id)
      .execute();
    const row = await uow.trx
      .selectFrom('training_session_students')
      .select(['id', 'attendance_status'])
      .where('id', '=', j.session_student_id)
      .executeTakeFirstOrThrow();
    const before = row.attendance_status as AttendanceStatus | null;
    const after = statusAfterJustification(before, input.status);
    // An approval amends even a signed class: the justification record keeps who decided and when.
    if (after !== before) {
      await uow.trx
        .updateTable('training_session_students')
        .set({
          attendance_status: after,
          attended: attendedFlag(after) ? 1 : 0,
          ...(await stamp(uow, actor.companyId, 'training_session_students')),
        })
        .where('id', '=', row.id)
        .execute();
    }
    await notify(uow, {
      companyId: actor.companyId,
      userIds: [j.user_id],
      title: english('trainings.notifyJustification', { status: input.status }),
      titleId: 'trainings.notifyJustification',
      titleValues: { status: input.status },
      body: input.review_note ?? null,
      link: `/trainings/onsite/class/${c.id}`,
    });
    return after;
  });
  const saved = await ctx.db
    .selectFrom('training_justifications')
    .selectAll()
    .where('id', '=', j.id)
    .executeTakeFirstOrThrow();
  return {
    result: true as const,
    Justification: (await presentJustifications(ctx.db, actor.companyId, c, [saved]))[0],
    attendance_status: status,
  };
}

/** GET /trainings/onsite/justifications/{classId}.json: all of the class (teacher, staff <= 150) or the caller's own, newest first. */
export async function listJustifications(ctx: AppContext, actor: Actor, classId: string) {
  const c = await requireClass(ctx.db, actor.companyId, classId);
  let q = ctx.db
    .selectFrom('training_justifications')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('session_id', '=', c.id)
    .where('deleted', '=', 0);
  if (!maySeeAllStudentsOf(actor, c)) {
    await ownRow(ctx, actor, c);
    q = q.where('user_id', '=', actor.userId);
  }
  const rows = await q.orderBy('created', 'desc').orderBy('id', 'desc').execute();
  return { justifications: await presentJustifications(ctx.db, actor.companyId, c, rows) };
}

// ---- Class work ----

/**
 * POST /trainings/onsite/classwork/request.json: the teacher or a manager asks
 * for class work (description, deadline: default from the training). With
 * `notify` the students get an in-app notification once (`classwork_notified_at`).
 */
export async function requestClasswork(
  ctx: AppContext,
  actor: Actor,
  input: {
    class_id: string;
    classwork_description?: string | null;
    classwork_deadline?: number | null;
    notify?: boolean;
  },
) {
  const c = await requireClass(ctx.db, actor.companyId, input.class_id);
  if (!mayRunClass(actor, c)) throw forbidden(english('trainings.errRequestClasswork'));
  const training = await requireTraining(ctx.db, actor.companyId, c.training_id);
  const deadline =
    input.classwork_deadline !== undefined
      ? input.classwork_deadline
      : (c.classwork_deadline ?? defaultDeadline(num(c.datetime), num(training.classwork_deadline_default_days)));
  const notified = await ctx.tx(async (uow) => {
    const now = nowSeconds();
    const first = !!input.notify && c.classwork_notified_at === null;
    await uow.trx
      .updateTable('training_sessions')
      .set({
        allow_classwork_upload: 1,
        classwork_deadline: deadline,
        classwork_description:
          input.classwork_description !== undefined ? input.classwork_description : c.classwork_description,
        ...(first ? { classwork_notified_at: now } : {}),
        ...(await stamp(uow, actor.companyId, 'training_sessions')),
      })
      .where('id', '=', c.id)
      .execute();
    if (!first) return 0;
    const students = await uow.trx
      .selectFrom('training_session_students')
      .select('user_id')
      .where('session_id', '=', c.id)
      .where('company_id', '=', actor.companyId)
      .where('deleted', '=', 0)
      .execute();
    return notify(uow, {
      companyId: actor.companyId,
      userIds: students.map((s) => s.user_id),
      title: english('trainings.notifyClassworkRequested'),
      titleId: 'trainings.notifyClassworkRequested',
      body: input.classwork_description ?? c.classwork_description ?? null,
      link: `/trainings/onsite/class/${c.id}`,
    });
  });
  return {
    result: true as const,
    notified,
    Class: await presentClass(ctx.db, actor.companyId, await requireClass(ctx.db, actor.companyId, c.id), null),
  };
}

/** POST /trainings/onsite/classwork/submit.json: a student hands in an upload; after the deadline it is accepted and flagged late. */
export async function submitClasswork(ctx: AppContext, actor: Actor, input: { class_id: string; upload_id: string }) {
  const c = await requireClass(ctx.db, actor.companyId, input.class_id);
  const row = await ownRow(ctx, actor, c);
  if (!num(c.allow_classwork_upload))
    throw badRequest(english('trainings.errNoClasswork'), { code: 'CLASSWORK_CLOSED' });
  const deadline = c.classwork_deadline === null ? null : num(c.classwork_deadline);
  const late = isLate(nowSeconds(), deadline);
  await ctx.tx(async (uow) => {
    const attached = await attachUploads(uow, actor, CLASSWORK_MODEL, row.id, [input.upload_id]);
    if (!attached.length) throw validationFailed({ upload_id: ['Unknown or unfinished upload'] });
    await tagUpload(uow, actor, input.upload_id, CLASSWORK_MODEL, deadline, late);
  });
  const u = (await uploadRefs(ctx.db, actor.companyId, [input.upload_id])).get(input.upload_id);
  if (!u) throw notFound('Upload not found');
  return { result: true as const, Upload: uploadOut(u) };
}

const gradeOut = (g: TrainingClassworkGradesTable) => ({
  id: g.id,
  session_student_id: g.session_student_id,
  user_id: g.user_id,
  upload_id: g.upload_id,
  score: Math.round(Number(g.score) * 10) / 10,
  feedback: g.feedback,
  graded_by: g.graded_by,
  graded_at: num(g.graded_at),
  created: num(g.created),
  modified: num(g.modified),
});

/** POST /trainings/onsite/classwork/grade.json: one grade per student of the class (saved again it is replaced). */
export async function gradeClasswork(
  ctx: AppContext,
  actor: Actor,
  input: { class_id: string; user_id: string; score: number; feedback?: string | null; upload_id?: string | null },
) {
  const c = await requireClass(ctx.db, actor.companyId, input.class_id);
  if (!mayRunClass(actor, c)) throw forbidden(english('trainings.errGradeClasswork'));
  const row = await classStudent(ctx.db, actor.companyId, c.id, input.user_id);
  if (!row) throw validationFailed({ user_id: ['Not a student of this class'] });
  if (input.upload_id) {
    const u = (await uploadRefs(ctx.db, actor.companyId, [input.upload_id])).get(input.upload_id);
    if (!u || u.model !== CLASSWORK_MODEL || u.foreign_key !== row.id)
      throw validationFailed({ upload_id: ['Not class work of this student'] });
  }
  const now = nowSeconds();
  await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_classwork_grades');
    const existing = await uow.trx
      .selectFrom('training_classwork_grades')
      .select('id')
      .where('session_student_id', '=', row.id)
      .executeTakeFirst();
    const fields = {
      score: input.score,
      feedback: input.feedback ?? null,
      upload_id: input.upload_id ?? null,
      graded_by: actor.userId,
      graded_at: now,
    };
    if (existing)
      await uow.trx
        .updateTable('training_classwork_grades')
        .set({ ...fields, deleted: 0, ...st })
        .where('id', '=', existing.id)
        .execute();
    else
      await uow.trx
        .insertInto('training_classwork_grades')
        .values({
          id: uuidv7(),
          company_id: actor.companyId,
          deleted: 0,
          created: st.modified,
          ...st,
          session_student_id: row.id,
          session_id: c.id,
          user_id: input.user_id,
          ...fields,
        })
        .execute();
    await notify(uow, {
      companyId: actor.companyId,
      userIds: [input.user_id],
      title: english('trainings.notifyClassworkGraded', { score: input.score }),
      titleId: 'trainings.notifyClassworkGraded',
      titleValues: { score: input.score },
      body: input.feedback ?? null,
      link: `/trainings/onsite/class/${c.id}`,
    });
  });
  const g = await ctx.db
    .selectFrom('training_classwork_grades')
    .selectAll()
    .where('session_student_id', '=', row.id)
    .executeTakeFirstOrThrow();
  return { result: true as const, Grade: gradeOut(g) };
}

/** GET /trainings/onsite/classwork/{classId}.json: per student their class work uploads and grade (a student: their own). */
export async function listClasswork(ctx: AppContext, actor: Actor, classId: string) {
  const c = await requireClass(ctx.db, actor.companyId, classId);
  let q = ctx.db
    .selectFrom('training_session_students as ss')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'ss.user_id').onRef('u.company_id', '=', 'ss.company_id'))
    .select(['ss.id', 'ss.user_id', 'u.name', 'u.surname'])
    .where('ss.company_id', '=', actor.companyId)
    .where('ss.session_id', '=', c.id)
    .where('ss.deleted', '=', 0);
  if (!maySeeAllStudentsOf(actor, c)) {
    await ownRow(ctx, actor, c);
    q = q.where('ss.user_id', '=', actor.userId);
  }
  const rows = await q.orderBy('u.surname').orderBy('u.name').orderBy('ss.id').execute();
  const ids = rows.map((r) => r.id);
  const uploads = ids.length
    ? await ctx.db
        .selectFrom('uploads')
        .select(['id', 'filename', 'mime', 'created', 'deadline', 'late', 'foreign_key'])
        .where('company_id', '=', actor.companyId)
        .where('model', '=', CLASSWORK_MODEL)
        .where('foreign_key', 'in', ids)
        .where('deleted', '=', 0)
        .where('active', '=', 1)
        .orderBy('created')
        .orderBy('id')
        .execute()
    : [];
  const grades = ids.length
    ? await ctx.db
        .selectFrom('training_classwork_grades')
        .selectAll()
        .where('session_student_id', 'in', ids)
        .where('deleted', '=', 0)
        .execute()
    : [];
  const gradeBy = new Map(grades.map((g) => [g.session_student_id, g]));
  return {
    allow_classwork_upload: !!num(c.allow_classwork_upload),
    classwork_deadline: c.classwork_deadline === null ? null : num(c.classwork_deadline),
    classwork_description: c.classwork_description,
    students: rows.map((r) => {
      const mine = uploads
        .filter((u) => u.foreign_key === r.id)
        .map((u) =>
          uploadOut({
            id: u.id,
            filename: u.filename,
            mime: u.mime,
            created: num(u.created),
            deadline: u.deadline === null ? null : num(u.deadline),
            late: num(u.late) === 1,
          }),
        );
      const g = gradeBy.get(r.id);
      return {
        session_student_id: r.id,
        user_id: r.user_id,
        name: [r.name, r.surname].filter(Boolean).join(' ') || null,
        uploads: mine,
        late: mine.length > 0 && mine.every((u) => u.late),
        Grade: g ? gradeOut(g) : null,
      };
    }),
  };
}
