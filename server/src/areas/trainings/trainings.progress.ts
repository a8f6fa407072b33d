import {
  type AttemptRow,
  type ExamNode,
  type ExamType,
  flownHours,
  indexProgress,
  type LessonNode,
  type ProgressRow,
  plannedHours,
  type TheoryProgress,
  theoryProgress,
} from '@ops/shared/rules/trainings/progress';
import { sql } from 'kysely';
import { chunks, type Db, num } from './trainings.common.ts';

export interface Structure {
  lessons: LessonNode[];
  exams: ExamNode[];
  subjects: number;
  missions: number;
  missionMinutes: number;
}

/** Lessons and exams (with their activity ids) of live subjects, per training, in three queries. */
export async function structureOf(db: Db, companyId: string, trainingIds: readonly string[]): Promise<Map<string, Structure>> {
  const out = new Map<string, Structure>();
  const ids = [...new Set(trainingIds)];
  for (const id of ids) out.set(id, { lessons: [], exams: [], subjects: 0, missions: 0, missionMinutes: 0 });
  if (!ids.length) return out;
  for (const part of chunks(ids)) {
    const lessons = await db
      .selectFrom('training_lessons as l')
      .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'l.subject_id').on('s.deleted', '=', 0))
      .leftJoin('training_activities as a', (j) => j.onRef('a.subject_id', '=', 'l.subject_id').onRef('a.entity_id', '=', 'l.id').on('a.deleted', '=', 0))
      .select(['l.id', 'l.training_id', 'l.mandatory', 'a.id as activity_id'])
      .where('l.company_id', '=', companyId)
      .where('l.training_id', 'in', part)
      .where('l.deleted', '=', 0)
      .execute();
    for (const l of lessons) out.get(l.training_id)?.lessons.push({ id: l.id, activityId: l.activity_id, mandatory: !!l.mandatory });
    const exams = await db
      .selectFrom('training_exams as x')
      .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'x.subject_id').on('s.deleted', '=', 0))
      .leftJoin('training_activities as a', (j) => j.onRef('a.subject_id', '=', 'x.subject_id').onRef('a.entity_id', '=', 'x.id').on('a.deleted', '=', 0))
      .leftJoin('training_lessons as gl', 'gl.id', 'x.lesson_id')
      .select(['x.id', 'x.training_id', 'x.type', 'x.lesson_id', 'x.mandatory', 'a.id as activity_id', 'gl.deleted as gate_deleted'])
      .where('x.company_id', '=', companyId)
      .where('x.training_id', 'in', part)
      .where('x.deleted', '=', 0)
      .execute();
    for (const x of exams) {
      // A gate of a deleted lesson counts as a subject exam.
      const lessonId = x.lesson_id && !x.gate_deleted ? x.lesson_id : null;
      out.get(x.training_id)?.exams.push({ id: x.id, activityId: x.activity_id, type: x.type as ExamType, lessonId, mandatory: !!x.mandatory });
    }
    const subjects = await db
      .selectFrom('training_subjects')
      .select(['training_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('company_id', '=', companyId)
      .where('training_id', 'in', part)
      .where('deleted', '=', 0)
      .groupBy('training_id')
      .execute();
    for (const s of subjects) {
      const st = out.get(s.training_id);
      if (st) st.subjects = num(s.n);
    }
    const missions = await db
      .selectFrom('training_missions')
      .select(['training_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('minutes').as('minutes')])
      .where('company_id', '=', companyId)
      .where('training_id', 'in', part)
      .where('deleted', '=', 0)
      .groupBy('training_id')
      .execute();
    for (const m of missions) {
      const st = out.get(m.training_id);
      if (st) {
        st.missions = num(m.n);
        st.missionMinutes = num(m.minutes);
      }
    }
  }
  return out;
}

export interface EnrollmentProgressData {
  progress: ProgressRow[];
  attempts: AttemptRow[];
  missionsCompleted: number;
}

/** Progress rows, finished attempts and completed missions of a set of enrollments. */
export async function progressOf(db: Db, companyId: string, enrollmentIds: readonly string[]): Promise<Map<string, EnrollmentProgressData>> {
  const out = new Map<string, EnrollmentProgressData>();
  for (const id of enrollmentIds) out.set(id, { progress: [], attempts: [], missionsCompleted: 0 });
  for (const part of chunks([...new Set(enrollmentIds)])) {
    if (!part.length) continue;
    const rows = await db
      .selectFrom('training_progress')
      .select(['enrollment_id', 'activity_id', 'value', 'reset_at'])
      .where('company_id', '=', companyId)
      .where('enrollment_id', 'in', part)
      .where('deleted', '=', 0)
      .execute();
    for (const r of rows) out.get(r.enrollment_id)?.progress.push({ activityId: r.activity_id, value: Number(r.value), resetAt: r.reset_at === null ? null : num(r.reset_at) });
    const attempts = await db
      .selectFrom('training_attempts')
      .select(['enrollment_id', 'exam_id', 'start', 'passed', 'finished_at'])
      .where('company_id', '=', companyId)
      .where('enrollment_id', 'in', part)
      .where('deleted', '=', 0)
      .where('passed', '=', 1)
      .execute();
    for (const a of attempts) out.get(a.enrollment_id)?.attempts.push({ examId: a.exam_id, start: num(a.start), passed: !!a.passed, finished: a.finished_at !== null });
    const missions = await db
      .selectFrom('training_mission_flights')
      .select(['enrollment_id', sql<number>`count(distinct mission_id)`.as('n')])
      .where('company_id', '=', companyId)
      .where('enrollment_id', 'in', part)
      .where('deleted', '=', 0)
      .where('completed', '=', 1)
      .groupBy('enrollment_id')
      .execute();
    for (const m of missions) {
      const d = out.get(m.enrollment_id);
      if (d) d.missionsCompleted = num(m.n);
    }
  }
  return out;
}

export function theoryOf(structure: Structure | undefined, data: EnrollmentProgressData | undefined): TheoryProgress {
  return theoryProgress(structure?.lessons ?? [], structure?.exams ?? [], indexProgress(data?.progress ?? [], data?.attempts ?? []));
}

export { flownHours, plannedHours };
