import { uuidv7 } from '@ops/shared';
import { mayChangeDutyEntry, mayManageDutyOf } from '@ops/shared/rules/bases/policy';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { DEFAULT_EVENT_COLOR, findBase } from './bases.service.ts';
import type { BaseSchedulesTable } from './bases.tables.ts';
import type { TScheduleAdd, TScheduleEdit } from './bases.schema.ts';
import { said } from '../../http/messages.ts';

type ScheduleRow = Pick<BaseSchedulesTable, 'id' | 'base_id' | 'user_id' | 'start_at' | 'end_at' | 'type' | 'always'>;

/** Part A 2.8 `BaseSchedule`; `always` marks an always-available entry (no start or end). */
export const presentSchedule = (r: ScheduleRow) => ({
  id: r.id,
  base: r.base_id,
  pilot: r.user_id,
  start: r.start_at === null ? null : Number(r.start_at),
  end: r.end_at === null ? null : Number(r.end_at),
  type: r.type,
  always: !!r.always,
});

/** Staff manage anyone's entries; everyone else only their own (bases/policy.ts). */
function requireOwnerOrStaff(actor: Actor, userId: string): void {
  if (!mayManageDutyOf(actor, userId)) throw forbidden('You can only manage your own schedule');
}

async function companyPerson(db: Kysely<DB>, companyId: string, id: string) {
  const u = await db
    .selectFrom('users')
    .select(['id', 'active'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('Pilot not found');
  return u;
}

async function findSchedule(db: Kysely<DB>, companyId: string, id: string) {
  const r = await db
    .selectFrom('base_schedules')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!r) throw notFound('Schedule entry not found');
  return r;
}

/** A dated entry of the same person overlapping [start, end) (touching ends do not overlap). */
async function overlapping(
  db: Kysely<DB>,
  companyId: string,
  userId: string,
  start: number,
  end: number,
  exceptId?: string,
) {
  let q = db
    .selectFrom('base_schedules')
    .select(['id', 'start_at', 'end_at', 'type'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .where('always', '=', 0)
    .where('start_at', '<', end)
    .where('end_at', '>', start);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

/**
 * GET /bases/schedule/{id}.json: the base's entries of live accounts with the
 * pilot's name and calendar colour, always-available entries first, then by
 * start. `from` and `to` (unix, optional) keep the dated entries overlapping
 * that range.
 */
export async function listSchedules(
  ctx: AppContext,
  actor: Actor,
  baseId: string,
  range: { from?: number; to?: number },
) {
  const base = await findBase(ctx.db, actor.companyId, baseId);
  let q = ctx.db
    .selectFrom('base_schedules as s')
    // A deleted account is on nobody's calendar any more (as it leaves its pilot groups).
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 's.user_id').on('u.company_id', '=', actor.companyId).on('u.deleted', '=', 0),
    )
    .select([
      's.id',
      's.base_id',
      's.user_id',
      's.start_at',
      's.end_at',
      's.type',
      's.always',
      'u.name',
      'u.surname',
      'u.color',
    ])
    .where('s.company_id', '=', actor.companyId)
    .where('s.base_id', '=', base.id)
    .where('s.deleted', '=', 0);
  const { from, to } = range;
  if (from !== undefined) q = q.where((eb) => eb.or([eb('s.always', '=', 1), eb('s.end_at', '>', from)]));
  if (to !== undefined) q = q.where((eb) => eb.or([eb('s.always', '=', 1), eb('s.start_at', '<', to)]));
  const rows = await q.orderBy('s.always', 'desc').orderBy('s.start_at').orderBy('s.id').execute();
  return {
    schedules: rows.map((r) => ({
      BaseSchedule: presentSchedule(r),
      Pilot: {
        id: r.user_id,
        name: r.name,
        surname: r.surname,
        title: `${r.name} ${r.surname}`,
        eventColor: r.color || DEFAULT_EVENT_COLOR,
      },
    })),
  };
}

/**
 * POST /bases/add_schedule.json. A dated entry entirely in the past (its end
 * at or before now) is refused, as is one overlapping another dated entry of
 * the same person. An always-available entry says the person can be called at
 * that base at any time; one per person and base.
 */
export async function addSchedule(ctx: AppContext, actor: Actor, input: TScheduleAdd) {
  requireOwnerOrStaff(actor, input.pilot);
  const base = await findBase(ctx.db, actor.companyId, input.base);
  const person = await companyPerson(ctx.db, actor.companyId, input.pilot);
  if (!person.active) throw validationFailed({ pilot: ['This person is inactive'] });
  const now = nowSeconds();
  if (input.always) {
    const dup = await ctx.db
      .selectFrom('base_schedules')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', person.id)
      .where('base_id', '=', base.id)
      .where('always', '=', 1)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (dup) throw validationFailed({ always: ['This person is already always available at this base'] });
  } else {
    const start = input.start as number;
    const end = input.end as number;
    if (end <= now) throw validationFailed({ end: ['The entry is entirely in the past'] });
    const clash = await overlapping(ctx.db, actor.companyId, person.id, start, end);
    if (clash) throw validationFailed({ start: [`Overlaps another ${clash.type} entry of this person`] });
  }
  const id = uuidv7();
  await ctx.tx(async (uow) => {
    await uow.trx
      .insertInto('base_schedules')
      .values({
        id,
        company_id: actor.companyId,
        change_no: await uow.changeNo(actor.companyId, 'base_schedules'),
        deleted: 0,
        created: now,
        modified: now,
        base_id: base.id,
        user_id: person.id,
        start_at: input.always ? null : (input.start ?? null),
        end_at: input.always ? null : (input.end ?? null),
        type: input.type,
        always: input.always ? 1 : 0,
        created_by: actor.userId,
      })
      .execute();
  });
  return { result: true, id, BaseSchedule: presentSchedule(await findSchedule(ctx.db, actor.companyId, id)) };
}

/**
 * POST /bases/edit_schedule.json: past entries (ended at or before now) and
 * always-available entries cannot be edited; an entry under way keeps its
 * start and type (only its end moves).
 */
export async function editSchedule(ctx: AppContext, actor: Actor, input: TScheduleEdit) {
  const row = await findSchedule(ctx.db, actor.companyId, input.id);
  requireOwnerOrStaff(actor, row.user_id);
  const now = nowSeconds();
  if (row.always)
    throw validationFailed({ id: ['An always-available entry has no times: delete it and add a dated entry'] });
  if (row.end_at !== null && Number(row.end_at) <= now)
    throw validationFailed({ id: ['Past records cannot be edited'] }, 'errors', 'Past records cannot be edited');
  if (input.end <= now) throw validationFailed({ end: ['The entry would be entirely in the past'] });
  // An entry under way is half history: its elapsed part stays as it was, only its end may move.
  if (row.start_at !== null && Number(row.start_at) <= now) {
    const frozen: Record<string, string[]> = {};
    if (input.start !== Number(row.start_at)) frozen.start = ['The entry has started: its start cannot change'];
    if (input.type !== undefined && input.type !== row.type)
      frozen.type = ['The entry has started: its type cannot change; shorten it and add a new entry'];
    if (Object.keys(frozen).length) throw validationFailed(frozen);
  }
  const clash = await overlapping(ctx.db, actor.companyId, row.user_id, input.start, input.end, row.id);
  if (clash) throw validationFailed({ start: [`Overlaps another ${clash.type} entry of this person`] });
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('base_schedules')
      .set({
        start_at: input.start,
        end_at: input.end,
        ...(input.type ? { type: input.type } : {}),
        change_no: await uow.changeNo(actor.companyId, 'base_schedules'),
        modified: now,
      })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', row.id)
      .execute();
  });
  return {
    result: true,
    id: row.id,
    BaseSchedule: presentSchedule(await findSchedule(ctx.db, actor.companyId, row.id)),
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET /bases/delete_schedule/{id}.json: one entry by UUID; `all`: every future
 * dated entry (start after now) of the caller; `always`: every
 * always-available entry of the caller. Staff may pass `pilot` to clear
 * another person's entries. A past entry is duty history: only staff delete it.
 */
export async function deleteSchedule(ctx: AppContext, actor: Actor, id: string, pilot?: string) {
  const now = nowSeconds();
  if (id === 'all' || id === 'always') {
    const userId = pilot ?? actor.userId;
    requireOwnerOrStaff(actor, userId);
    if (userId !== actor.userId) await companyPerson(ctx.db, actor.companyId, userId);
    const deleted = await ctx.tx(async (uow) => {
      let q = uow.trx
        .updateTable('base_schedules')
        .set({ deleted: 1, change_no: await uow.changeNo(actor.companyId, 'base_schedules'), modified: now })
        .where('company_id', '=', actor.companyId)
        .where('user_id', '=', userId)
        .where('deleted', '=', 0);
      q = id === 'always' ? q.where('always', '=', 1) : q.where('always', '=', 0).where('start_at', '>', now);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    });
    return { result: true, deleted, ...said('errors.entriesDeleted', { count: deleted }) };
  }
  if (!UUID_RE.test(id))
    throw badRequest('Expected a schedule id (UUID), `all` or `always`', {
      errors: { id: ['Expected a UUID, all or always'] },
    });
  const row = await findSchedule(ctx.db, actor.companyId, id);
  requireOwnerOrStaff(actor, row.user_id);
  if (!mayChangeDutyEntry(actor, row, now))
    throw forbidden('Past schedule entries are duty history; ask the operations staff');
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('base_schedules')
      .set({ deleted: 1, change_no: await uow.changeNo(actor.companyId, 'base_schedules'), modified: now })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', row.id)
      .execute();
  });
  return { result: true, deleted: 1, id: row.id, message: 'Schedule entry deleted' };
}
