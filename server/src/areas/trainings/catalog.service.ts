import { english } from '../../http/messages.ts';
import { uuidv7 } from '@ops/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import {
  bool,
  MANAGER_TRAININGS_PAGE,
  MY_TRAININGS_PAGE,
  num,
  pagination,
  presentEnrollment,
  presentTraining,
  requireTraining,
  stamp,
} from './trainings.repository.ts';
import { progressOf, structureOf, theoryOf } from './progress.service.ts';
import type { TrainingsTable } from './trainings.tables.ts';

/** The Training row shaped for GET /trainings.json (Part B 4.7 item 1, 9.4). */
function myTrainingRow(
  t: TrainingsTable,
  structure: Awaited<ReturnType<typeof structureOf>>,
  progress: Awaited<ReturnType<typeof progressOf>> | null,
  enrollmentId: string | null,
) {
  const st = structure.get(t.id);
  const data = enrollmentId && progress ? progress.get(enrollmentId) : undefined;
  const out: Record<string, unknown> = { ...presentTraining(t), subjects_count: st?.subjects ?? 0 };
  if (t.theory) {
    const p = theoryOf(st, data);
    out.Lessons = {
      total: p.total,
      completed: enrollmentId ? p.completed : 0,
      finished: enrollmentId ? p.finished : false,
    };
  }
  if (t.flights) out.FlightProgress = { completed: data?.missionsCompleted ?? 0, total: st?.missions ?? 0 };
  return out;
}

/**
 * GET /trainings.json: the caller's enrollments (newest first), then the
 * trainings they teach and are not enrolled in, 30 per page, plus their next
 * classes. `user_id` is honoured only for API keys (an API user reads for a
 * user of its company; another company's user is 404).
 */
export async function listMyTrainings(ctx: AppContext, actor: Actor, opts: { page: number; userId?: string }) {
  let userId = actor.userId;
  if (opts.userId && actor.credential.kind === 'api_key') {
    const u = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', opts.userId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!u) throw notFound('User not found');
    userId = u.id;
  }
  const companyId = actor.companyId;
  const enrolled = () =>
    ctx.db
      .selectFrom('training_enrollments as e')
      .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'e.training_id').on('t.deleted', '=', 0))
      .where('e.company_id', '=', companyId)
      .where('e.user_id', '=', userId)
      .where('e.deleted', '=', 0);
  // Trainings the user teaches (index company_id, teacher_id) and is not enrolled in.
  const taught = () =>
    ctx.db
      .selectFrom('trainings as t')
      .where('t.company_id', '=', companyId)
      .where('t.deleted', '=', 0)
      .where('t.template', '=', 0)
      .where('t.id', 'in', (eb) =>
        eb
          .selectFrom('training_subjects as s')
          .select('s.training_id')
          .where('s.company_id', '=', companyId)
          .where('s.teacher_id', '=', userId)
          .where('s.deleted', '=', 0),
      )
      .where('t.id', 'not in', (eb) =>
        eb
          .selectFrom('training_enrollments as e2')
          .select('e2.training_id')
          .where('e2.company_id', '=', companyId)
          .where('e2.user_id', '=', userId)
          .where('e2.deleted', '=', 0),
      );
  const offset = (opts.page - 1) * MY_TRAININGS_PAGE;
  // One round trip for the counts, the enrollment page and the classes (independent of each other).
  const [{ n: enrolledCount }, { n: taughtCount }, eRows, upcoming] = await Promise.all([
    enrolled()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    taught()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    enrolled()
      .selectAll('t')
      .select([
        'e.id as e_id',
        'e.user_id as e_user_id',
        'e.supervisor_id as e_supervisor_id',
        'e.finish_before as e_finish_before',
        'e.finished as e_finished',
        'e.status as e_status',
        'e.status_reason as e_status_reason',
        'e.created as e_created',
      ])
      .orderBy('e.created', 'desc')
      .orderBy('e.id', 'desc')
      .limit(MY_TRAININGS_PAGE)
      .offset(offset)
      .execute(),
    upcomingClasses(ctx, companyId, userId, 30),
  ]);
  const eCount = num(enrolledCount);
  const room = MY_TRAININGS_PAGE - eRows.length;
  const tRows =
    room > 0
      ? await taught()
          .selectAll('t')
          .orderBy('t.name')
          .orderBy('t.id')
          .limit(room)
          .offset(Math.max(0, offset - eCount))
          .execute()
      : [];

  const trainingIds = [...eRows.map((r) => r.id), ...tRows.map((r) => r.id)];
  const [structure, progress] = await Promise.all([
    structureOf(ctx.db, companyId, trainingIds, actor.companyVersion),
    progressOf(
      ctx.db,
      companyId,
      eRows.map((r) => r.e_id),
    ),
  ]);

  const trainings = [
    ...eRows.map((r) => {
      const e = presentEnrollment(
        {
          id: r.e_id,
          training_id: r.id,
          user_id: r.e_user_id,
          supervisor_id: r.e_supervisor_id,
          finish_before: r.e_finish_before,
          finished: r.e_finished,
          notes: null,
          status: r.e_status,
          status_reason: r.e_status_reason,
          created: r.e_created,
        },
        false,
      );
      return { role: 'student', TrainingsUser: e, Training: myTrainingRow(r, structure, progress, e.id) };
    }),
    ...tRows.map((t) => ({ role: 'teacher', TrainingsUser: null, Training: myTrainingRow(t, structure, null, null) })),
  ];
  return {
    trainings,
    upcoming,
    pagination: pagination(opts.page, trainings.length, eCount + num(taughtCount), MY_TRAININGS_PAGE),
  };
}

/** Next classes of a user as student (invited) or as teacher, soonest first. */
export async function upcomingClasses(ctx: AppContext, companyId: string, userId: string, limit: number) {
  const now = nowSeconds();
  const rows = await ctx.db
    .selectFrom('training_sessions as c')
    .innerJoin('training_subjects as s', 's.id', 'c.subject_id')
    .innerJoin('trainings as t', 't.id', 'c.training_id')
    .leftJoin('training_session_students as ss', (j) =>
      j.onRef('ss.session_id', '=', 'c.id').on('ss.user_id', '=', userId).on('ss.deleted', '=', 0),
    )
    .select([
      'c.id',
      'c.datetime',
      'c.minutes',
      'c.training_id',
      'c.subject_id',
      'c.lesson_id',
      'c.exam_id',
      'c.teacher_id',
      'c.location_id',
      's.name as subject_name',
      't.name as training_name',
      'ss.id as session_student_id',
    ])
    .where('c.company_id', '=', companyId)
    .where('c.deleted', '=', 0)
    .where('c.datetime', '>=', now)
    .where((eb) => eb.or([eb('c.teacher_id', '=', userId), eb('ss.id', 'is not', null)]))
    .orderBy('c.datetime')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    Session: {
      id: r.id,
      datetime: num(r.datetime),
      minutes: num(r.minutes),
      training_id: r.training_id,
      subject_id: r.subject_id,
      lesson_id: r.lesson_id,
      exam_id: r.exam_id,
      teacher_id: r.teacher_id,
      location_id: r.location_id,
    },
    Subject: { id: r.subject_id, name: r.subject_name },
    Training: { id: r.training_id, name: r.training_name },
    role: r.session_student_id ? 'student' : 'teacher',
  }));
}

/** GET /manager/trainings.json: 50 per page by name; counts, no arrays (9.4). */
export async function listManagerTrainings(ctx: AppContext, actor: Actor, page: number) {
  const base = () =>
    ctx.db
      .selectFrom('trainings as t')
      .where('t.company_id', '=', actor.companyId)
      .where('t.deleted', '=', 0)
      .where('t.template', '=', 0);
  const { n } = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base()
    .selectAll('t')
    .select((eb) => [
      eb
        .selectFrom('training_enrollments as e')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('e.training_id', '=', 't.id')
        .where('e.company_id', '=', actor.companyId)
        .where('e.deleted', '=', 0)
        .as('students_count'),
      eb
        .selectFrom('training_subjects as s')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('s.training_id', '=', 't.id')
        .where('s.company_id', '=', actor.companyId)
        .where('s.deleted', '=', 0)
        .as('subjects_count'),
    ])
    .orderBy('t.name')
    .orderBy('t.id')
    .limit(MANAGER_TRAININGS_PAGE)
    .offset((page - 1) * MANAGER_TRAININGS_PAGE)
    .execute();
  const trainings = rows.map((t) => {
    const p = presentTraining(t);
    return {
      Training: {
        id: p.id,
        name: p.name,
        type: p.type,
        active: p.active,
        theory: p.theory,
        flights: p.flights,
        flights_count: p.flights_count,
        competencies: p.competencies,
        metrics: p.metrics,
        announcement: p.announcement,
        start: p.start,
        end: p.end,
        color: p.color,
        created: p.created,
        students_count: num(t.students_count),
        subjects_count: num(t.subjects_count),
      },
    };
  });
  return { trainings, pagination: pagination(page, trainings.length, num(n), MANAGER_TRAININGS_PAGE) };
}

/** GET /manager/trainings/trainings/templates.json: the company's course templates by name, with their subject counts. */
export async function listTemplates(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('trainings as t')
    .selectAll('t')
    .select((eb) =>
      eb
        .selectFrom('training_subjects as s')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('s.training_id', '=', 't.id')
        .where('s.deleted', '=', 0)
        .as('subjects_count'),
    )
    .where('t.company_id', '=', actor.companyId)
    .where('t.deleted', '=', 0)
    .where('t.template', '=', 1)
    .orderBy('t.name')
    .limit(500)
    .execute();
  return {
    templates: rows.map((t) => ({ Training: { ...presentTraining(t), subjects_count: num(t.subjects_count) } })),
  };
}

export interface TrainingInput {
  name?: string;
  type?: string;
  active?: boolean;
  theory?: boolean;
  flights?: boolean;
  flights_count?: number;
  competencies?: boolean;
  metrics?: boolean;
  announcement?: string | null;
  start?: string | null;
  end?: string | null;
  color?: string | null;
  require_debriefing_signature?: boolean;
  classwork_deadline_default_days?: number;
  justification_deadline_default_days?: number;
  template?: boolean;
}

const b = (v: boolean | undefined, fallback: number) => (v === undefined ? fallback : v ? 1 : 0);

function trainingFields(input: TrainingInput, existing: TrainingsTable | null) {
  if (input.start && input.end && input.start > input.end)
    throw validationFailed({ end: ['The end is before the start'] });
  return {
    name: input.name ?? existing?.name ?? '',
    type: input.type ?? existing?.type ?? 'ONSITE',
    active: b(input.active, existing?.active ?? 1),
    theory: b(input.theory, existing?.theory ?? 0),
    flights: b(input.flights, existing?.flights ?? 0),
    flights_count: input.flights_count ?? existing?.flights_count ?? 0,
    competencies: b(input.competencies, existing?.competencies ?? 0),
    metrics: b(input.metrics, existing?.metrics ?? 0),
    announcement: input.announcement === undefined ? (existing?.announcement ?? null) : input.announcement,
    start_date: input.start === undefined ? (existing?.start_date ?? null) : input.start,
    end_date: input.end === undefined ? (existing?.end_date ?? null) : input.end,
    color: input.color === undefined ? (existing?.color ?? null) : input.color,
    require_debriefing_signature: b(input.require_debriefing_signature, existing?.require_debriefing_signature ?? 0),
    classwork_deadline_default_days:
      input.classwork_deadline_default_days ?? existing?.classwork_deadline_default_days ?? 7,
    justification_deadline_default_days:
      input.justification_deadline_default_days ?? existing?.justification_deadline_default_days ?? 7,
  };
}

/**
 * POST /manager/trainings/trainings/create.json: `name` and `type` required;
 * with `template_id` the template's subjects, lessons, slides, exams with
 * their questions, activity order and flight missions are copied.
 */
export async function createTraining(
  ctx: AppContext,
  actor: Actor,
  input: TrainingInput & { name: string; type: string; template_id?: string },
) {
  const template = input.template_id
    ? await ctx.db
        .selectFrom('trainings')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', input.template_id)
        .where('deleted', '=', 0)
        .where('template', '=', 1)
        .executeTakeFirst()
    : null;
  if (input.template_id && !template) throw notFound('Template not found');
  return ctx.tx(async (uow) => {
    const now = nowSeconds();
    const id = uuidv7();
    const fromTemplate = template ? { ...template, name: input.name, type: input.type } : null;
    const fields = trainingFields(input, fromTemplate);
    await uow.trx
      .insertInto('trainings')
      .values({
        id,
        company_id: actor.companyId,
        ...(await stamp(uow, actor.companyId, 'trainings')),
        deleted: 0,
        created: now,
        ...fields,
        template: input.template ? 1 : 0,
        created_by: actor.userId,
      })
      .execute();
    if (template) await copyStructure(uow, actor.companyId, template.id, id);
    const row = await uow.trx.selectFrom('trainings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { result: true, message: english('trainings.msgTrainingCreated'), id, Training: presentTraining(row) };
  });
}

/** POST /manager/trainings/trainings/edit.json (the training edit write of 2.8). */
export async function editTraining(ctx: AppContext, actor: Actor, input: TrainingInput & { id: string }) {
  const existing = await requireTraining(ctx.db, actor.companyId, input.id);
  return ctx.tx(async (uow) => {
    const fields = trainingFields(input, existing);
    await uow.trx
      .updateTable('trainings')
      .set({
        ...fields,
        ...(input.template === undefined ? {} : { template: input.template ? 1 : 0 }),
        ...(await stamp(uow, actor.companyId, 'trainings')),
      })
      .where('id', '=', existing.id)
      .execute();
    const row = await uow.trx
      .selectFrom('trainings')
      .selectAll()
      .where('id', '=', existing.id)
      .executeTakeFirstOrThrow();
    return { result: true, message: english('trainings.msgTrainingSaved'), id: row.id, Training: presentTraining(row) };
  });
}

async function copyStructure(uow: UnitOfWork, companyId: string, fromId: string, toId: string) {
  const trx = uow.trx;
  const now = nowSeconds();
  const base = async (table: string) => ({
    company_id: companyId,
    deleted: 0,
    created: now,
    modified: now,
    change_no: await uow.changeNo(companyId, table),
  });
  const map = new Map<string, string>();
  const newId = (old: string) => {
    const id = uuidv7();
    map.set(old, id);
    return id;
  };
  const subjects = await trx
    .selectFrom('training_subjects')
    .selectAll()
    .where('training_id', '=', fromId)
    .where('deleted', '=', 0)
    .execute();
  for (const s of subjects)
    await trx
      .insertInto('training_subjects')
      .values({ ...s, ...(await base('training_subjects')), id: newId(s.id), training_id: toId })
      .execute();
  const lessons = await trx
    .selectFrom('training_lessons')
    .selectAll()
    .where('training_id', '=', fromId)
    .where('deleted', '=', 0)
    .execute();
  for (const l of lessons) {
    const subjectId = map.get(l.subject_id);
    if (subjectId)
      await trx
        .insertInto('training_lessons')
        .values({
          ...l,
          ...(await base('training_lessons')),
          id: newId(l.id),
          training_id: toId,
          subject_id: subjectId,
        })
        .execute();
  }
  const lessonIds = lessons.map((l) => l.id);
  if (lessonIds.length) {
    const slides = await trx
      .selectFrom('training_slides')
      .selectAll()
      .where('lesson_id', 'in', lessonIds)
      .where('deleted', '=', 0)
      .execute();
    for (const s of slides)
      await trx
        .insertInto('training_slides')
        .values({
          ...s,
          ...(await base('training_slides')),
          id: uuidv7(),
          lesson_id: map.get(s.lesson_id) ?? s.lesson_id,
        })
        .execute();
  }
  const exams = await trx
    .selectFrom('training_exams')
    .selectAll()
    .where('training_id', '=', fromId)
    .where('deleted', '=', 0)
    .execute();
  for (const x of exams) {
    const subjectId = x.subject_id ? map.get(x.subject_id) : null;
    if (x.subject_id && !subjectId) continue;
    await trx
      .insertInto('training_exams')
      .values({
        ...x,
        ...(await base('training_exams')),
        id: newId(x.id),
        training_id: toId,
        subject_id: subjectId ?? null,
        lesson_id: x.lesson_id ? (map.get(x.lesson_id) ?? null) : null,
      })
      .execute();
    const questions = await trx
      .selectFrom('training_questions')
      .selectAll()
      .where('exam_id', '=', x.id)
      .where('deleted', '=', 0)
      .execute();
    for (const q of questions) {
      const qid = uuidv7();
      await trx
        .insertInto('training_questions')
        .values({ ...q, id: qid, exam_id: map.get(x.id) ?? x.id })
        .execute();
      const options = await trx
        .selectFrom('training_question_options')
        .selectAll()
        .where('question_id', '=', q.id)
        .execute();
      if (options.length)
        await trx
          .insertInto('training_question_options')
          .values(options.map((o) => ({ ...o, id: uuidv7(), question_id: qid })))
          .execute();
    }
  }
  const activities = await trx
    .selectFrom('training_activities')
    .selectAll()
    .where('training_id', '=', fromId)
    .where('deleted', '=', 0)
    .execute();
  for (const a of activities) {
    const subjectId = map.get(a.subject_id);
    const entityId = map.get(a.entity_id);
    if (subjectId && entityId)
      await trx
        .insertInto('training_activities')
        .values({
          ...a,
          ...(await base('training_activities')),
          id: uuidv7(),
          training_id: toId,
          subject_id: subjectId,
          entity_id: entityId,
        })
        .execute();
  }
  const missions = await trx
    .selectFrom('training_missions')
    .selectAll()
    .where('training_id', '=', fromId)
    .where('deleted', '=', 0)
    .execute();
  for (const m of missions)
    await trx
      .insertInto('training_missions')
      .values({ ...m, ...(await base('training_missions')), id: uuidv7(), training_id: toId })
      .execute();
}

/**
 * POST /manager/trainings/trainings/teaching_report.json: per teacher, the
 * classes of the training held between `from` and `to` (unix), their minutes
 * and hours, ordered by surname.
 */
export async function teachingReport(
  ctx: AppContext,
  actor: Actor,
  input: { training: string; from: number; to: number },
) {
  if (input.from > input.to) throw validationFailed({ to: ['`to` is before `from`'] });
  const training = await requireTraining(ctx.db, actor.companyId, input.training);
  const rows = await ctx.db
    .selectFrom('training_sessions as c')
    .innerJoin('users as u', 'u.id', 'c.teacher_id')
    .select([
      'c.teacher_id',
      'u.name',
      'u.surname',
      (eb) => eb.fn.countAll<number>().as('sessions'),
      (eb) => eb.fn.sum<number>('c.minutes').as('minutes'),
    ])
    .where('c.company_id', '=', actor.companyId)
    .where('c.training_id', '=', training.id)
    .where('c.deleted', '=', 0)
    .where('c.datetime', '>=', input.from)
    .where('c.datetime', '<=', input.to)
    .groupBy(['c.teacher_id', 'u.name', 'u.surname'])
    .orderBy('u.surname')
    .execute();
  const report = rows.map((r) => ({
    teacher_id: r.teacher_id,
    name: r.name,
    surname: r.surname,
    sessions: num(r.sessions),
    minutes: num(r.minutes),
    hours: Math.round((num(r.minutes) / 60) * 10) / 10,
  }));
  return {
    result: true,
    training: { id: training.id, name: training.name },
    from: input.from,
    to: input.to,
    report,
    totals: {
      sessions: report.reduce((a, r) => a + r.sessions, 0),
      minutes: report.reduce((a, r) => a + r.minutes, 0),
    },
  };
}

/** GET /trainings/trainings/schema/{id}.json (item 4). */
export async function trainingSchema(ctx: AppContext, actor: Actor, id: string | undefined) {
  if (!id) throw badRequest('Training id is required');
  const t = await requireTraining(ctx.db, actor.companyId, id);
  const { minutes } = await ctx.db
    .selectFrom('training_lessons as l')
    .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'l.subject_id').on('s.deleted', '=', 0))
    .select((eb) => eb.fn.sum<number>('l.minutes').as('minutes'))
    .where('l.company_id', '=', actor.companyId)
    .where('l.training_id', '=', t.id)
    .where('l.deleted', '=', 0)
    .executeTakeFirstOrThrow();
  const perType = await ctx.db
    .selectFrom('training_missions')
    .select([
      'flight_type_id',
      (eb) => eb.fn.countAll<number>().as('missions'),
      (eb) => eb.fn.sum<number>('minutes').as('minutes'),
    ])
    .where('company_id', '=', actor.companyId)
    .where('training_id', '=', t.id)
    .where('deleted', '=', 0)
    .groupBy('flight_type_id')
    .execute();
  const round = (h: number) => Math.round(h * 100) / 100;
  const flightMinutes = perType.reduce((a, r) => a + num(r.minutes), 0);
  return {
    result: true,
    training_id: t.id,
    ground_hours_total: round(num(minutes) / 60),
    flight_hours_total: round(flightMinutes / 60),
    flights_per_flight_type: perType.map((r) => ({
      flight_type_id: r.flight_type_id,
      missions: num(r.missions),
      hours: round(num(r.minutes) / 60),
    })),
  };
}

export { bool, sql };
