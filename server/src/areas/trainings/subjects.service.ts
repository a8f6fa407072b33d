import { english } from '../../http/messages.ts';
import { mayEditSubject, mayManageTrainings, maySeeEnrollment } from '@ops/shared/rules/trainings/policy';
import { ROLES, uuidv7 } from '@ops/shared';
import { accessWindowDays } from '@ops/shared/rules/trainings/grading';
import { attemptsAfterReset } from '@ops/shared/rules/trainings/progress';
import type { AppContext } from '../../context.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import {
  bool,
  type Db,
  num,
  presentEnrollment,
  presentTraining,
  requireEnrollment,
  requireTraining,
  stamp,
  teaches,
} from './trainings.repository.ts';
import type { TrainingExamsTable, TrainingLessonsTable } from './trainings.tables.ts';

/** Roles whose users count as teachers (instructor roles of CONTRACT 3, plus head of training). */
export const TEACHER_ROLES = [ROLES.HEAD_OF_TRAINING, ROLES.GROUND_INSTRUCTOR, ROLES.FLIGHT_INSTRUCTOR] as const;

export async function requireSubject(db: Db, companyId: string, id: string) {
  const s = await db
    .selectFrom('training_subjects as s')
    .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 's.training_id').on('t.deleted', '=', 0))
    .selectAll('s')
    .where('s.company_id', '=', companyId)
    .where('s.id', '=', id)
    .where('s.deleted', '=', 0)
    .executeTakeFirst();
  if (!s) throw notFound(english('trainings.errSubjectNotFound'));
  return s;
}

/** Reorder and exam edits (items 9, 11): roles <= 135, or the subject's teacher. */
async function requireSubjectEditor(ctx: AppContext, actor: Actor, subjectId: string) {
  const s = await requireSubject(ctx.db, actor.companyId, subjectId);
  if (!mayEditSubject(actor, s)) throw forbidden('Only the subject’s teacher or a training manager can change it');
  return s;
}

const presentLesson = (l: TrainingLessonsTable) => ({
  id: l.id,
  name: l.name,
  description: l.description,
  minutes: num(l.minutes),
  mandatory: bool(l.mandatory),
  training_subject_id: l.subject_id,
});

export function presentExam(x: TrainingExamsTable) {
  const online = x.type === 'ONLINE';
  return {
    id: x.id,
    training_subject_id: x.subject_id,
    training_subject_lesson_id: x.lesson_id,
    type: x.type,
    name: x.name,
    reference: x.reference,
    description: x.description,
    minutes: num(x.minutes),
    mandatory: bool(x.mandatory),
    caa_exam: bool(x.caa_exam),
    access_mode: x.access_mode,
    access_window_days: online && x.access_mode === 'SCHEDULED' ? num(x.access_window_days) : null,
    ...(online
      ? {
          questions: num(x.questions),
          attempts: num(x.attempts),
          score: num(x.score),
          instructions: x.instructions,
          show_answers: bool(x.show_answers),
          expiration: num(x.expiration),
        }
      : {}),
  };
}

async function nextPosition(uow: UnitOfWork, subjectId: string) {
  const { p } = await uow.trx
    .selectFrom('training_activities')
    .select((eb) => eb.fn.max<number>('position').as('p'))
    .where('subject_id', '=', subjectId)
    .executeTakeFirstOrThrow();
  return num(p) + 1;
}

export async function ensureActivity(
  uow: UnitOfWork,
  companyId: string,
  subject: { id: string; training_id: string },
  kind: 'LESSON' | 'EXAM',
  entityId: string,
) {
  const found = await uow.trx
    .selectFrom('training_activities')
    .select(['id', 'deleted'])
    .where('subject_id', '=', subject.id)
    .where('entity_id', '=', entityId)
    .executeTakeFirst();
  if (found && !found.deleted) return found.id;
  if (found) {
    await uow.trx
      .updateTable('training_activities')
      .set({ deleted: 0, ...(await stamp(uow, companyId, 'training_activities')) })
      .where('id', '=', found.id)
      .execute();
    return found.id;
  }
  const id = uuidv7();
  const now = nowSeconds();
  await uow.trx
    .insertInto('training_activities')
    .values({
      id,
      company_id: companyId,
      ...(await stamp(uow, companyId, 'training_activities')),
      deleted: 0,
      created: now,
      training_id: subject.training_id,
      subject_id: subject.id,
      kind,
      entity_id: entityId,
      position: await nextPosition(uow, subject.id),
    })
    .execute();
  return id;
}

/** POST /manager/trainings/subjects/edit.json (unshown): create or rename a subject, set its teacher. */
export async function saveSubject(
  ctx: AppContext,
  actor: Actor,
  input: {
    id?: string;
    training_id: string;
    name: string;
    description?: string | null;
    teacher_id?: string | null;
    position?: number;
  },
) {
  const training = await requireTraining(ctx.db, actor.companyId, input.training_id);
  const existing = input.id ? await requireSubject(ctx.db, actor.companyId, input.id) : null;
  if (existing && existing.training_id !== training.id) throw notFound(english('trainings.errSubjectNotFound'));
  if (input.teacher_id) {
    const u = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.teacher_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!u) throw validationFailed({ teacher_id: ['Unknown teacher'] });
  }
  return ctx.tx(async (uow) => {
    const fields = {
      name: input.name,
      description: input.description === undefined ? (existing?.description ?? null) : input.description,
      teacher_id: input.teacher_id === undefined ? (existing?.teacher_id ?? null) : input.teacher_id || null,
      position: input.position ?? existing?.position ?? 0,
    };
    const id = existing?.id ?? uuidv7();
    if (existing)
      await uow.trx
        .updateTable('training_subjects')
        .set({ ...fields, ...(await stamp(uow, actor.companyId, 'training_subjects')) })
        .where('id', '=', id)
        .execute();
    else
      await uow.trx
        .insertInto('training_subjects')
        .values({
          id,
          company_id: actor.companyId,
          ...(await stamp(uow, actor.companyId, 'training_subjects')),
          deleted: 0,
          created: nowSeconds(),
          training_id: training.id,
          ...fields,
        })
        .execute();
    return { result: true, id, TrainingSubject: { id, training_id: training.id, ...fields } };
  });
}

/** POST /manager/trainings/lessons/edit.json (unshown): create or edit a lesson, optionally replacing its slides. */
export async function saveLesson(
  ctx: AppContext,
  actor: Actor,
  input: {
    id?: string;
    training_subject_id: string;
    name: string;
    minutes?: number;
    mandatory?: boolean;
    description?: string | null;
    slides?: { title: string; content?: string | null }[];
  },
) {
  const subject = await requireSubjectEditor(ctx, actor, input.training_subject_id);
  const existing = input.id
    ? await ctx.db
        .selectFrom('training_lessons')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', input.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : null;
  if (input.id && (!existing || existing.subject_id !== subject.id))
    throw notFound(english('trainings.errLessonNotFound'));
  return ctx.tx(async (uow) => {
    const id = existing?.id ?? uuidv7();
    const fields = {
      name: input.name,
      minutes: input.minutes ?? existing?.minutes ?? 0,
      mandatory: input.mandatory === undefined ? (existing?.mandatory ?? 1) : input.mandatory ? 1 : 0,
      description: input.description === undefined ? (existing?.description ?? null) : input.description,
    };
    if (existing)
      await uow.trx
        .updateTable('training_lessons')
        .set({ ...fields, ...(await stamp(uow, actor.companyId, 'training_lessons')) })
        .where('id', '=', id)
        .execute();
    else
      await uow.trx
        .insertInto('training_lessons')
        .values({
          id,
          company_id: actor.companyId,
          ...(await stamp(uow, actor.companyId, 'training_lessons')),
          deleted: 0,
          created: nowSeconds(),
          training_id: subject.training_id,
          subject_id: subject.id,
          ...fields,
        })
        .execute();
    await ensureActivity(uow, actor.companyId, subject, 'LESSON', id);
    if (input.slides) {
      const st = await stamp(uow, actor.companyId, 'training_slides');
      await uow.trx
        .updateTable('training_slides')
        .set({ deleted: 1, ...st })
        .where('lesson_id', '=', id)
        .where('deleted', '=', 0)
        .execute();
      const now = nowSeconds();
      if (input.slides.length)
        await uow.trx
          .insertInto('training_slides')
          .values(
            input.slides.map((sl, i) => ({
              id: uuidv7(),
              company_id: actor.companyId,
              ...st,
              deleted: 0,
              created: now,
              lesson_id: id,
              position: i + 1,
              title: sl.title,
              content: sl.content ?? null,
            })),
          )
          .execute();
    }
    return {
      result: true,
      id,
      Lesson: { id, training_subject_id: subject.id, ...fields, mandatory: !!fields.mandatory },
    };
  });
}

/** POST /manager/trainings/missions/edit.json (unshown): a flight mission template of a training. */
export async function saveMission(
  ctx: AppContext,
  actor: Actor,
  input: { id?: string; training_id: string; name: string; flight_type_id?: string | null; minutes: number },
) {
  const training = await requireTraining(ctx.db, actor.companyId, input.training_id);
  if (input.flight_type_id) {
    const ft = await ctx.db
      .selectFrom('flight_types')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.flight_type_id)
      .executeTakeFirst();
    if (!ft) throw validationFailed({ flight_type_id: ['Unknown flight type'] });
  }
  const existing = input.id
    ? await ctx.db
        .selectFrom('training_missions')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', input.id)
        .where('training_id', '=', training.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : null;
  if (input.id && !existing) throw notFound(english('trainings.errMissionNotFound'));
  return ctx.tx(async (uow) => {
    const id = existing?.id ?? uuidv7();
    const fields = { name: input.name, flight_type_id: input.flight_type_id ?? null, minutes: input.minutes };
    if (existing)
      await uow.trx
        .updateTable('training_missions')
        .set({ ...fields, ...(await stamp(uow, actor.companyId, 'training_missions')) })
        .where('id', '=', id)
        .execute();
    else {
      const { p } = await uow.trx
        .selectFrom('training_missions')
        .select((eb) => eb.fn.max<number>('position').as('p'))
        .where('training_id', '=', training.id)
        .executeTakeFirstOrThrow();
      await uow.trx
        .insertInto('training_missions')
        .values({
          id,
          company_id: actor.companyId,
          ...(await stamp(uow, actor.companyId, 'training_missions')),
          deleted: 0,
          created: nowSeconds(),
          training_id: training.id,
          position: num(p) + 1,
          ...fields,
        })
        .execute();
    }
    return { result: true, id, Mission: { id, training_id: training.id, ...fields } };
  });
}

export interface ExamInput {
  id?: string;
  training_subject_id: string;
  training_subject_lesson_id?: string | null;
  name: string;
  type?: 'ONLINE' | 'ONSITE';
  reference?: string | null;
  description?: string | null;
  minutes?: number;
  mandatory?: boolean;
  caa_exam?: boolean;
  questions?: number;
  attempts?: number;
  score?: number;
  instructions?: string | null;
  show_answers?: boolean;
  expiration?: number;
  access_mode?: 'FREE' | 'SCHEDULED';
  access_window_days?: number;
  question_list?: { text: string; options: { text: string; correct?: boolean }[] }[];
}

/** POST /manager/trainings/subjects/add_exam.json (item 11). */
export async function saveExam(ctx: AppContext, actor: Actor, input: ExamInput) {
  const subject = await requireSubjectEditor(ctx, actor, input.training_subject_id);
  const existing = input.id
    ? await ctx.db
        .selectFrom('training_exams')
        .selectAll()
        .where('company_id', '=', actor.companyId)
        .where('id', '=', input.id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : null;
  if (input.id && (!existing || existing.subject_id !== subject.id))
    throw notFound(english('trainings.errExamNotFound'));
  const lessonId =
    input.training_subject_lesson_id === undefined
      ? (existing?.lesson_id ?? null)
      : input.training_subject_lesson_id || null;
  if (lessonId) {
    const l = await ctx.db
      .selectFrom('training_lessons')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', lessonId)
      .where('subject_id', '=', subject.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!l) throw validationFailed({ training_subject_lesson_id: ['Not a lesson of this subject'] });
  }
  const type = input.type ?? (existing?.type as 'ONLINE' | 'ONSITE' | undefined) ?? 'ONSITE';
  const online = type === 'ONLINE';
  if (online && input.question_list) {
    const bad = input.question_list.findIndex(
      (q) => q.options.filter((o) => o.correct).length !== 1 || q.options.length < 2,
    );
    if (bad >= 0)
      throw validationFailed({
        [`question_list.${bad}`]: ['A question needs at least two options and exactly one correct option'],
      });
  }
  const accessMode = online
    ? (input.access_mode ?? (existing?.access_mode as 'FREE' | 'SCHEDULED' | undefined) ?? 'FREE')
    : 'FREE';
  return ctx.tx(async (uow) => {
    const id = existing?.id ?? uuidv7();
    const fields = {
      name: input.name,
      type,
      lesson_id: lessonId,
      reference: input.reference === undefined ? (existing?.reference ?? null) : input.reference,
      description: input.description === undefined ? (existing?.description ?? null) : input.description,
      minutes: input.minutes ?? existing?.minutes ?? 0,
      mandatory: input.mandatory === undefined ? (existing?.mandatory ?? 1) : input.mandatory ? 1 : 0,
      caa_exam: input.caa_exam === undefined ? (existing?.caa_exam ?? 0) : input.caa_exam ? 1 : 0,
      questions: online ? (input.questions ?? existing?.questions ?? input.question_list?.length ?? 0) : 0,
      attempts: online ? (input.attempts ?? existing?.attempts ?? 0) : 0,
      score: online ? (input.score ?? existing?.score ?? 75) : 0,
      instructions: online
        ? input.instructions === undefined
          ? (existing?.instructions ?? null)
          : input.instructions
        : null,
      show_answers: online
        ? input.show_answers === undefined
          ? (existing?.show_answers ?? 0)
          : input.show_answers
            ? 1
            : 0
        : 0,
      expiration: online ? (input.expiration ?? existing?.expiration ?? 0) : 0,
      access_mode: accessMode,
      access_window_days: accessWindowDays(
        input.access_window_days ?? (existing ? num(existing.access_window_days) : undefined),
      ),
    };
    if (existing)
      await uow.trx
        .updateTable('training_exams')
        .set({ ...fields, ...(await stamp(uow, actor.companyId, 'training_exams')) })
        .where('id', '=', id)
        .execute();
    else
      await uow.trx
        .insertInto('training_exams')
        .values({
          id,
          company_id: actor.companyId,
          ...(await stamp(uow, actor.companyId, 'training_exams')),
          deleted: 0,
          created: nowSeconds(),
          training_id: subject.training_id,
          subject_id: subject.id,
          ...fields,
        })
        .execute();
    await ensureActivity(uow, actor.companyId, subject, 'EXAM', id);
    if (online && input.question_list) {
      await uow.trx.updateTable('training_questions').set({ deleted: 1 }).where('exam_id', '=', id).execute();
      for (const [i, q] of input.question_list.entries()) {
        const qid = uuidv7();
        await uow.trx
          .insertInto('training_questions')
          .values({ id: qid, company_id: actor.companyId, exam_id: id, position: i + 1, text: q.text, deleted: 0 })
          .execute();
        await uow.trx
          .insertInto('training_question_options')
          .values(
            q.options.map((o, j) => ({
              id: uuidv7(),
              company_id: actor.companyId,
              question_id: qid,
              position: j + 1,
              text: o.text,
              correct: o.correct ? 1 : 0,
            })),
          )
          .execute();
      }
    }
    const row = await uow.trx.selectFrom('training_exams').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { result: true, id, Exam: presentExam(row) };
  });
}

/**
 * Activity rows of a subject, repaired on read (item 7): lessons and exams
 * without a row get one at the end; a deleted row of a live entity is restored.
 */
async function repairedActivitiesMany(
  ctx: AppContext,
  companyId: string,
  subjects: readonly { id: string; training_id: string }[],
) {
  const ids = subjects.map((x) => x.id);
  const load = async () => {
    const lessons = ids.length
      ? await ctx.db
          .selectFrom('training_lessons')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('subject_id', 'in', ids)
          .where('deleted', '=', 0)
          .execute()
      : [];
    const exams = ids.length
      ? await ctx.db
          .selectFrom('training_exams')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('subject_id', 'in', ids)
          .where('deleted', '=', 0)
          .execute()
      : [];
    const activities = ids.length
      ? await ctx.db
          .selectFrom('training_activities')
          .selectAll()
          .where('company_id', '=', companyId)
          .where('subject_id', 'in', ids)
          .execute()
      : [];
    return { lessons, exams, activities };
  };
  let all = await load();
  const live = new Set(all.activities.filter((a) => !a.deleted).map((a) => `${a.subject_id}/${a.entity_id}`));
  const missing = [
    ...all.lessons.map((l) => ['LESSON', l.subject_id, l.id] as const),
    ...all.exams.map((x) => ['EXAM', x.subject_id as string, x.id] as const),
  ].filter(([, sid, id]) => !live.has(`${sid}/${id}`));
  if (missing.length) {
    const byId = new Map(subjects.map((x) => [x.id, x]));
    await ctx.tx(async (uow) => {
      for (const [kind, sid, id] of missing) {
        const subject = byId.get(sid);
        if (subject) await ensureActivity(uow, companyId, subject, kind, id);
      }
    });
    all = await load();
  }
  const out = new Map<
    string,
    { lessons: typeof all.lessons; exams: typeof all.exams; activities: typeof all.activities }
  >();
  for (const id of ids) out.set(id, { lessons: [], exams: [], activities: [] });
  for (const l of all.lessons) out.get(l.subject_id)?.lessons.push(l);
  for (const x of all.exams) if (x.subject_id) out.get(x.subject_id)?.exams.push(x);
  for (const a of all.activities) if (!a.deleted) out.get(a.subject_id)?.activities.push(a);
  for (const v of out.values())
    v.activities.sort((p, q) => num(p.position) - num(q.position) || p.id.localeCompare(q.id));
  return out;
}

async function repairedActivities(ctx: AppContext, companyId: string, subject: { id: string; training_id: string }) {
  return (
    (await repairedActivitiesMany(ctx, companyId, [subject])).get(subject.id) ?? {
      lessons: [],
      exams: [],
      activities: [],
    }
  );
}

/** GET /manager/trainings/subjects/view/{id}.json (item 7). */
export async function managerSubjectView(ctx: AppContext, actor: Actor, id: string) {
  const subject = await requireSubject(ctx.db, actor.companyId, id);
  const { lessons, exams, activities } = await repairedActivities(ctx, actor.companyId, subject);
  const lessonIds = new Set(lessons.map((l) => l.id));
  const examIds = new Set(exams.map((x) => x.id));
  return {
    subject: {
      id: subject.id,
      training_id: subject.training_id,
      name: subject.name,
      description: subject.description,
      teacher_id: subject.teacher_id,
      Lesson: lessons.map(presentLesson),
      Exam: exams.map(presentExam),
      TrainingActivity: activities
        .filter((a) => lessonIds.has(a.entity_id) || examIds.has(a.entity_id))
        .map((a) => ({
          id: a.id,
          kind: a.kind,
          order: num(a.position),
          lesson_id: a.kind === 'LESSON' ? a.entity_id : null,
          exam_id: a.kind === 'EXAM' ? a.entity_id : null,
        })),
      total_minutes: lessons.filter((l) => l.mandatory).reduce((s, l) => s + num(l.minutes), 0),
    },
  };
}

/** GET /manager/trainings/subjects/teachers.json (item 8): `{role name: {user id: "name surname"}}`. */
export async function subjectTeachers(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .where('user_group_id', 'in', [...TEACHER_ROLES])
    .orderBy('surname')
    .orderBy('name')
    .execute();
  const names: Record<number, string> = { 120: 'Head of training', 135: 'Ground instructor', 150: 'Flight instructor' };
  const teachers: Record<string, Record<string, string>> = {};
  for (const r of rows) {
    const group = names[r.user_group_id] ?? String(r.user_group_id);
    teachers[group] = { ...(teachers[group] ?? {}), [r.id]: `${r.name} ${r.surname}` };
  }
  return { teachers };
}

/** POST /manager/trainings/subjects/reorder_activities.json (item 9). */
export async function reorderActivities(ctx: AppContext, actor: Actor, input: { id: string; items: string[] }) {
  const subject = await requireSubjectEditor(ctx, actor, input.id);
  const mine = await ctx.db
    .selectFrom('training_activities')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('subject_id', '=', subject.id)
    .where('deleted', '=', 0)
    .execute();
  const ids = new Set(mine.map((a) => a.id));
  const ordered = [...new Set(input.items)].filter((i) => ids.has(i));
  await ctx.tx(async (uow) => {
    const st = await stamp(uow, actor.companyId, 'training_activities');
    for (const [i, id] of ordered.entries())
      await uow.trx
        .updateTable('training_activities')
        .set({ position: i + 1, ...st })
        .where('id', '=', id)
        .execute();
    // Activities left out keep their relative order after the given ones.
    const rest = (
      await uow.trx
        .selectFrom('training_activities')
        .select(['id'])
        .where('subject_id', '=', subject.id)
        .where('deleted', '=', 0)
        .orderBy('position')
        .execute()
    ).filter((a) => !ordered.includes(a.id));
    for (const [i, a] of rest.entries())
      await uow.trx
        .updateTable('training_activities')
        .set({ position: ordered.length + i + 1, ...st })
        .where('id', '=', a.id)
        .execute();
  });
  return { result: true, items: ordered };
}

/** POST /manager/trainings/subjects/activity_impact.json (item 10): read-only counts before deleting. */
export async function activityImpact(ctx: AppContext, actor: Actor, input: { lesson_id?: string; exam_id?: string }) {
  if (!!input.lesson_id === !!input.exam_id)
    throw badRequest('Give exactly one of lesson_id or exam_id', {
      errors: { lesson_id: ['Exactly one of lesson_id or exam_id'] },
    });
  let entityIds: string[];
  let examIds: string[];
  let sessionFilter: { column: 'lesson_id' | 'exam_id'; id: string };
  if (input.lesson_id) {
    const l = await ctx.db
      .selectFrom('training_lessons')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.lesson_id)
      .executeTakeFirst();
    if (!l) throw notFound(english('trainings.errLessonNotFound'));
    const gates = await ctx.db
      .selectFrom('training_exams')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('lesson_id', '=', l.id)
      .where('deleted', '=', 0)
      .execute();
    examIds = gates.map((g) => g.id);
    entityIds = [l.id, ...examIds];
    sessionFilter = { column: 'lesson_id', id: l.id };
  } else {
    const x = await ctx.db
      .selectFrom('training_exams')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', input.exam_id as string)
      .executeTakeFirst();
    if (!x) throw notFound(english('trainings.errExamNotFound'));
    examIds = [x.id];
    entityIds = [x.id];
    sessionFilter = { column: 'exam_id', id: x.id };
  }
  const progress = await ctx.db
    .selectFrom('training_progress as p')
    .innerJoin('training_activities as a', 'a.id', 'p.activity_id')
    .select(['p.enrollment_id', 'p.value'])
    .where('p.company_id', '=', actor.companyId)
    .where('a.entity_id', 'in', entityIds)
    .where('p.deleted', '=', 0)
    .execute();
  const attempts = await ctx.db
    .selectFrom('training_attempts')
    .select(['enrollment_id'])
    .where('company_id', '=', actor.companyId)
    .where('exam_id', 'in', examIds.length ? examIds : [''])
    .where('deleted', '=', 0)
    .execute();
  const completed = new Set(progress.filter((p) => Number(p.value) >= 1).map((p) => p.enrollment_id));
  const touched = new Set([...progress.map((p) => p.enrollment_id), ...attempts.map((a) => a.enrollment_id)]);
  const { n } = await ctx.db
    .selectFrom('training_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', actor.companyId)
    .where(sessionFilter.column, '=', sessionFilter.id)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return {
    result: true,
    studentsCompleted: completed.size,
    studentsTouched: touched.size,
    examAttempts: attempts.length,
    sessions: num(n),
  };
}

/** GET /manager/trainings/exams/list/{subjectId}.json (item 12): exams a session can hold. */
export async function sessionExams(ctx: AppContext, actor: Actor, subjectId: string) {
  const subject = await requireSubject(ctx.db, actor.companyId, subjectId);
  const rows = await ctx.db
    .selectFrom('training_exams')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('subject_id', '=', subject.id)
    .where('deleted', '=', 0)
    .where((eb) =>
      eb.or([eb('type', '=', 'ONSITE'), eb.and([eb('type', '=', 'ONLINE'), eb('access_mode', '=', 'SCHEDULED')])]),
    )
    .orderBy('name')
    .execute();
  return {
    exams: rows.map((x) => ({
      id: x.id,
      name: x.name,
      type: x.type,
      access_mode: x.access_mode,
      access_window_days: num(x.access_window_days),
      training_subject_lesson_id: x.lesson_id,
    })),
  };
}

/** Who may read an enrollment's subject (item 13): the student, the subject's teacher, roles <= 150. */
async function requireSubjectReader(ctx: AppContext, actor: Actor, enrollmentId: string, subjectId: string) {
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  const subject = await requireSubject(ctx.db, actor.companyId, subjectId);
  if (subject.training_id !== e.training_id) throw notFound(english('trainings.errSubjectNotFound'));
  if (!maySeeEnrollment(actor, e) && subject.teacher_id !== actor.userId)
    throw forbidden('You cannot see this student’s subject');
  return { e, subject };
}

/**
 * The ordered activities of one subject for one enrollment (items 13 and the
 * manager student view). `staff` shows attempts before a reset with `reset: true`.
 */
type SubjectRow = {
  id: string;
  training_id: string;
  name: string;
  description: string | null;
  teacher_id: string | null;
};

export async function enrollmentSubject(
  ctx: AppContext,
  companyId: string,
  e: { id: string; user_id: string },
  subject: SubjectRow,
  staff: boolean,
) {
  return (await enrollmentSubjects(ctx, companyId, e, [subject], staff))[0];
}

/** Several subjects of one enrollment in a fixed number of queries. */
export async function enrollmentSubjects(
  ctx: AppContext,
  companyId: string,
  e: { id: string; user_id: string },
  subjects: readonly SubjectRow[],
  staff: boolean,
) {
  const structure = await repairedActivitiesMany(ctx, companyId, subjects);
  const progress = await ctx.db
    .selectFrom('training_progress')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('enrollment_id', '=', e.id)
    .where('deleted', '=', 0)
    .execute();
  const progressByActivity = new Map(progress.map((p) => [p.activity_id, p]));
  const allAttempts = await ctx.db
    .selectFrom('training_attempts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('enrollment_id', '=', e.id)
    .where('deleted', '=', 0)
    .orderBy('start', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const allSessions = subjects.length
    ? await ctx.db
        .selectFrom('training_sessions as c')
        .innerJoin('training_session_students as ss', (j) =>
          j.onRef('ss.session_id', '=', 'c.id').on('ss.user_id', '=', e.user_id).on('ss.deleted', '=', 0),
        )
        .select([
          'c.id',
          'c.datetime',
          'c.minutes',
          'c.lesson_id',
          'c.subject_id',
          'ss.id as ss_id',
          'ss.invited',
          'ss.attended',
          'ss.attendance_status',
        ])
        .where('c.company_id', '=', companyId)
        .where(
          'c.subject_id',
          'in',
          subjects.map((x) => x.id),
        )
        .where('c.deleted', '=', 0)
        .orderBy('c.datetime')
        .execute()
    : [];
  return subjects.map((subject) => {
    const { lessons, exams, activities } = structure.get(subject.id) ?? { lessons: [], exams: [], activities: [] };
    const lessonById = new Map(lessons.map((l) => [l.id, l]));
    const examById = new Map(exams.map((x) => [x.id, x]));
    const attempts = allAttempts;
    const sessions = allSessions.filter((x) => x.subject_id === subject.id);
    const sessionProgress = new Map(progress.filter((p) => p.session_id).map((p) => [p.session_id as string, p]));
    const items = activities.flatMap((a): { TrainingActivity: Record<string, unknown> }[] => {
      const p = progressByActivity.get(a.id);
      const base = {
        id: a.id,
        kind: a.kind,
        order: num(a.position),
        progress: p
          ? { value: Number(p.value), reset_at: p.reset_at === null ? null : num(p.reset_at), session_id: p.session_id }
          : null,
      };
      if (a.kind === 'LESSON') {
        const l = lessonById.get(a.entity_id);
        if (!l) return [];
        return [
          {
            TrainingActivity: {
              ...base,
              Lesson: presentLesson(l),
              Sessions: sessions
                .filter((s) => s.lesson_id === l.id)
                .map((s) => {
                  const sp = sessionProgress.get(s.id);
                  return {
                    Session: { id: s.id, datetime: num(s.datetime), minutes: num(s.minutes) },
                    SessionStudent: {
                      id: s.ss_id,
                      invited: !!s.invited,
                      attended: sp ? Number(sp.value) >= 1 : !!s.attended,
                      attendance_status: s.attendance_status,
                    },
                  };
                }),
            },
          },
        ];
      }
      const x = examById.get(a.entity_id);
      if (!x) return [];
      const mine = attempts.filter((t) => t.exam_id === x.id);
      const resetAt = p?.reset_at ? num(p.reset_at) : null;
      const visible = staff
        ? mine
        : attemptsAfterReset(
            mine.map((t) => ({ ...t, start: num(t.start) })),
            resetAt,
          );
      return [
        {
          TrainingActivity: {
            ...base,
            Exam: presentExam(x),
            ExamAttempt: visible.map((t) => ({
              id: t.id,
              start: num(t.start),
              finished: t.finished_at === null ? null : num(t.finished_at),
              score: t.score === null ? null : Number(t.score),
              passed: !!t.passed,
              ...(staff ? { reset: resetAt !== null && num(t.start) <= resetAt } : {}),
            })),
          },
        },
      ];
    });
    return {
      id: subject.id,
      training_id: subject.training_id,
      name: subject.name,
      description: subject.description,
      teacher_id: subject.teacher_id,
      TrainingActivity: items.map((i) => i.TrainingActivity),
    };
  });
}

/** GET /trainings/subjects/view/{enrollmentId}/{subjectId}.json (item 13). */
export async function studentSubjectView(ctx: AppContext, actor: Actor, enrollmentId: string, subjectId: string) {
  const { e, subject } = await requireSubjectReader(ctx, actor, enrollmentId, subjectId);
  return {
    TrainingsUser: presentEnrollment(e, false),
    subject: await enrollmentSubject(ctx, actor.companyId, e, subject, false),
  };
}

/** GET /trainings/subjects/mine.json (item 6): subjects of the caller's unfinished enrollments. */
export async function mySubjects(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('training_enrollments as e')
    .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'e.training_id').on('t.deleted', '=', 0))
    .innerJoin('training_subjects as s', (j) => j.onRef('s.training_id', '=', 'e.training_id').on('s.deleted', '=', 0))
    .select([
      's.id',
      's.name',
      's.description',
      's.teacher_id',
      's.position',
      't.id as training_id',
      't.name as training_name',
      'e.id as enrollment_id',
    ])
    .where('e.company_id', '=', actor.companyId)
    .where('e.user_id', '=', actor.userId)
    .where('e.deleted', '=', 0)
    .where('e.finished', '=', 0)
    .orderBy('t.name')
    .orderBy('s.position')
    .orderBy('s.name')
    .limit(1000)
    .execute();
  return {
    subjects: rows.map((r) => ({
      Subject: {
        id: r.id,
        name: r.name,
        description: r.description,
        teacher_id: r.teacher_id,
        position: num(r.position),
      },
      Training: { id: r.training_id, name: r.training_name },
      enrollment_id: r.enrollment_id,
    })),
  };
}

/** GET /trainings/trainings/view/{id}.json (item 3): one enrollment in full. */
export async function trainingView(ctx: AppContext, actor: Actor, enrollmentId: string) {
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  if (!maySeeEnrollment(actor, e) && !(await teaches(ctx.db, actor, { trainingId: e.training_id })))
    throw forbidden('You cannot see this enrollment');
  return enrollmentInFull(ctx, actor, e, mayManageTrainings(actor));
}

async function enrollmentInFull(
  ctx: AppContext,
  actor: Actor,
  e: Awaited<ReturnType<typeof requireEnrollment>>,
  withNotes: boolean,
) {
  const training = await requireTraining(ctx.db, actor.companyId, e.training_id);
  const subjects = await ctx.db
    .selectFrom('training_subjects')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('training_id', '=', training.id)
    .where('deleted', '=', 0)
    .orderBy('position')
    .orderBy('name')
    .execute();
  const lessons = await ctx.db
    .selectFrom('training_lessons')
    .select(['id', 'name', 'minutes', 'subject_id'])
    .where('company_id', '=', actor.companyId)
    .where('training_id', '=', training.id)
    .where('deleted', '=', 0)
    .execute();
  const attempts = await ctx.db
    .selectFrom('training_attempts as a')
    .innerJoin('training_exams as x', 'x.id', 'a.exam_id')
    .selectAll('a')
    .select(['x.name as exam_name', 'x.type as exam_type', 'x.subject_id as exam_subject_id'])
    .where('a.company_id', '=', actor.companyId)
    .where('a.enrollment_id', '=', e.id)
    .where('a.deleted', '=', 0)
    .orderBy('a.start')
    .orderBy('a.id')
    .execute();
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'email'])
    .where('id', '=', e.user_id)
    .executeTakeFirst();
  return {
    TrainingsUser: presentEnrollment(e, withNotes),
    User: user ?? null,
    Training: {
      ...presentTraining(training),
      Subject: subjects.map((s) => ({
        id: s.id,
        name: s.name,
        teacher_id: s.teacher_id,
        Lesson: lessons
          .filter((l) => l.subject_id === s.id)
          .map((l) => ({ id: l.id, name: l.name, minutes: num(l.minutes) })),
      })),
    },
    ExamAttempt: attempts.map((a) => ({
      id: a.id,
      exam_id: a.exam_id,
      start: num(a.start),
      finished: a.finished_at === null ? null : num(a.finished_at),
      score: a.score === null ? null : Number(a.score),
      passed: !!a.passed,
      Exam: { id: a.exam_id, name: a.exam_name, type: a.exam_type, training_subject_id: a.exam_subject_id },
    })),
  };
}

/** GET /manager/trainings/students/view/{enrollmentId}.json: the enrollment in full plus every subject with pre-reset attempts marked. */
export async function managerStudentView(ctx: AppContext, actor: Actor, enrollmentId: string) {
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  const full = await enrollmentInFull(ctx, actor, e, true);
  const subjects = await ctx.db
    .selectFrom('training_subjects')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('training_id', '=', e.training_id)
    .where('deleted', '=', 0)
    .orderBy('position')
    .orderBy('name')
    .execute();
  const detailed = await enrollmentSubjects(ctx, actor.companyId, e, subjects, true);
  return { ...full, subjects: detailed };
}
