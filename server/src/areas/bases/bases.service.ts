import { ROLES, uuidv7 } from '@ops/shared';
import { getAirport } from '@ops/shared/airports';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { rememberAirports } from '../flights/flights.service.ts';
import type { TBaseAdd, TBaseEdit } from './bases.schema.ts';
import './bases.tables.ts';

/** Makes one base the company default and unsets the previous one (Part A 3: a single default base). */
export async function setDefaultBase(
  uow: UnitOfWork,
  actor: Actor,
  baseId: string,
): Promise<{ previous: string | null }> {
  const trx = uow.trx;
  const base = await trx
    .selectFrom('bases')
    .select(['id', 'is_default'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', baseId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!base) throw notFound('Base not found');
  const previous = await trx
    .selectFrom('bases')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('is_default', '=', 1)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (base.is_default) return { previous: base.id };
  const changeNo = await uow.changeNo(actor.companyId, 'bases');
  const now = nowSeconds();
  await trx
    .updateTable('bases')
    .set({ is_default: 0, change_no: changeNo, modified: now })
    .where('company_id', '=', actor.companyId)
    .where('is_default', '=', 1)
    .execute();
  await trx
    .updateTable('bases')
    .set({ is_default: 1, change_no: changeNo, modified: now })
    .where('company_id', '=', actor.companyId)
    .where('id', '=', baseId)
    .execute();
  return { previous: previous?.id ?? null };
}

type BaseRow = { id: string; name: string; is_default: number; airport_id: string | null; company_id: string };

/** Part A 2.8 `Base`. */
export const presentBase = (b: BaseRow) => ({
  id: b.id,
  name: b.name,
  default: !!b.is_default,
  airport_id: b.airport_id,
  company_id: b.company_id,
});

const liveBases = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('bases')
    .select(['id', 'name', 'is_default', 'airport_id', 'company_id'])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0);

export async function findBase(db: Kysely<DB>, companyId: string, id: string): Promise<BaseRow> {
  const b = await liveBases(db, companyId).where('id', '=', id).executeTakeFirst();
  if (!b) throw notFound('Base not found');
  return b;
}

/** GET /bases/index.json: live bases by name. */
export async function listBases(ctx: AppContext, actor: Actor) {
  const rows = await liveBases(ctx.db, actor.companyId).orderBy('name').orderBy('id').execute();
  return { bases: rows.map((b) => ({ Base: presentBase(b) })) };
}

/** The shipped airport record of a base (the airports database travels with the code, no query). */
function presentAirport(icao: string | null) {
  if (!icao) return null;
  const a = getAirport(icao);
  if (!a)
    return {
      id: icao,
      name: null,
      city: null,
      country_iso: null,
      country_name: null,
      lat: null,
      lon: null,
      timezone: null,
    };
  return {
    id: a.icao,
    name: a.name,
    city: a.city,
    country_iso: a.country_iso,
    country_name: a.country_name,
    lat: a.lat,
    lon: a.lon,
    timezone: a.tz,
  };
}

/**
 * GET /bases/view/{id}.json (omitted id: the default base): the base, its
 * airport, the aircraft based there and the pilots and mechanics assigned to
 * it. Three indexed queries whatever the size of the base.
 */
export async function viewBase(ctx: AppContext, actor: Actor, id: string | undefined) {
  let base: BaseRow | undefined;
  if (id) base = await findBase(ctx.db, actor.companyId, id);
  else base = await liveBases(ctx.db, actor.companyId).where('is_default', '=', 1).executeTakeFirst();
  if (!base) throw notFound('The company has no default base');
  const aircraft = await ctx.db
    .selectFrom('aircraft as a')
    .leftJoin('aircraft_models as m', 'm.id', 'a.model_id')
    .select([
      'a.id',
      'a.registration',
      'a.active',
      'a.multiengine',
      'a.multipilot',
      'a.simulator',
      'm.name as model_name',
    ])
    .where('a.company_id', '=', actor.companyId)
    .where('a.base_id', '=', base.id)
    .where('a.deleted', '=', 0)
    .orderBy('a.registration')
    .orderBy('a.id')
    .execute();
  const people = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id', 'pilot', 'active', 'photo', 'color'])
    .where('company_id', '=', actor.companyId)
    .where('base_id', '=', base.id)
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('pilot', '=', 1), eb('user_group_id', '=', ROLES.MECHANIC)]))
    .orderBy('name')
    .orderBy('surname')
    .orderBy('id')
    .execute();
  const person = (u: (typeof people)[number]) => ({
    id: u.id,
    name: u.name,
    surname: u.surname,
    active: !!u.active,
    photo: u.photo,
    color: u.color,
  });
  return {
    Base: presentBase(base),
    Airport: presentAirport(base.airport_id),
    Aircraft: aircraft.map((a) => ({
      id: a.id,
      registration: a.registration,
      active: !!a.active,
      multiengine: !!a.multiengine,
      multipilot: !!a.multipilot,
      simulator: !!a.simulator,
      model: a.model_name,
    })),
    Pilots: people.filter((u) => u.pilot && u.user_group_id !== ROLES.MECHANIC).map(person),
    Mechanics: people.filter((u) => u.user_group_id === ROLES.MECHANIC).map(person),
  };
}

export const DEFAULT_EVENT_COLOR = '#3788d8';

/** GET /bases/crew/{id}.json: active pilots of the base as calendar resources. */
export async function baseCrew(ctx: AppContext, actor: Actor, id: string) {
  const base = await findBase(ctx.db, actor.companyId, id);
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'color'])
    .where('company_id', '=', actor.companyId)
    .where('base_id', '=', base.id)
    .where('pilot', '=', 1)
    .where('active', '=', 1)
    .where('deleted', '=', 0)
    .orderBy('name')
    .orderBy('surname')
    .orderBy('id')
    .execute();
  return rows.map((u) => ({ id: u.id, title: `${u.name} ${u.surname}`, eventColor: u.color || DEFAULT_EVENT_COLOR }));
}

async function nameTaken(db: Kysely<DB>, companyId: string, name: string, exceptId?: string): Promise<boolean> {
  // Compared in JavaScript: SQLite's lower() folds ASCII only, so "Ópera" and "ópera" would differ there
  // but not on PostgreSQL. A company has few of these rows.
  let q = db.selectFrom('bases').select(['id', 'name']).where('company_id', '=', companyId).where('deleted', '=', 0);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const wanted = name.toLocaleLowerCase();
  return (await q.execute()).some((r) => r.name.toLocaleLowerCase() === wanted);
}

/**
 * POST /bases/add.json. The first base of a company becomes its default
 * whatever was asked, so a company with bases always has exactly one default.
 */
export async function createBase(ctx: AppContext, actor: Actor, input: TBaseAdd) {
  if (await nameTaken(ctx.db, actor.companyId, input.name))
    throw validationFailed({ name: ['A base with this name already exists'] });
  const id = uuidv7();
  await ctx.tx(async (uow) => {
    const now = nowSeconds();
    const hasDefault = await liveBases(uow.trx, actor.companyId).where('is_default', '=', 1).executeTakeFirst();
    await uow.trx
      .insertInto('bases')
      .values({
        id,
        company_id: actor.companyId,
        change_no: await uow.changeNo(actor.companyId, 'bases'),
        deleted: 0,
        created: now,
        modified: now,
        name: input.name,
        is_default: hasDefault ? 0 : 1,
        airport_id: input.airport_id ?? null,
      })
      .execute();
    if (input.default && hasDefault) await setDefaultBase(uow, actor, id);
    await rememberAirports(uow, actor.companyId, [input.airport_id ?? null]);
  });
  const saved = await findBase(ctx.db, actor.companyId, id);
  return { result: true, id, message: 'Base created', Base: presentBase(saved) };
}

/** POST /bases/edit/{id}.json: only the fields sent change. The default moves only by making another base the default. */
export async function editBase(ctx: AppContext, actor: Actor, id: string, input: TBaseEdit) {
  const base = await findBase(ctx.db, actor.companyId, id);
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && (await nameTaken(ctx.db, actor.companyId, input.name, base.id)))
    errors.name = ['A base with this name already exists'];
  if (input.default === false && base.is_default)
    errors.default = ['The company needs a default base: make another base the default instead'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  await ctx.tx(async (uow) => {
    const set: { name?: string; airport_id?: string | null } = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.airport_id !== undefined) set.airport_id = input.airport_id;
    if (Object.keys(set).length) {
      await uow.trx
        .updateTable('bases')
        .set({ ...set, change_no: await uow.changeNo(actor.companyId, 'bases'), modified: nowSeconds() })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', base.id)
        .execute();
    }
    if (input.default === true) await setDefaultBase(uow, actor, base.id);
    if (input.airport_id) await rememberAirports(uow, actor.companyId, [input.airport_id]);
  });
  const saved = await findBase(ctx.db, actor.companyId, id);
  return { result: true, id, message: 'Base saved', Base: presentBase(saved) };
}

/**
 * POST /bases/delete/{id}.json. The default base cannot be deleted (make
 * another base the default first). Aircraft and people of the deleted base
 * move to the default base; its future and always-available schedule entries
 * are removed, past ones stay as duty history. Everything in one transaction.
 */
export async function deleteBase(ctx: AppContext, actor: Actor, id: string) {
  const base = await findBase(ctx.db, actor.companyId, id);
  if (base.is_default)
    throw validationFailed(
      { id: ['The default base cannot be deleted: make another base the default first'] },
      'errors',
      'The default base cannot be deleted',
    );
  const moved = await ctx.tx(async (uow) => {
    const trx = uow.trx;
    const now = nowSeconds();
    const target = await liveBases(trx, actor.companyId).where('is_default', '=', 1).executeTakeFirst();
    const targetId = target?.id ?? null;
    await trx
      .updateTable('bases')
      .set({ deleted: 1, is_default: 0, change_no: await uow.changeNo(actor.companyId, 'bases'), modified: now })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', base.id)
      .execute();
    const aircraft = await trx
      .updateTable('aircraft')
      .set({ base_id: targetId, change_no: await uow.changeNo(actor.companyId, 'aircraft'), modified: now })
      .where('company_id', '=', actor.companyId)
      .where('base_id', '=', base.id)
      .executeTakeFirst();
    const users = await trx
      .updateTable('users')
      .set({ base_id: targetId, change_no: await uow.changeNo(actor.companyId, 'users'), modified: now })
      .where('company_id', '=', actor.companyId)
      .where('base_id', '=', base.id)
      .executeTakeFirst();
    const schedules = await trx
      .updateTable('base_schedules')
      .set({ deleted: 1, change_no: await uow.changeNo(actor.companyId, 'base_schedules'), modified: now })
      .where('company_id', '=', actor.companyId)
      .where('base_id', '=', base.id)
      .where('deleted', '=', 0)
      .where((eb) => eb.or([eb('always', '=', 1), eb('start_at', '>', now)]))
      .executeTakeFirst();
    return {
      base_id: targetId,
      aircraft: Number(aircraft.numUpdatedRows),
      users: Number(users.numUpdatedRows),
      schedules: Number(schedules.numUpdatedRows),
    };
  });
  return {
    result: true,
    id: base.id,
    message: 'Base deleted',
    moved_to: moved.base_id,
    moved: { aircraft: moved.aircraft, users: moved.users },
    removed_schedules: moved.schedules,
  };
}
