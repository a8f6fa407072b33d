import { english, said } from '../../http/messages.ts';
import { mayReadStudentWork, maySeeAllStudentsOf, maySeeEnrollment } from '@ops/shared/rules/trainings/policy';
import { uuidv7 } from '@ops/shared';
import { attemptAllowed, gradeAttempt } from '@ops/shared/rules/trainings/grading';
import { attemptsAfterReset } from '@ops/shared/rules/trainings/progress';
import type { AppContext } from '../../context.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { bool, num, requireEnrollment, stamp, teaches } from './trainings.repository.ts';
import { ensureActivity, presentExam, requireSubject } from './subjects.service.ts';

async function requireLesson(ctx: AppContext, companyId: string, id: string) {
  const l = await ctx.db
    .selectFrom('training_lessons as l')
    .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'l.subject_id').on('s.deleted', '=', 0))
    .selectAll('l')
    .select(['s.teacher_id', 's.name as subject_name'])
    .where('l.company_id', '=', companyId)
    .where('l.id', '=', id)
    .where('l.deleted', '=', 0)
    .executeTakeFirst();
  if (!l) throw notFound(english('trainings.errLessonNotFound'));
  return l;
}

/** Students read a lesson of a training they are enrolled in; staff (<= 150) and the subject's teacher read any. */
async function requireLessonReader(
  ctx: AppContext,
  actor: Actor,
  lesson: { training_id: string; teacher_id: string | null },
) {
  if (maySeeAllStudentsOf(actor, lesson)) return;
  const e = await ctx.db
    .selectFrom('training_enrollments')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('training_id', '=', lesson.training_id)
    .where('user_id', '=', actor.userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!e) throw notFound(english('trainings.errLessonNotFound'));
}

/** The enrollment a caller acts on: their own (students), or any of the company for staff and the training's teachers. */
async function enrollmentFor(ctx: AppContext, actor: Actor, enrollmentId: string, trainingId: string) {
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  if (e.training_id !== trainingId) throw notFound(english('trainings.errEnrollmentNotFound'));
  if (!maySeeEnrollment(actor, e) && !(await teaches(ctx.db, actor, { trainingId })))
    throw forbidden(english('trainings.errNotYourEnrollment'));
  return e;
}

async function activityOf(ctx: AppContext, companyId: string, entityId: string) {
  return ctx.db
    .selectFrom('training_activities')
    .select(['id', 'subject_id'])
    .where('company_id', '=', companyId)
    .where('entity_id', '=', entityId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** GET /trainings/lessons/view/{lessonId}/{enrollmentId}.json: the lesson, its progress and the classes of it with attendance. */
export async function lessonView(ctx: AppContext, actor: Actor, lessonId: string, enrollmentId: string) {
  const lesson = await requireLesson(ctx, actor.companyId, lessonId);
  const e = await enrollmentFor(ctx, actor, enrollmentId, lesson.training_id);
  const activity = await activityOf(ctx, actor.companyId, lesson.id);
  const progress = activity
    ? await ctx.db
        .selectFrom('training_progress')
        .selectAll()
        .where('enrollment_id', '=', e.id)
        .where('activity_id', '=', activity.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  const sessions = await ctx.db
    .selectFrom('training_sessions as c')
    .leftJoin('training_session_students as ss', (j) =>
      j.onRef('ss.session_id', '=', 'c.id').on('ss.user_id', '=', e.user_id).on('ss.deleted', '=', 0),
    )
    .select([
      'c.id',
      'c.datetime',
      'c.minutes',
      'c.teacher_id',
      'ss.id as ss_id',
      'ss.invited',
      'ss.attended',
      'ss.attendance_status',
    ])
    .where('c.company_id', '=', actor.companyId)
    .where('c.lesson_id', '=', lesson.id)
    .where('c.deleted', '=', 0)
    .orderBy('c.datetime')
    .execute();
  const { n } = await ctx.db
    .selectFrom('training_slides')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('lesson_id', '=', lesson.id)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return {
    Lesson: {
      id: lesson.id,
      name: lesson.name,
      description: lesson.description,
      minutes: num(lesson.minutes),
      mandatory: bool(lesson.mandatory),
      training_subject_id: lesson.subject_id,
      subject_name: lesson.subject_name,
      slides_count: num(n),
    },
    TrainingsUser: { id: e.id, user_id: e.user_id, status: e.status },
    Progress: progress
      ? {
          value: Number(progress.value),
          time_spent: num(progress.time_spent),
          session_id: progress.session_id,
          reset_at: progress.reset_at === null ? null : num(progress.reset_at),
        }
      : null,
    Attendance: sessions.map((s) => ({
      Session: { id: s.id, datetime: num(s.datetime), minutes: num(s.minutes), teacher_id: s.teacher_id },
      SessionStudent: s.ss_id
        ? { id: s.ss_id, invited: !!s.invited, attended: !!s.attended, attendance_status: s.attendance_status }
        : null,
    })),
  };
}

/** GET /trainings/lessons/slides/{lessonId}.json: slide titles in order. */
export async function lessonSlides(ctx: AppContext, actor: Actor, lessonId: string) {
  const lesson = await requireLesson(ctx, actor.companyId, lessonId);
  await requireLessonReader(ctx, actor, lesson);
  const slides = await ctx.db
    .selectFrom('training_slides')
    .select(['id', 'title', 'position'])
    .where('company_id', '=', actor.companyId)
    .where('lesson_id', '=', lesson.id)
    .where('deleted', '=', 0)
    .orderBy('position')
    .execute();
  return {
    Lesson: { id: lesson.id, name: lesson.name },
    slides: slides.map((s) => ({ id: s.id, title: s.title, position: num(s.position) })),
  };
}

/** GET /trainings/lessons/slide/{slideId}.json: one slide with its content, the previous and next slide ids. */
export async function lessonSlide(ctx: AppContext, actor: Actor, slideId: string) {
  const slide = await ctx.db
    .selectFrom('training_slides')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', slideId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!slide) throw notFound('Slide not found');
  const lesson = await requireLesson(ctx, actor.companyId, slide.lesson_id);
  await requireLessonReader(ctx, actor, lesson);
  const all = await ctx.db
    .selectFrom('training_slides')
    .select(['id', 'position'])
    .where('lesson_id', '=', lesson.id)
    .where('deleted', '=', 0)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const i = all.findIndex((s) => s.id === slide.id);
  return {
    Slide: {
      id: slide.id,
      title: slide.title,
      content: slide.content,
      position: num(slide.position),
      lesson_id: lesson.id,
    },
    navigation: {
      index: i + 1,
      total: all.length,
      previous: i > 0 ? all[i - 1]?.id : null,
      next: i < all.length - 1 ? all[i + 1]?.id : null,
    },
  };
}

/** Sets an enrollment's progress on an activity (one row per pair). */
export async function setProgress(
  uow: UnitOfWork,
  companyId: string,
  enrollmentId: string,
  activityId: string,
  patch: { value: number; timeSpent?: number; sessionId?: string | null },
) {
  const st = await stamp(uow, companyId, 'training_progress');
  const found = await uow.trx
    .selectFrom('training_progress')
    .selectAll()
    .where('enrollment_id', '=', enrollmentId)
    .where('activity_id', '=', activityId)
    .executeTakeFirst();
  if (found) {
    await uow.trx
      .updateTable('training_progress')
      .set({
        value: Math.max(Number(found.value), patch.value),
        time_spent: num(found.time_spent) + (patch.timeSpent ?? 0),
        deleted: 0,
        ...(patch.sessionId ? { session_id: patch.sessionId } : {}),
        ...st,
      })
      .where('id', '=', found.id)
      .execute();
    return found.id;
  }
  const id = uuidv7();
  await uow.trx
    .insertInto('training_progress')
    .values({
      id,
      company_id: companyId,
      ...st,
      deleted: 0,
      created: st.modified,
      enrollment_id: enrollmentId,
      activity_id: activityId,
      value: patch.value,
      session_id: patch.sessionId ?? null,
      reset_at: null,
      time_spent: patch.timeSpent ?? 0,
    })
    .execute();
  return id;
}

/**
 * POST /trainings/lessons/complete.json: the student finished an e-learning
 * lesson. Only the enrolled student, only on an ACTIVE enrollment; repeating
 * it adds the time spent and keeps the lesson complete.
 */
export async function completeLesson(
  ctx: AppContext,
  actor: Actor,
  input: { lessonId: string; timeSpent: number; enrollmentId: string },
) {
  const lesson = await requireLesson(ctx, actor.companyId, input.lessonId);
  const e = await requireEnrollment(ctx.db, actor.companyId, input.enrollmentId);
  if (e.training_id !== lesson.training_id) throw notFound(english('trainings.errLessonNotFound'));
  if (e.user_id !== actor.userId) throw forbidden(english('trainings.errOnlyStudentLesson'));
  if (e.status !== 'ACTIVE')
    throw new HttpError(400, { result: false, ...said('trainings.errEnrollmentIs', { status: e.status }) });
  return ctx.tx(async (uow) => {
    const subject = await requireSubject(uow.trx, actor.companyId, lesson.subject_id);
    let activity = await uow.trx
      .selectFrom('training_activities')
      .select(['id', 'deleted'])
      .where('subject_id', '=', subject.id)
      .where('entity_id', '=', lesson.id)
      .executeTakeFirst();
    if (!activity || activity.deleted) {
      activity = { id: await ensureActivity(uow, actor.companyId, subject, 'LESSON', lesson.id), deleted: 0 };
    }
    await setProgress(uow, actor.companyId, e.id, activity.id, { value: 1, timeSpent: input.timeSpent });
    return {
      result: true,
      message: english('trainings.msgLessonCompleted'),
      lessonId: lesson.id,
      enrollmentId: e.id,
      activityId: activity.id,
    };
  });
}

/** GET /trainings/lessons/attendance/{subjectId}.json: per lesson of the subject, the caller's classes and attendance (staff: every student's). */
export async function subjectAttendance(ctx: AppContext, actor: Actor, subjectId: string) {
  const subject = await requireSubject(ctx.db, actor.companyId, subjectId);
  const staff = maySeeAllStudentsOf(actor, subject);
  if (!staff) {
    const e = await ctx.db
      .selectFrom('training_enrollments')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('training_id', '=', subject.training_id)
      .where('user_id', '=', actor.userId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!e) throw notFound(english('trainings.errSubjectNotFound'));
  }
  let q = ctx.db
    .selectFrom('training_sessions as c')
    .innerJoin('training_session_students as ss', (j) => j.onRef('ss.session_id', '=', 'c.id').on('ss.deleted', '=', 0))
    .innerJoin('users as u', 'u.id', 'ss.user_id')
    .select([
      'c.id',
      'c.datetime',
      'c.minutes',
      'c.lesson_id',
      'c.exam_id',
      'ss.id as ss_id',
      'ss.user_id',
      'ss.invited',
      'ss.attended',
      'ss.attendance_status',
      'u.name',
      'u.surname',
    ])
    .where('c.company_id', '=', actor.companyId)
    .where('c.subject_id', '=', subject.id)
    .where('c.deleted', '=', 0);
  if (!staff) q = q.where('ss.user_id', '=', actor.userId);
  const rows = await q.orderBy('c.datetime').orderBy('u.surname').limit(5000).execute();
  return {
    Subject: { id: subject.id, name: subject.name },
    attendance: rows.map((r) => ({
      Session: {
        id: r.id,
        datetime: num(r.datetime),
        minutes: num(r.minutes),
        lesson_id: r.lesson_id,
        exam_id: r.exam_id,
      },
      SessionStudent: {
        id: r.ss_id,
        user_id: r.user_id,
        invited: !!r.invited,
        attended: !!r.attended,
        attendance_status: r.attendance_status,
      },
      User: { id: r.user_id, name: r.name, surname: r.surname },
    })),
  };
}

// ---------------------------------------------------------------------------
// Online exams (item 17)
// ---------------------------------------------------------------------------

async function requireExam(ctx: AppContext, companyId: string, id: string) {
  const x = await ctx.db
    .selectFrom('training_exams as x')
    .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'x.subject_id').on('s.deleted', '=', 0))
    .selectAll('x')
    .select('s.teacher_id')
    .where('x.company_id', '=', companyId)
    .where('x.id', '=', id)
    .where('x.deleted', '=', 0)
    .executeTakeFirst();
  if (!x) throw notFound(english('trainings.errExamNotFound'));
  return x;
}

/** GET /trainings/exams/index/{type}:{id}.json: online exams of a subject or gate exams of a lesson. */
export async function examIndex(ctx: AppContext, actor: Actor, spec: string) {
  const m = /^(subject|lesson):(.+)$/.exec(spec);
  if (!m)
    throw badRequest('Expected subject:{id} or lesson:{id}', { errors: { type: ['Expected subject or lesson'] } });
  const [, type, id] = m as unknown as [string, 'subject' | 'lesson', string];
  let trainingId: string;
  let teacher: string | null;
  if (type === 'subject') {
    const s = await requireSubject(ctx.db, actor.companyId, id);
    trainingId = s.training_id;
    teacher = s.teacher_id;
  } else {
    const l = await requireLesson(ctx, actor.companyId, id);
    trainingId = l.training_id;
    teacher = l.teacher_id;
  }
  await requireLessonReader(ctx, actor, { training_id: trainingId, teacher_id: teacher });
  const rows = await ctx.db
    .selectFrom('training_exams')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where(type === 'subject' ? 'subject_id' : 'lesson_id', '=', id)
    .where('type', '=', 'ONLINE')
    .where('deleted', '=', 0)
    .orderBy('name')
    .execute();
  return { exams: rows.map((x) => ({ Exam: presentExam(x) })) };
}

async function examContext(ctx: AppContext, actor: Actor, enrollmentId: string, examId: string) {
  const exam = await requireExam(ctx, actor.companyId, examId);
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  if (e.training_id !== exam.training_id) throw notFound(english('trainings.errExamNotFound'));
  if (!maySeeEnrollment(actor, e) && exam.teacher_id !== actor.userId)
    throw forbidden(english('trainings.errNotYourEnrollment'));
  if (exam.type !== 'ONLINE') throw badRequest(english('trainings.errOnlyOnline'));
  const activity = await activityOf(ctx, actor.companyId, exam.id);
  const progress = activity
    ? await ctx.db
        .selectFrom('training_progress')
        .select(['reset_at'])
        .where('enrollment_id', '=', e.id)
        .where('activity_id', '=', activity.id)
        .executeTakeFirst()
    : undefined;
  const resetAt = progress?.reset_at ? num(progress.reset_at) : null;
  const all = await ctx.db
    .selectFrom('training_attempts')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('enrollment_id', '=', e.id)
    .where('exam_id', '=', exam.id)
    .where('deleted', '=', 0)
    .orderBy('start', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const attempts = attemptsAfterReset(
    all.map((a) => ({ ...a, start: num(a.start) })),
    resetAt,
  );
  const sessions = await ctx.db
    .selectFrom('training_sessions as c')
    .innerJoin('training_session_students as ss', (j) =>
      j.onRef('ss.session_id', '=', 'c.id').on('ss.user_id', '=', e.user_id).on('ss.deleted', '=', 0),
    )
    .select(['c.id', 'c.datetime'])
    .where('c.company_id', '=', actor.companyId)
    .where('c.exam_id', '=', exam.id)
    .where('c.deleted', '=', 0)
    .execute();
  const finished = attempts.filter((a) => a.finished_at !== null);
  const check = attemptAllowed({
    now: nowSeconds(),
    attemptsUsed: finished.length,
    maxAttempts: num(exam.attempts),
    accessMode: exam.access_mode,
    windowDays: num(exam.access_window_days),
    sessionStarts: sessions.map((s) => num(s.datetime)),
    alreadyPassed: finished.some((a) => a.passed),
  });
  return { exam, e, activity, attempts, check, sessions };
}

const presentAttempt = (a: {
  id: string;
  start: number;
  finished_at: number | null;
  correct: number;
  total: number;
  score: number | null;
  passed: number;
}) => ({
  id: a.id,
  start: num(a.start),
  finished: a.finished_at === null ? null : num(a.finished_at),
  correct: num(a.correct),
  total: num(a.total),
  score: a.score === null ? null : Number(a.score),
  passed: !!a.passed,
});

/** GET /trainings/exams/start/{enrollmentId}/{examId}.json: preview with previous attempts and whether one may start. */
export async function examPreview(ctx: AppContext, actor: Actor, enrollmentId: string, examId: string) {
  const c = await examContext(ctx, actor, enrollmentId, examId);
  const open = c.attempts.find((a) => a.finished_at === null);
  return {
    Exam: presentExam(c.exam),
    ExamAttempt: c.attempts.map(presentAttempt),
    can_start: c.check.ok || !!open,
    reason: c.check.ok ? null : c.check.reason,
    open_attempt_id: open?.id ?? null,
  };
}

/**
 * POST /trainings/exams/start/{enrollmentId}/{examId}.json: begins an attempt
 * (the student only), drawing `questions` questions (all when 0) in order. An
 * attempt still open is returned instead of a new one.
 */
export async function examStart(ctx: AppContext, actor: Actor, enrollmentId: string, examId: string) {
  const c = await examContext(ctx, actor, enrollmentId, examId);
  if (c.e.user_id !== actor.userId) throw forbidden(english('trainings.errOnlyStudentExam'));
  if (c.e.status !== 'ACTIVE')
    throw new HttpError(400, { result: false, ...said('trainings.errEnrollmentIs', { status: c.e.status }) });
  const open = c.attempts.find((a) => a.finished_at === null);
  if (open) return { result: true, message: english('trainings.msgAttemptOpen'), attempt_id: open.id };
  if (!c.check.ok)
    return { result: false, ...said('trainings.errCannotStart', { reason: c.check.reason }), reason: c.check.reason };
  const questions = await ctx.db
    .selectFrom('training_questions')
    .select('id')
    .where('exam_id', '=', c.exam.id)
    .where('deleted', '=', 0)
    .orderBy('position')
    .execute();
  if (!questions.length) throw badRequest(english('trainings.errNoQuestions'));
  const drawn = num(c.exam.questions) > 0 ? questions.slice(0, num(c.exam.questions)) : questions;
  return ctx.tx(async (uow) => {
    const id = uuidv7();
    const now = nowSeconds();
    const session = c.sessions
      .filter((s) => num(s.datetime) <= now)
      .sort((a, b) => num(b.datetime) - num(a.datetime))[0];
    await uow.trx
      .insertInto('training_attempts')
      .values({
        id,
        company_id: actor.companyId,
        ...(await stamp(uow, actor.companyId, 'training_attempts')),
        deleted: 0,
        created: now,
        enrollment_id: c.e.id,
        exam_id: c.exam.id,
        user_id: actor.userId,
        session_id: session?.id ?? null,
        start: now,
        finished_at: null,
        correct: 0,
        total: drawn.length,
        score: null,
        passed: 0,
      })
      .execute();
    await uow.trx
      .insertInto('training_attempt_details')
      .values(
        drawn.map((q, i) => ({
          id: uuidv7(),
          company_id: actor.companyId,
          attempt_id: id,
          question_id: q.id,
          option_id: null,
          position: i + 1,
        })),
      )
      .execute();
    return { result: true, message: english('trainings.msgAttemptStarted'), attempt_id: id };
  });
}

async function requireOwnAttempt(ctx: AppContext, actor: Actor, attemptId: string, staffMayRead: boolean) {
  const a = await ctx.db
    .selectFrom('training_attempts')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', attemptId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!a) throw notFound(english('trainings.errAttemptNotFound'));
  if (a.user_id !== actor.userId && !(staffMayRead && mayReadStudentWork(actor)))
    throw notFound(english('trainings.errAttemptNotFound'));
  return a;
}

async function attemptQuestions(ctx: AppContext, attemptId: string) {
  const details = await ctx.db
    .selectFrom('training_attempt_details as d')
    .innerJoin('training_questions as q', 'q.id', 'd.question_id')
    .select(['d.id', 'd.option_id', 'd.position', 'q.id as question_id', 'q.text'])
    .where('d.attempt_id', '=', attemptId)
    .orderBy('d.position')
    .execute();
  const options = details.length
    ? await ctx.db
        .selectFrom('training_question_options')
        .selectAll()
        .where(
          'question_id',
          'in',
          details.map((d) => d.question_id),
        )
        .orderBy('position')
        .execute()
    : [];
  return { details, options };
}

/** GET /trainings/exams/do/{attemptId}.json: the questions of the caller's open attempt, without answers. */
export async function examDo(ctx: AppContext, actor: Actor, attemptId: string) {
  const a = await requireOwnAttempt(ctx, actor, attemptId, false);
  if (a.finished_at !== null) throw badRequest(english('trainings.errAttemptFinished'));
  const exam = await requireExam(ctx, actor.companyId, a.exam_id);
  const { details, options } = await attemptQuestions(ctx, a.id);
  return {
    Exam: { id: exam.id, name: exam.name, instructions: exam.instructions, minutes: num(exam.minutes) },
    ExamAttempt: presentAttempt(a),
    questions: details.map((d) => ({
      attemptDetailId: d.id,
      position: num(d.position),
      text: d.text,
      chosen: d.option_id,
      options: options.filter((o) => o.question_id === d.question_id).map((o) => ({ id: o.id, text: o.text })),
    })),
  };
}

/** POST /trainings/exams/answer.json: one option per question, only inside the caller's open attempt. */
export async function examAnswer(
  ctx: AppContext,
  actor: Actor,
  input: { attemptDetailId: string; questionOptionId: string },
) {
  const d = await ctx.db
    .selectFrom('training_attempt_details')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', input.attemptDetailId)
    .executeTakeFirst();
  if (!d) throw notFound('Question not found');
  const a = await requireOwnAttempt(ctx, actor, d.attempt_id, false);
  if (a.finished_at !== null) throw badRequest(english('trainings.errAttemptFinished'));
  const o = await ctx.db
    .selectFrom('training_question_options')
    .select('id')
    .where('id', '=', input.questionOptionId)
    .where('question_id', '=', d.question_id)
    .executeTakeFirst();
  if (!o)
    throw badRequest('That option does not belong to this question', {
      errors: { questionOptionId: ['Not an option of this question'] },
    });
  await ctx.db.updateTable('training_attempt_details').set({ option_id: o.id }).where('id', '=', d.id).execute();
  return { result: true, attemptDetailId: d.id, questionOptionId: o.id };
}

/** GET /trainings/exams/finish/{attemptId}.json: grades the caller's attempt (shared rule); finishing twice answers the grade. */
export async function examFinish(ctx: AppContext, actor: Actor, attemptId: string) {
  const a = await requireOwnAttempt(ctx, actor, attemptId, false);
  if (a.finished_at !== null)
    return { result: true, message: english('trainings.msgAlreadyFinished'), ExamAttempt: presentAttempt(a) };
  const exam = await requireExam(ctx, actor.companyId, a.exam_id);
  const { details, options } = await attemptQuestions(ctx, a.id);
  const grade = gradeAttempt(
    details.map((d) => ({
      questionId: d.question_id,
      chosen: d.option_id,
      correct: options.filter((o) => o.question_id === d.question_id && o.correct).map((o) => o.id),
    })),
    num(exam.score),
  );
  return ctx.tx(async (uow) => {
    const now = nowSeconds();
    await uow.trx
      .updateTable('training_attempts')
      .set({
        finished_at: now,
        correct: grade.correct,
        total: grade.total,
        score: grade.score,
        passed: grade.passed ? 1 : 0,
        ...(await stamp(uow, actor.companyId, 'training_attempts')),
      })
      .where('id', '=', a.id)
      .where('finished_at', 'is', null)
      .execute();
    if (grade.passed) {
      const activity = await uow.trx
        .selectFrom('training_activities')
        .select('id')
        .where('entity_id', '=', exam.id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (activity)
        await setProgress(uow, actor.companyId, a.enrollment_id, activity.id, { value: 1, sessionId: a.session_id });
    }
    const fresh = await uow.trx
      .selectFrom('training_attempts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    return {
      result: true,
      message: grade.passed ? english('trainings.msgPassed') : english('trainings.msgNotPassed'),
      ExamAttempt: presentAttempt(fresh),
    };
  });
}

/** GET /trainings/exams/view/{attemptId}.json: a finished attempt; correct answers only when the exam shows them. */
export async function examResult(ctx: AppContext, actor: Actor, attemptId: string) {
  const a = await requireOwnAttempt(ctx, actor, attemptId, true);
  if (a.finished_at === null) throw badRequest('The attempt is not finished');
  const exam = await requireExam(ctx, actor.companyId, a.exam_id);
  const show = !!exam.show_answers || mayReadStudentWork(actor);
  const { details, options } = await attemptQuestions(ctx, a.id);
  return {
    Exam: { id: exam.id, name: exam.name, score: num(exam.score), show_answers: !!exam.show_answers },
    ExamAttempt: presentAttempt(a),
    questions: details.map((d) => {
      const mine = options.filter((o) => o.question_id === d.question_id);
      const right = mine.find((o) => o.correct);
      return {
        attemptDetailId: d.id,
        text: d.text,
        chosen: d.option_id,
        ...(show ? { correct_option_id: right?.id ?? null, is_correct: !!right && right.id === d.option_id } : {}),
        options: mine.map((o) => ({ id: o.id, text: o.text })),
      };
    }),
  };
}
