import { english } from '../../http/messages.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './trainings.tables.ts';
import type { TrainingsTable } from './trainings.tables.ts';
import { paginate } from '../../http/paging.ts';

export const MY_TRAININGS_PAGE = 30;
export const MANAGER_TRAININGS_PAGE = 50;

export type Db = Kysely<DB>;

export const bool = (v: number | boolean | null | undefined) => !!v && v !== 0;
export const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

export function pagination(page: number, shown: number, count: number, limit: number) {
  return paginate(page, limit, count, shown);
}

/** Stamps for a write to a replicated table. */
export async function stamp(uow: UnitOfWork, companyId: string, table: string) {
  return { change_no: await uow.changeNo(companyId, table), modified: nowSeconds() };
}

export async function requireTraining(db: Db, companyId: string, id: string) {
  const t = await db
    .selectFrom('trainings')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!t) throw notFound(english('trainings.errTrainingNotFound'));
  return t;
}

/** Part B 2.8 Training fields (`start`/`end` as `YYYY-MM-DD`). */
export function presentTraining(t: TrainingsTable) {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    active: bool(t.active),
    theory: bool(t.theory),
    flights: bool(t.flights),
    flights_count: num(t.flights_count),
    competencies: bool(t.competencies),
    metrics: bool(t.metrics),
    announcement: t.announcement,
    start: t.start_date,
    end: t.end_date,
    color: t.color,
    created: num(t.created),
    require_debriefing_signature: bool(t.require_debriefing_signature),
    classwork_deadline_default_days: num(t.classwork_deadline_default_days),
    justification_deadline_default_days: num(t.justification_deadline_default_days),
  };
}

export interface EnrollmentRow {
  id: string;
  training_id: string;
  user_id: string;
  supervisor_id: string | null;
  finish_before: number | null;
  finished: number;
  notes: string | null;
  status: string;
  status_reason: string | null;
  created: number;
}

export function presentEnrollment(e: EnrollmentRow, withNotes: boolean) {
  return {
    id: e.id,
    training_id: e.training_id,
    user_id: e.user_id,
    supervisor_id: e.supervisor_id,
    finish_before: e.finish_before === null ? null : num(e.finish_before),
    finished: bool(e.finished),
    status: e.status,
    status_reason: e.status_reason,
    created: num(e.created),
    ...(withNotes ? { notes: e.notes } : {}),
  };
}

export const ENROLLMENT_COLUMNS = [
  'e.id',
  'e.training_id',
  'e.user_id',
  'e.supervisor_id',
  'e.finish_before',
  'e.finished',
  'e.notes',
  'e.status',
  'e.status_reason',
  'e.created',
] as const;

/** An enrollment of the company (any state), with its training; 404 otherwise. */
export async function requireEnrollment(db: Db, companyId: string, id: string) {
  const e = await db
    .selectFrom('training_enrollments as e')
    .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'e.training_id').on('t.deleted', '=', 0))
    .select([
      ...ENROLLMENT_COLUMNS,
      't.type as training_type',
      't.flights as training_flights',
      't.theory as training_theory',
      't.active as training_active',
      't.name as training_name',
    ])
    .where('e.company_id', '=', companyId)
    .where('e.id', '=', id)
    .where('e.deleted', '=', 0)
    .executeTakeFirst();
  if (!e) throw notFound(english('trainings.errEnrollmentNotFound'));
  return e;
}

/** Whether the caller teaches a subject of the training (or this subject). */
export async function teaches(db: Db, actor: Actor, where: { trainingId?: string; subjectId?: string }) {
  let q = db
    .selectFrom('training_subjects')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('teacher_id', '=', actor.userId)
    .where('deleted', '=', 0);
  if (where.subjectId) q = q.where('id', '=', where.subjectId);
  if (where.trainingId) q = q.where('training_id', '=', where.trainingId);
  return !!(await q.limit(1).executeTakeFirst());
}

export const chunks = <T>(list: readonly T[], size = 500): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};
