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
import { chunks, type Db, num } from './trainings.repository.ts';

export interface Structure {
  lessons: LessonNode[];
  exams: ExamNode[];
  subjects: number;
  missions: number;
  missionMinutes: number;
}

/** Lessons and exams (with their activity ids) of live subjects, subject and mission counts, per training: four queries run together. */
async function loadStructures(
  db: Db,
  companyId: string,
  trainingIds: readonly string[],
): Promise<Map<string, Structure>> {
  const out = new Map<string, Structure>();
  const ids = [...new Set(trainingIds)];
  for (const id of ids) out.set(id, { lessons: [], exams: [], subjects: 0, missions: 0, missionMinutes: 0 });
  if (!ids.length) return out;
  for (const part of chunks(ids)) {
    const [lessons, exams, subjects, missions] = await Promise.all([
      db
        .selectFrom('training_lessons as l')
        .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'l.subject_id').on('s.deleted', '=', 0))
        .leftJoin('training_activities as a', (j) =>
          j.onRef('a.subject_id', '=', 'l.subject_id').onRef('a.entity_id', '=', 'l.id').on('a.deleted', '=', 0),
        )
        .select(['l.id', 'l.training_id', 'l.mandatory', 'a.id as activity_id'])
        .where('l.company_id', '=', companyId)
        .where('l.training_id', 'in', part)
        .where('l.deleted', '=', 0)
        .execute(),
      db
        .selectFrom('training_exams as x')
        .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'x.subject_id').on('s.deleted', '=', 0))
        .leftJoin('training_activities as a', (j) =>
          j.onRef('a.subject_id', '=', 'x.subject_id').onRef('a.entity_id', '=', 'x.id').on('a.deleted', '=', 0),
        )
        .leftJoin('training_lessons as gl', 'gl.id', 'x.lesson_id')
        .select([
          'x.id',
          'x.training_id',
          'x.type',
          'x.lesson_id',
          'x.mandatory',
          'a.id as activity_id',
          'gl.deleted as gate_deleted',
        ])
        .where('x.company_id', '=', companyId)
        .where('x.training_id', 'in', part)
        .where('x.deleted', '=', 0)
        .execute(),
      db
        .selectFrom('training_subjects')
        .select(['training_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('company_id', '=', companyId)
        .where('training_id', 'in', part)
        .where('deleted', '=', 0)
        .groupBy('training_id')
        .execute(),
      db
        .selectFrom('training_missions')
        .select([
          'training_id',
          (eb) => eb.fn.countAll<number>().as('n'),
          (eb) => eb.fn.sum<number>('minutes').as('minutes'),
        ])
        .where('company_id', '=', companyId)
        .where('training_id', 'in', part)
        .where('deleted', '=', 0)
        .groupBy('training_id')
        .execute(),
    ]);
    for (const l of lessons)
      out.get(l.training_id)?.lessons.push({ id: l.id, activityId: l.activity_id, mandatory: !!l.mandatory });
    for (const x of exams) {
      // A gate of a deleted lesson counts as a subject exam.
      const lessonId = x.lesson_id && !x.gate_deleted ? x.lesson_id : null;
      out.get(x.training_id)?.exams.push({
        id: x.id,
        activityId: x.activity_id,
        type: x.type as ExamType,
        lessonId,
        mandatory: !!x.mandatory,
      });
    }
    for (const s of subjects) {
      const st = out.get(s.training_id);
      if (st) st.subjects = num(s.n);
    }
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

/**
 * Structures by training, keyed by the company's data version (its change
 * number, read with the credential: `actor.companyVersion`). Every write to
 * subjects, lessons, exams, activities and missions stamps the company's next
 * change number in the same transaction (db/unit-of-work.ts), so a structure
 * read at version V is exact while the company's counter reads V; the version
 * is read before the structure, so an entry is never older than its version.
 * Each server process keeps its own cache and reads the version from the
 * database, so several processes stay correct.
 */
const MAX_CACHED_STRUCTURES = 2000;
// Per database handle: a test process runs several servers with their own data.
const structureCaches = new WeakMap<Db, Map<string, { version: number; structure: Structure }>>();

/** The structures of the trainings; from the cache when the caller knows the company's version. */
export async function structureOf(
  db: Db,
  companyId: string,
  trainingIds: readonly string[],
  version?: number,
): Promise<Map<string, Structure>> {
  if (version === undefined) return loadStructures(db, companyId, trainingIds);
  let cache = structureCaches.get(db);
  if (!cache) {
    cache = new Map();
    structureCaches.set(db, cache);
  }
  const out = new Map<string, Structure>();
  const missing: string[] = [];
  for (const id of new Set(trainingIds)) {
    const key = `${companyId}/${id}`;
    const hit = cache.get(key);
    if (hit && hit.version === version) {
      // Re-insert: Map order is the recency order for eviction.
      cache.delete(key);
      cache.set(key, hit);
      out.set(id, hit.structure);
    } else missing.push(id);
  }
  if (!missing.length) return out;
  for (const [id, structure] of await loadStructures(db, companyId, missing)) {
    out.set(id, structure);
    const key = `${companyId}/${id}`;
    cache.delete(key);
    cache.set(key, { version, structure });
  }
  for (const key of cache.keys()) {
    if (cache.size <= MAX_CACHED_STRUCTURES) break;
    cache.delete(key);
  }
  return out;
}

export interface EnrollmentProgressData {
  progress: ProgressRow[];
  attempts: AttemptRow[];
  missionsCompleted: number;
}

/** Progress rows, finished attempts and completed missions of a set of enrollments. */
export async function progressOf(
  db: Db,
  companyId: string,
  enrollmentIds: readonly string[],
): Promise<Map<string, EnrollmentProgressData>> {
  const out = new Map<string, EnrollmentProgressData>();
  for (const id of enrollmentIds) out.set(id, { progress: [], attempts: [], missionsCompleted: 0 });
  for (const part of chunks([...new Set(enrollmentIds)])) {
    if (!part.length) continue;
    const [rows, attempts, missions] = await Promise.all([
      db
        .selectFrom('training_progress')
        .select(['enrollment_id', 'activity_id', 'value', 'reset_at'])
        .where('company_id', '=', companyId)
        .where('enrollment_id', 'in', part)
        .where('deleted', '=', 0)
        .execute(),
      db
        .selectFrom('training_attempts')
        .select(['enrollment_id', 'exam_id', 'start', 'passed', 'finished_at'])
        .where('company_id', '=', companyId)
        .where('enrollment_id', 'in', part)
        .where('deleted', '=', 0)
        .where('passed', '=', 1)
        .execute(),
      db
        .selectFrom('training_mission_flights')
        .select(['enrollment_id', sql<number>`count(distinct mission_id)`.as('n')])
        .where('company_id', '=', companyId)
        .where('enrollment_id', 'in', part)
        .where('deleted', '=', 0)
        .where('completed', '=', 1)
        .groupBy('enrollment_id')
        .execute(),
    ]);
    for (const r of rows)
      out.get(r.enrollment_id)?.progress.push({
        activityId: r.activity_id,
        value: Number(r.value),
        resetAt: r.reset_at === null ? null : num(r.reset_at),
      });
    for (const a of attempts)
      out.get(a.enrollment_id)?.attempts.push({
        examId: a.exam_id,
        start: num(a.start),
        passed: !!a.passed,
        finished: a.finished_at !== null,
      });
    for (const m of missions) {
      const d = out.get(m.enrollment_id);
      if (d) d.missionsCompleted = num(m.n);
    }
  }
  return out;
}

export function theoryOf(structure: Structure | undefined, data: EnrollmentProgressData | undefined): TheoryProgress {
  return theoryProgress(
    structure?.lessons ?? [],
    structure?.exams ?? [],
    indexProgress(data?.progress ?? [], data?.attempts ?? []),
  );
}

export { flownHours, plannedHours };
