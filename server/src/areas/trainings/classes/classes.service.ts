import { DEFAULT_LOCALE, formatInstant, localeOf, translator } from '@ops/shared/i18n/index';
import { english } from '../../../http/messages.ts';
import { companyFormats } from '../../company/company.repository.ts';
import { maySeeAllStudentsOf } from '@ops/shared/rules/trainings/policy';
import { uuidv7 } from '@ops/shared';
import { type AttendanceStatus, defaultDeadline } from '@ops/shared/rules/trainings/attendance';
import type { AppContext } from '../../../context.ts';
import type { Actor } from '../../../http/actor.ts';
import { badRequest, forbidden, notFound, validationFailed } from '../../../http/errors.ts';
import type { OutgoingMail } from '../../../mail/mailer.ts';
import { notify } from '../../notifications/notifications.notify.ts';
import './classes.tables.ts';
import { bool, chunks, type Db, num, requireTraining, stamp } from '../trainings.repository.ts';
import type { TrainingSessionsTable } from '../trainings.tables.ts';

/**
 * Classes (Part B 4.7 item 15): a class is one `training_sessions` row with its
 * invited students (`training_session_students`). Managers (roles <= 135)
 * schedule and delete; the class teacher, managers and instructors (<= 150)
 * see every student of it; an invited student sees the class with their own row.
 */

export type SessionRow = TrainingSessionsTable;

export async function requireClass(db: Db, companyId: string, id: string): Promise<SessionRow> {
  const c = await db
    .selectFrom('training_sessions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!c) throw notFound(english('trainings.errClassNotFound'));
  return c;
}

/** A live student row of the class, or null. */
export async function classStudent(db: Db, companyId: string, classId: string, userId: string) {
  return (
    (await db
      .selectFrom('training_session_students')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('session_id', '=', classId)
      .where('user_id', '=', userId)
      .where('deleted', '=', 0)
      .executeTakeFirst()) ?? null
  );
}

/** Who sees which rows of a class: `all` for staff and the teacher, `own` for an invited student; 403 otherwise. */
export async function classVisibility(db: Db, actor: Actor, c: SessionRow): Promise<'all' | 'own'> {
  if (maySeeAllStudentsOf(actor, c)) return 'all';
  if (await classStudent(db, actor.companyId, c.id, actor.userId)) return 'own';
  throw forbidden(english('trainings.errNotInvited'));
}

const fullName = (u: { name: string | null; surname: string | null } | undefined) =>
  u ? [u.name, u.surname].filter(Boolean).join(' ') : null;

/** GET /trainings/onsite/class/{id}.json body (docs/areas/trainings.md). */
export async function classView(ctx: AppContext, actor: Actor, id: string) {
  const c = await requireClass(ctx.db, actor.companyId, id);
  const scope = await classVisibility(ctx.db, actor, c);
  return { Class: await presentClass(ctx.db, actor.companyId, c, scope === 'own' ? actor.userId : null) };
}

export async function presentClass(db: Db, companyId: string, c: SessionRow, onlyUser: string | null) {
  const training = await db
    .selectFrom('trainings')
    .select(['id', 'name', 'color'])
    .where('id', '=', c.training_id)
    .executeTakeFirst();
  const subject = await db
    .selectFrom('training_subjects')
    .select(['id', 'name'])
    .where('id', '=', c.subject_id)
    .executeTakeFirst();
  const lesson = c.lesson_id
    ? await db.selectFrom('training_lessons').select(['id', 'name']).where('id', '=', c.lesson_id).executeTakeFirst()
    : undefined;
  const exam = c.exam_id
    ? await db
        .selectFrom('training_exams')
        .select(['id', 'name', 'type'])
        .where('id', '=', c.exam_id)
        .executeTakeFirst()
    : undefined;
  const location = c.location_id
    ? await db
        .selectFrom('training_locations')
        .select(['id', 'name', 'type', 'timezone_id'])
        .where('company_id', '=', companyId)
        .where('id', '=', c.location_id)
        .executeTakeFirst()
    : undefined;
  let sq = db
    .selectFrom('training_session_students as ss')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'ss.user_id').onRef('u.company_id', '=', 'ss.company_id'))
    .select([
      'ss.id',
      'ss.user_id',
      'ss.enrollment_id',
      'ss.invited',
      'ss.attended',
      'ss.attendance_status',
      'ss.missed_email_sent_at',
      'ss.attendance_notified_at',
      'u.name',
      'u.surname',
    ])
    .where('ss.company_id', '=', companyId)
    .where('ss.session_id', '=', c.id)
    .where('ss.deleted', '=', 0);
  if (onlyUser) sq = sq.where('ss.user_id', '=', onlyUser);
  const students = await sq.orderBy('u.surname').orderBy('u.name').orderBy('ss.id').execute();
  const people = [c.teacher_id, c.signed_by].filter((v): v is string => !!v);
  const users = people.length
    ? await db
        .selectFrom('users')
        .select(['id', 'name', 'surname'])
        .where('company_id', '=', companyId)
        .where('id', 'in', people)
        .execute()
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return {
    id: c.id,
    training_id: c.training_id,
    training_subject_id: c.subject_id,
    training_subject_lesson_id: c.lesson_id,
    training_subject_exam_id: c.exam_id,
    activity_id: c.activity_id,
    datetime: num(c.datetime),
    minutes: num(c.minutes),
    teacher_id: c.teacher_id,
    teacher_name: fullName(c.teacher_id ? byId.get(c.teacher_id) : undefined),
    location_id: c.location_id,
    remarks: c.remarks,
    allow_classwork_upload: bool(c.allow_classwork_upload),
    classwork_deadline: c.classwork_deadline === null ? null : num(c.classwork_deadline),
    classwork_description: c.classwork_description,
    classwork_notified_at: c.classwork_notified_at === null ? null : num(c.classwork_notified_at),
    justification_deadline: c.justification_deadline === null ? null : num(c.justification_deadline),
    signed_at: c.signed_at === null ? null : num(c.signed_at),
    signed_by: c.signed_by,
    signed_by_name: fullName(c.signed_by ? byId.get(c.signed_by) : undefined),
    Training: training ?? null,
    Subject: subject ?? null,
    Lesson: lesson ?? null,
    Exam: exam ?? null,
    Location: location ?? null,
    SessionStudent: students.map((s) => ({
      id: s.id,
      user_id: s.user_id,
      enrollment_id: s.enrollment_id,
      name: fullName(s),
      invited: bool(s.invited),
      attended: bool(s.attended),
      attendance_status: s.attendance_status as AttendanceStatus | null,
      missed_email_sent_at: s.missed_email_sent_at === null ? null : num(s.missed_email_sent_at),
      attendance_notified_at: s.attendance_notified_at === null ? null : num(s.attendance_notified_at),
    })),
  };
}

export interface ClassInput {
  id?: string;
  training_subject_id: string;
  training_subject_lesson_id?: string | null;
  training_subject_exam_id?: string | null;
  start: number;
  minutes?: number;
  teacher_id: string;
  location_id?: string | null;
  remarks?: string | null;
  notify?: boolean;
  students: string[];
  allow_classwork_upload?: boolean;
  classwork_deadline?: number | null;
  classwork_description?: string | null;
  justification_deadline?: number | null;
}

/**
 * POST /manager/trainings/onsite/class.json: create (no `id`) or update. The
 * students list replaces the invited students: rows of students no longer
 * listed are removed, new ones are added with their unfinished enrollment of
 * the training. A signed class is not edited (unsign first). Deadlines left
 * out default from the training's day counts (defaultDeadline); on update a
 * deadline left out keeps its value. `notify` invites the newly listed
 * students (in-app notification and mail).
 */
export async function saveClass(ctx: AppContext, actor: Actor, input: ClassInput) {
  const db = ctx.db;
  const existing = input.id ? await requireClass(db, actor.companyId, input.id) : null;
  if (existing?.signed_at != null)
    throw badRequest(english('trainings.errSignedChange'), {
      code: 'CLASS_SIGNED',
    });
  const subject = await db
    .selectFrom('training_subjects')
    .select(['id', 'training_id', 'name'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', input.training_subject_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!subject) throw notFound(english('trainings.errSubjectNotFound'));
  if (existing && existing.subject_id !== subject.id && existing.training_id !== subject.training_id)
    throw validationFailed({ training_subject_id: ['A class stays in its training'] });
  const training = await requireTraining(db, actor.companyId, subject.training_id);
  const errors: Record<string, string[]> = {};
  if (input.training_subject_lesson_id && input.training_subject_exam_id)
    errors.training_subject_exam_id = ['A class holds one activity: a lesson or an exam'];
  let activityId: string | null = null;
  let activityMinutes: number | null = null;
  let activityName = subject.name;
  if (input.training_subject_lesson_id) {
    const l = await db
      .selectFrom('training_lessons')
      .select(['id', 'minutes', 'name'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.training_subject_lesson_id)
      .where('subject_id', '=', subject.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!l) errors.training_subject_lesson_id = ['Not a lesson of this subject'];
    else {
      activityMinutes = num(l.minutes);
      activityName = l.name;
    }
  }
  if (input.training_subject_exam_id) {
    const e = await db
      .selectFrom('training_exams')
      .select(['id', 'minutes', 'name'])
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.training_subject_exam_id)
      .where('subject_id', '=', subject.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!e) errors.training_subject_exam_id = ['Not an exam of this subject'];
    else {
      activityMinutes = num(e.minutes);
      activityName = e.name;
    }
  }
  const entity = input.training_subject_lesson_id ?? input.training_subject_exam_id ?? null;
  if (entity) {
    const a = await db
      .selectFrom('training_activities')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('subject_id', '=', subject.id)
      .where('entity_id', '=', entity)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    activityId = a?.id ?? null;
  }
  const teacher = await db
    .selectFrom('users')
    .select(['id', 'name', 'surname'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', input.teacher_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!teacher) errors.teacher_id = ['Unknown teacher'];
  let location: { name: string } | undefined;
  if (input.location_id) {
    location = await db
      .selectFrom('training_locations')
      .select('name')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.location_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!location) errors.location_id = ['Unknown location'];
  }
  const studentIds = [...new Set(input.students)];
  if (!studentIds.length) errors.students = ['At least one student'];
  if (studentIds.length > 500) errors.students = ['At most 500 students'];
  // Each student needs an unfinished enrollment in the training.
  const enrollments = new Map<string, string>();
  for (const part of chunks(studentIds)) {
    const rows = await db
      .selectFrom('training_enrollments')
      .select(['id', 'user_id'])
      .where('company_id', '=', actor.companyId)
      .where('training_id', '=', training.id)
      .where('user_id', 'in', part)
      .where('finished', '=', 0)
      .where('deleted', '=', 0)
      .execute();
    for (const r of rows) enrollments.set(r.user_id, r.id);
  }
  const unknown = studentIds.filter((u) => !enrollments.has(u));
  if (unknown.length && !errors.students)
    errors.students = [`Not enrolled in the training: ${unknown.slice(0, 10).join(', ')}`];
  if (Object.keys(errors).length) throw validationFailed(errors);

  const minutes = input.minutes ?? (existing ? num(existing.minutes) : activityMinutes || 60);
  const pick = (given: number | null | undefined, kept: number | null | undefined, days: number) =>
    given !== undefined ? given : existing ? (kept ?? null) : defaultDeadline(input.start, days);
  const classworkDeadline = pick(
    input.classwork_deadline,
    existing?.classwork_deadline,
    num(training.classwork_deadline_default_days),
  );
  const justificationDeadline = pick(
    input.justification_deadline,
    existing?.justification_deadline,
    num(training.justification_deadline_default_days),
  );
  const id = existing?.id ?? uuidv7();

  const invitedNow = await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_sessions');
    const fields = {
      training_id: training.id,
      subject_id: subject.id,
      activity_id: activityId,
      lesson_id: input.training_subject_lesson_id || null,
      exam_id: input.training_subject_exam_id || null,
      datetime: input.start,
      minutes,
      teacher_id: input.teacher_id,
      location_id: input.location_id || null,
      // The form is the whole class: an omitted location or remark clears it (the class work fields keep theirs).
      remarks: input.remarks ?? null,
      allow_classwork_upload: (input.allow_classwork_upload ?? bool(existing?.allow_classwork_upload)) ? 1 : 0,
      classwork_deadline: classworkDeadline,
      classwork_description:
        input.classwork_description !== undefined
          ? input.classwork_description
          : (existing?.classwork_description ?? null),
      justification_deadline: justificationDeadline,
    };
    if (existing) {
      await uow.trx
        .updateTable('training_sessions')
        .set({ ...fields, ...st })
        .where('id', '=', id)
        .where('company_id', '=', actor.companyId)
        .execute();
    } else {
      await uow.trx
        .insertInto('training_sessions')
        .values({
          id,
          company_id: actor.companyId,
          deleted: 0,
          created: st.modified,
          ...st,
          ...fields,
          classwork_notified_at: null,
          signed_at: null,
          signed_by: null,
        })
        .execute();
    }
    const current = await uow.trx
      .selectFrom('training_session_students')
      .select(['id', 'user_id', 'deleted'])
      .where('company_id', '=', actor.companyId)
      .where('session_id', '=', id)
      .execute();
    const byUser = new Map(current.map((r) => [r.user_id, r]));
    const sst = await stamp(uow, actor.companyId, 'training_session_students');
    const removed = current.filter((r) => r.deleted === 0 && !studentIds.includes(r.user_id)).map((r) => r.id);
    for (const part of chunks(removed))
      await uow.trx
        .updateTable('training_session_students')
        .set({ deleted: 1, ...sst })
        .where('id', 'in', part)
        .execute();
    // The `training` collection files class_student, grade and justification rows under the class teacher: a new teacher must receive them.
    if (existing && existing.teacher_id !== input.teacher_id) {
      await uow.trx
        .updateTable('training_session_students')
        .set(sst)
        .where('company_id', '=', actor.companyId)
        .where('session_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
      const gst = await stamp(uow, actor.companyId, 'training_classwork_grades');
      await uow.trx
        .updateTable('training_classwork_grades')
        .set(gst)
        .where('company_id', '=', actor.companyId)
        .where('session_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
      const jst = await stamp(uow, actor.companyId, 'training_justifications');
      await uow.trx
        .updateTable('training_justifications')
        .set(jst)
        .where('company_id', '=', actor.companyId)
        .where('session_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
    }
    const added: string[] = [];
    for (const userId of studentIds) {
      const row = byUser.get(userId);
      if (row && row.deleted === 0) continue;
      added.push(userId);
      if (row) {
        // A student listed again gets a fresh row state (the unique index keeps one row per class and student).
        await uow.trx
          .updateTable('training_session_students')
          .set({
            deleted: 0,
            invited: 1,
            attended: 0,
            attendance_status: null,
            enrollment_id: enrollments.get(userId) ?? null,
            ...sst,
          })
          .where('id', '=', row.id)
          .execute();
      } else {
        await uow.trx
          .insertInto('training_session_students')
          .values({
            id: uuidv7(),
            company_id: actor.companyId,
            deleted: 0,
            created: sst.modified,
            ...sst,
            session_id: id,
            user_id: userId,
            enrollment_id: enrollments.get(userId) ?? null,
            invited: 1,
            attended: 0,
            attendance_status: null,
            missed_email_sent_at: null,
            attendance_notified_at: null,
          })
          .execute();
      }
    }
    if (input.notify && added.length) {
      await notify(uow, {
        companyId: actor.companyId,
        userIds: added,
        title: english('trainings.notifyClass', { activity: activityName }),
        titleId: 'trainings.notifyClass',
        titleValues: { activity: activityName },
        body: `${training.name} · ${subject.name}`,
        link: `/trainings/onsite/class/${id}`,
      });
    }
    return input.notify ? added : [];
  });

  if (invitedNow.length) {
    const when = await mailDates(db, actor.companyId);
    const recipients = await db
      .selectFrom('users')
      .select(['email', 'name', 'language'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', invitedNow)
      .where('deleted', '=', 0)
      .execute();
    const mails: OutgoingMail[] = recipients
      .filter((r): r is { email: string; name: string; language: string } => !!r.email)
      .map((r) => ({
        to: r.email,
        template: 'class_invitation',
        companyId: actor.companyId,
        data: {
          name: r.name,
          subject: subject.name,
          activity: activityName,
          training: training.name,
          when: when(input.start, r.language),
          minutes,
          place: location ? translator(r.language)('trainings.mailPlace', { place: location.name }) : '',
          teacher: fullName(teacher) ?? '',
        },
      }));
    for (const m of mails) await ctx.mailer.send(m);
  }
  const saved = await requireClass(db, actor.companyId, id);
  return {
    result: true as const,
    id,
    invited: invitedNow.length,
    Class: await presentClass(db, actor.companyId, saved, null),
  };
}

/** GET /manager/trainings/onsite/delete_class/{id}/true.json: removes an unsigned class and its student rows. */
export async function deleteClass(ctx: AppContext, actor: Actor, id: string) {
  const c = await requireClass(ctx.db, actor.companyId, id);
  if (c.signed_at != null)
    throw badRequest(english('trainings.errSignedDelete'), {
      code: 'CLASS_SIGNED',
    });
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('training_sessions')
      .set({ deleted: 1, ...(await stamp(uow, actor.companyId, 'training_sessions')) })
      .where('id', '=', id)
      .where('company_id', '=', actor.companyId)
      .execute();
    await uow.trx
      .updateTable('training_session_students')
      .set({ deleted: 1, ...(await stamp(uow, actor.companyId, 'training_session_students')) })
      .where('session_id', '=', id)
      .where('company_id', '=', actor.companyId)
      .where('deleted', '=', 0)
      .execute();
  });
  return { result: true as const, id };
}

/**
 * An instant as a mail's recipient reads it (issue 33): the company's date and
 * time formats and zone, the recipient's language, and the zone's short name.
 */
export async function mailDates(db: Db, companyId: string): Promise<(unix: number, language: string | null) => string> {
  const f = await companyFormats(db, companyId);
  return (unix, language) => formatInstant(unix, localeOf(language) ?? DEFAULT_LOCALE, f);
}
