import { english, said } from '../../http/messages.ts';
import { maySeeTrainingSummary } from '@ops/shared/rules/trainings/policy';
import { uuidv7 } from '@ops/shared';
import {
  attendedFrom,
  canTransition,
  type EnrollmentStatus,
  isFinishedStatus,
  reasonRequired,
  theoryAttendance,
} from '@ops/shared/rules/trainings/progress';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, HttpError, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { notify } from '../notifications/notifications.notify.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import {
  chunks,
  ENROLLMENT_COLUMNS,
  num,
  pagination,
  presentEnrollment,
  requireEnrollment,
  requireTraining,
  stamp,
} from './trainings.repository.ts';
import { flownHours, plannedHours, progressOf, structureOf, theoryOf } from './progress.service.ts';

export interface EnrollInput {
  training_id?: unknown;
  students?: unknown;
  supervisor_id?: unknown;
  finish_before?: unknown;
}

/**
 * POST /manager/trainings/students/enroll.json (item 18). Entries of
 * `students` that are user ids of the company are users; other entries are
 * pilot group ids of the company, expanded to their members; anything else is
 * ignored. A user with an unfinished enrollment in the training is skipped; a
 * finished one is enrolled again. `results[userId]` is the saved enrollment,
 * or false when the user cannot be enrolled (inactive account).
 */
export async function enroll(ctx: AppContext, actor: Actor, raw: EnrollInput | undefined) {
  if (!raw || typeof raw !== 'object' || Object.keys(raw).length === 0) throw badRequest('Empty request');
  if (typeof raw.training_id !== 'string' || !raw.training_id.trim())
    throw badRequest('training_id is required', { errors: { training_id: ['Required'] } });
  const students = Array.isArray(raw.students)
    ? raw.students
    : raw.students && typeof raw.students === 'object'
      ? null
      : null;
  if (!students) throw badRequest('students must be an array', { errors: { students: ['Expected an array'] } });
  let finishBefore: number | null = null;
  if (
    raw.finish_before !== undefined &&
    raw.finish_before !== null &&
    raw.finish_before !== '' &&
    raw.finish_before !== 0 &&
    raw.finish_before !== '0' &&
    raw.finish_before !== false
  ) {
    const n = Number(raw.finish_before);
    if (!Number.isInteger(n) || n < 0)
      throw badRequest('finish_before must be unix seconds', { errors: { finish_before: ['Expected unix seconds'] } });
    finishBefore = n;
  }
  const supervisorId =
    typeof raw.supervisor_id === 'string' && raw.supervisor_id.trim() ? raw.supervisor_id.trim() : null;
  const entries = [
    ...new Set(
      students
        .filter((s) => typeof s === 'string' || typeof s === 'number')
        .map((s) => String(s).trim())
        .filter(Boolean),
    ),
  ];
  if (!entries.length) throw notFound('No students given');
  if (entries.length > 2000) throw badRequest('Too many students', { errors: { students: ['At most 2000 entries'] } });
  const training = await requireTraining(ctx.db, actor.companyId, raw.training_id.trim());
  if (supervisorId) {
    const sup = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', supervisorId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!sup) throw validationFailed({ supervisor_id: ['Unknown supervisor'] });
  }

  // Resolve entries: users first, the rest as pilot groups.
  const users = new Map<string, { id: string; active: number }>();
  for (const part of chunks(entries)) {
    for (const u of await ctx.db
      .selectFrom('users')
      .select(['id', 'active'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', part)
      .where('deleted', '=', 0)
      .execute())
      users.set(u.id, u);
  }
  const direct = new Set(users.keys());
  const groupIds = entries.filter((e) => !direct.has(e));
  const fromGroups = new Set<string>();
  for (const part of chunks(groupIds)) {
    const members = await ctx.db
      .selectFrom('pilot_group_members as m')
      .innerJoin('pilot_groups as g', 'g.id', 'm.pilot_group_id')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'm.user_id').on('u.deleted', '=', 0))
      .select(['u.id', 'u.active'])
      .where('g.company_id', '=', actor.companyId)
      .where('m.pilot_group_id', 'in', part)
      .execute();
    for (const m of members) {
      if (!users.has(m.id)) users.set(m.id, m);
      fromGroups.add(m.id);
    }
  }
  const userIds = [...users.keys()];
  const open = new Set<string>();
  for (const part of chunks(userIds)) {
    const rows = await ctx.db
      .selectFrom('training_enrollments')
      .select('user_id')
      .where('company_id', '=', actor.companyId)
      .where('training_id', '=', training.id)
      .where('user_id', 'in', part)
      .where('deleted', '=', 0)
      .where('finished', '=', 0)
      .execute();
    for (const r of rows) open.add(r.user_id);
  }

  return ctx.tx(async (uow) => {
    const results: Record<string, unknown> = {};
    const skipped: string[] = [];
    const created: string[] = [];
    const now = nowSeconds();
    for (const [userId, u] of users) {
      if (open.has(userId)) {
        skipped.push(userId);
        continue;
      }
      if (!u.active) {
        results[userId] = false;
        continue;
      }
      const row = {
        id: uuidv7(),
        company_id: actor.companyId,
        ...(await stamp(uow, actor.companyId, 'training_enrollments')),
        deleted: 0,
        created: now,
        training_id: training.id,
        user_id: userId,
        supervisor_id: supervisorId,
        finish_before: finishBefore,
        finished: 0,
        notes: null,
        status: 'ACTIVE',
        status_reason: null,
        status_changed_at: null,
        status_changed_by: null,
      };
      await uow.trx.insertInto('training_enrollments').values(row).execute();
      results[userId] = { TrainingsUser: presentEnrollment(row, false) };
      created.push(userId);
      if (training.active) {
        await notify(uow, {
          companyId: actor.companyId,
          userIds: [userId],
          title: english('trainings.notifyEnrolled', { training: training.name }),
          titleId: 'trainings.notifyEnrolled',
          titleValues: { training: training.name },
          body: null,
          link: `/trainings/trainings/view/${row.id}`,
        });
      }
    }
    return { result: true, results, skipped, from_groups: [...fromGroups] };
  });
}

const STUDENT_FILTERS = ['training', 'finished', 'group', 'pilot_group', 'username', 'page'] as const;
export const STUDENTS_PAGE = 50;

/**
 * GET /manager/trainings/students/list/… (item 18): enrollments of the company
 * with the student; filters `training`, `finished` (0/1), `group` (role number),
 * `pilot_group`, `username` (name, surname or email contains), `page`.
 */
export async function listStudents(ctx: AppContext, actor: Actor, f: Record<string, string>) {
  const errors: Record<string, string[]> = {};
  if (f.finished !== undefined && !['0', '1', 'true', 'false'].includes(f.finished))
    errors.finished = ['Expected 0 or 1'];
  if (f.group !== undefined && !/^\d{1,4}$/.test(f.group)) errors.group = ['Expected a role number'];
  if (f.page !== undefined && !/^[1-9]\d{0,6}$/.test(f.page)) errors.page = ['Expected a page number'];
  if (Object.keys(errors).length) throw badRequest('Invalid filters', { errors });
  if (f.training) await requireTraining(ctx.db, actor.companyId, f.training);
  const page = f.page ? Number(f.page) : 1;
  const base = () => {
    let q = ctx.db
      .selectFrom('training_enrollments as e')
      .innerJoin('trainings as t', (j) => j.onRef('t.id', '=', 'e.training_id').on('t.deleted', '=', 0))
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .where('e.company_id', '=', actor.companyId)
      .where('e.deleted', '=', 0);
    if (f.training) q = q.where('e.training_id', '=', f.training);
    if (f.finished !== undefined) q = q.where('e.finished', '=', f.finished === '1' || f.finished === 'true' ? 1 : 0);
    if (f.group) q = q.where('u.user_group_id', '=', Number(f.group));
    if (f.pilot_group) {
      const g = f.pilot_group;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('pilot_group_members as m')
            .select('m.id')
            .whereRef('m.user_id', '=', 'e.user_id')
            .where('m.pilot_group_id', '=', g)
            .where('m.company_id', '=', actor.companyId),
        ),
      );
    }
    if (f.username) {
      const like = `%${f.username.toLowerCase().replace(/[%_\\]/g, '')}%`;
      q = q.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['u.name']), 'like', like),
          eb(eb.fn('lower', ['u.surname']), 'like', like),
          eb(eb.fn('lower', ['u.email']), 'like', like),
        ]),
      );
    }
    return q;
  };
  const { n } = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base()
    .select([
      ...ENROLLMENT_COLUMNS,
      't.name as training_name',
      't.theory',
      't.flights',
      'u.name',
      'u.surname',
      'u.email',
      'u.user_group_id',
    ])
    .orderBy('u.surname')
    .orderBy('u.name')
    .orderBy('e.id')
    .limit(STUDENTS_PAGE)
    .offset((page - 1) * STUDENTS_PAGE)
    .execute();
  const [structure, progress] = await Promise.all([
    structureOf(
      ctx.db,
      actor.companyId,
      rows.map((r) => r.training_id),
      actor.companyVersion,
    ),
    progressOf(
      ctx.db,
      actor.companyId,
      rows.map((r) => r.id),
    ),
  ]);
  const students = rows.map((r) => {
    const p = theoryOf(structure.get(r.training_id), progress.get(r.id));
    const st = structure.get(r.training_id);
    return {
      TrainingsUser: presentEnrollment(r, true),
      Training: { id: r.training_id, name: r.training_name },
      User: { id: r.user_id, name: r.name, surname: r.surname, email: r.email, user_group_id: r.user_group_id },
      Progress: {
        theory: r.theory ? { total: p.total, completed: p.completed, percentage: p.percentage } : null,
        flight: r.flights ? { total: st?.missions ?? 0, completed: progress.get(r.id)?.missionsCompleted ?? 0 } : null,
      },
    };
  });
  return { students, pagination: pagination(page, students.length, num(n), STUDENTS_PAGE) };
}

export function parseStudentFilters(segments: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  for (const raw of segments ?? []) {
    if (raw === '') continue;
    const cut = raw.indexOf(':');
    const key = cut > 0 ? raw.slice(0, cut) : raw;
    if (cut <= 0 || !(STUDENT_FILTERS as readonly string[]).includes(key)) {
      errors[key] = [`Expected one of ${STUDENT_FILTERS.join(', ')} as name:value`];
      continue;
    }
    const value = decodeURIComponent(raw.slice(cut + 1)).trim();
    if (value !== '') out[key] = value;
  }
  if (Object.keys(errors).length) throw badRequest('Invalid named parameters', { errors });
  return out;
}

/** POST /manager/trainings/students/notes.json: `{id, notes}` replaces the enrollment's manager notes. */
export async function saveNotes(ctx: AppContext, actor: Actor, input: { id: string; notes: string | null }) {
  const e = await requireEnrollment(ctx.db, actor.companyId, input.id);
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('training_enrollments')
      .set({ notes: input.notes, ...(await stamp(uow, actor.companyId, 'training_enrollments')) })
      .where('id', '=', e.id)
      .execute();
  });
  return { result: true, message: english('trainings.msgNotesSaved'), id: e.id, notes: input.notes };
}

/**
 * POST /manager/trainings/students/status.json (docs/areas/trainings.md):
 * the manager transitions of 3.4. `finished` follows the state; closing as
 * STOPPED, FAILED or EXPELLED needs a reason.
 */
export async function changeStatus(
  ctx: AppContext,
  actor: Actor,
  input: { id: string; status: EnrollmentStatus; status_reason?: string | null },
) {
  const e = await requireEnrollment(ctx.db, actor.companyId, input.id);
  const from = e.status as EnrollmentStatus;
  if (from === input.status)
    return {
      result: false,
      ...said('trainings.errEnrollmentAlready', { status: from }),
      TrainingsUser: presentEnrollment(e, true),
    };
  if (!canTransition(from, input.status))
    throw new HttpError(400, {
      result: false,
      ...said('trainings.errEnrollmentMove', { from, to: input.status }),
      errors: { status: [`Not allowed from ${from}`] },
    });
  const reason = input.status_reason?.trim() || null;
  if (reasonRequired(input.status) && !reason) throw validationFailed({ status_reason: ['A reason is required'] });
  if (input.status === 'ACTIVE') {
    const other = await ctx.db
      .selectFrom('training_enrollments')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('training_id', '=', e.training_id)
      .where('user_id', '=', e.user_id)
      .where('id', '!=', e.id)
      .where('deleted', '=', 0)
      .where('finished', '=', 0)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    if (other) throw badRequest(english('trainings.errOtherEnrollment'));
  }
  const changed = await ctx.tx(async (uow) => {
    // Conditional on the status read above: of two simultaneous changes only one applies (and emits).
    const res = await uow.trx
      .updateTable('training_enrollments')
      .set({
        status: input.status,
        status_reason: input.status === 'ACTIVE' ? null : reason,
        finished: isFinishedStatus(input.status) ? 1 : 0,
        status_changed_at: nowSeconds(),
        status_changed_by: actor.userId,
        ...(await stamp(uow, actor.companyId, 'training_enrollments')),
      })
      .where('id', '=', e.id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    if (input.status === 'COMPLETED')
      await emitWebhook(uow, actor.companyId, 'enrollment.completed', 'TrainingsUser', e.id, async () => ({
        TrainingsUser: presentEnrollment(await requireEnrollment(uow.trx, actor.companyId, e.id), true),
      }));
    return true;
  });
  const fresh = await requireEnrollment(ctx.db, actor.companyId, e.id);
  if (!changed)
    return {
      result: false,
      ...said('trainings.errEnrollmentChanged', { status: fresh.status }),
      TrainingsUser: presentEnrollment(fresh, true),
    };
  return {
    result: true,
    ...said('trainings.msgEnrollment', { status: input.status }),
    TrainingsUser: presentEnrollment(fresh, true),
  };
}

/** GET /trainings/students/summary/{enrollmentId}.json (item 5). */
export async function studentSummary(ctx: AppContext, actor: Actor, id: string | undefined) {
  if (!id) throw badRequest('Enrollment id is required');
  const e = await requireEnrollment(ctx.db, actor.companyId, id);
  if (!maySeeTrainingSummary(actor, e)) throw forbidden(english('trainings.errOwnSummary'));
  const now = nowSeconds();
  // Independent reads together: the structure (cached by company version), progress, sessions and mission flights.
  const [structures, datas, sessions, missions] = await Promise.all([
    structureOf(ctx.db, actor.companyId, [e.training_id], actor.companyVersion),
    progressOf(ctx.db, actor.companyId, [e.id]),
    ctx.db
      .selectFrom('training_session_students as ss')
      .innerJoin('training_sessions as c', (j) => j.onRef('c.id', '=', 'ss.session_id').on('c.deleted', '=', 0))
      .innerJoin('training_subjects as s', (j) => j.onRef('s.id', '=', 'c.subject_id').on('s.deleted', '=', 0))
      .select(['c.datetime', 'ss.invited', 'ss.attended', 'ss.attendance_status'])
      .where('ss.company_id', '=', actor.companyId)
      .where('ss.user_id', '=', e.user_id)
      .where('c.training_id', '=', e.training_id)
      .where('ss.deleted', '=', 0)
      .execute(),
    e.training_flights
      ? ctx.db
          .selectFrom('training_mission_flights as mf')
          .leftJoin('flights as f', (j) => j.onRef('f.id', '=', 'mf.flight_id').on('f.status', '=', 'LANDED'))
          .select([
            (eb) => eb.fn.countAll<number>().as('attempts'),
            (eb) => eb.fn.sum<number>('mf.completed').as('passed'),
            (eb) => eb.fn.sum<number>('f.block_time').as('block'),
          ])
          .where('mf.company_id', '=', actor.companyId)
          .where('mf.enrollment_id', '=', e.id)
          .where('mf.deleted', '=', 0)
          .executeTakeFirstOrThrow()
      : null,
  ]);
  const structure = structures.get(e.training_id);
  const data = datas.get(e.id);
  const progress = theoryOf(structure, data);
  const attendance = theoryAttendance(
    e.training_type,
    sessions.map((r) => ({
      past: num(r.datetime) < now,
      invited: !!r.invited,
      attended: attendedFrom(r.attendance_status, !!r.attended),
    })),
    progress,
  );
  let flight: Record<string, unknown> | null = null;
  if (missions) {
    flight = {
      progress: { total: structure?.missions ?? 0, completed: data?.missionsCompleted ?? 0 },
      attendance: { attempts: num(missions.attempts), passed: num(missions.passed) },
      hours: { planned: plannedHours(structure?.missionMinutes ?? 0), flown: flownHours(num(missions.block)) },
    };
  }
  return {
    result: true,
    enrollment_id: e.id,
    training: { id: e.training_id, name: e.training_name, type: e.training_type },
    theory: {
      progress: { completed: progress.completed, total: progress.total, percentage: progress.percentage },
      attendance,
    },
    flight,
    status: e.status,
    status_reason: e.status_reason,
  };
}

export async function requireCompanyUser(ctx: AppContext, companyId: string, id: string) {
  const u = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'email', 'user_group_id'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('User not found');
  return u;
}
