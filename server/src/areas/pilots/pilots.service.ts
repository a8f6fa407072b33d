import { english, said } from '../../http/messages.ts';
import { uuidv7 } from '@ops/shared';
import {
  DEFAULT_PILOT_ROLE,
  mayViewPilotInFull,
  pilotCreationRoleRefusal,
  pilotRoleChangeRefusal,
} from '@ops/shared/rules/pilots/policy';
import { isAuditorRole, isMechanicRole, mayChangeAccount } from '@ops/shared/rules/users/policy';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { UsersTable } from '../../db/core-tables.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { type FieldErrors, forbidden, HttpError, notFound, zodFieldErrors } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { FREE_PLAN_PILOT_LIMIT } from '../company/company.service.ts';
import { defined, detailColumns, flag } from '../users/user-detail.repository.ts';
import { auditorExpirationError } from '../users/users.service.ts';
import { diff, type FieldChange, recordUserChange } from './history.repository.ts';
import { loginForNewAccount, moveToEmail, staffConfirmMail } from './identity.service.ts';
import { type TPilotCreate, type TPilotEdit, ZPilotEdit } from './pilots.schema.ts';
import './pilots.tables.ts';
import { touchReadiness } from '../readiness/readiness.repository.ts';

/** `User.created` may lie at most this far ahead. */
export const CREATED_MAX_AHEAD = 48 * 3600;

/** Unix seconds from a number or numeric text, positive and at most 48 hours ahead; anything else is dropped. */
export function sanitizeCreated(raw: unknown, now: number): number | undefined {
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw)
        ? Number(raw)
        : Number.NaN;
  if (!Number.isFinite(n) || n <= 0 || n > now + CREATED_MAX_AHEAD) return undefined;
  return Math.floor(n);
}

async function livePilots(db: Kysely<DB>, companyId: string, exceptId?: string): Promise<number> {
  let q = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .where('pilot', '=', 1)
    .where('active', '=', 1);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function emailTaken(db: Kysely<DB>, companyId: string, email: string, exceptId?: string): Promise<boolean> {
  let q = db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('email', '=', email)
    .where('deleted', '=', 0);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Base and supervisor must be live records of the company (404 otherwise, like any foreign record). */
async function checkRefs(
  db: Kysely<DB>,
  companyId: string,
  baseId: string | null | undefined,
  supervisorId: string | null | undefined,
) {
  if (baseId) {
    const b = await db
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', baseId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!b) throw notFound('Base not found');
  }
  if (supervisorId) {
    const s = await db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', supervisorId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!s) throw notFound(english('pilots.errSupervisorNotFound'));
  }
}

async function sendAll(ctx: AppContext, mails: OutgoingMail[]) {
  for (const m of mails) await ctx.mailer.send(m);
}

/**
 * POST /pilots/create.json (Part A 4.8 item 3). Role 190 by default, never
 * below 150; the free plan holds at most 100 active pilots; a staff
 * confirmation mail goes out when an email is set, the account is active and
 * `send_email` is true. Answers `{id, result, validation}`.
 */
export async function createPilot(ctx: AppContext, actor: Actor, input: TPilotCreate) {
  const u = input.User;
  const d = input.UserDetail;
  const role = u.user_group_id ?? DEFAULT_PILOT_ROLE;
  const auditor = isAuditorRole(role);
  const errors: FieldErrors = {};
  if (!d.name) errors['UserDetail.name'] = ['Name is required'];
  if (!d.surname) errors['UserDetail.surname'] = ['Surname is required'];
  const roleRefusal = pilotCreationRoleRefusal(role);
  if (roleRefusal) errors['User.user_group_id'] = [roleRefusal];
  if (auditor) {
    const e = auditorExpirationError(u.expiration, actor.company.timezone);
    if (e) errors['User.expiration'] = [e];
  }
  if (u.email && (await emailTaken(ctx.db, actor.companyId, u.email)))
    errors['User.email'] = ['This email already has an account in your company'];
  const pilot = auditor ? false : (u.pilot ?? !isMechanicRole(role));
  const active = u.active ?? true;
  if (
    pilot &&
    active &&
    actor.plan === 'free' &&
    (await livePilots(ctx.db, actor.companyId)) >= FREE_PLAN_PILOT_LIMIT
  ) {
    errors['User.pilot'] = [`The free plan holds at most ${FREE_PLAN_PILOT_LIMIT} pilots`];
  }
  if (Object.keys(errors).length) {
    const limit = errors['User.pilot'] && Object.keys(errors).length === 1;
    throw new HttpError(400, {
      id: null,
      result: false,
      ...(limit ? said('pilots.errFreePlan', { limit: FREE_PLAN_PILOT_LIMIT }) : { message: 'Validation failed' }),
      validation: errors,
    });
  }
  await checkRefs(ctx.db, actor.companyId, u.base_id, u.supervisor_id);

  const now = nowSeconds();
  const own = await ctx.db.selectFrom('users').select('timezone_id').where('id', '=', actor.userId).executeTakeFirst();
  const id = uuidv7();
  const mails: OutgoingMail[] = [];
  await ctx.tx(async (uow) => {
    const login = u.email ? await loginForNewAccount(uow, u.email) : null;
    const row: Insertable<UsersTable> = {
      id,
      company_id: actor.companyId,
      change_no: await uow.changeNo(actor.companyId, 'users'),
      deleted: 0,
      created: sanitizeCreated(u.created, now) ?? now,
      modified: now,
      identity_id: login?.identityId ?? null,
      email: u.email ?? null,
      email_status: login?.status ?? 'pending',
      active: active ? 1 : 0,
      pilot: pilot ? 1 : 0,
      billing: u.billing ? 1 : 0,
      user_group_id: role,
      base_id: u.base_id ?? null,
      supervisor_id: u.supervisor_id ?? null,
      language: u.language ?? 'en',
      api: 0,
      two_factor: auditor ? 'EMAIL' : 'OFF',
      totp_secret: null,
      expiration: u.expiration ?? null,
      name: d.name as string,
      surname: d.surname as string,
      public_phone: 0,
      flight_hours: 0,
      timezone_id: own?.timezone_id ?? actor.company.timezone,
      ...detailColumns(d),
    };
    await uow.trx.insertInto('users').values(row).execute();
    await recordUserChange(uow, actor.companyId, id, actor.userId, 'create', [
      { field: 'user_group_id', from: null, to: role },
      { field: 'email', from: null, to: u.email ?? null },
      { field: 'active', from: null, to: active ? 1 : 0 },
      { field: 'created', from: null, to: row.created },
    ]);
    if (login && u.email && active && u.send_email === true) {
      mails.push(
        await staffConfirmMail(uow, actor, {
          id,
          name: d.name as string,
          email: u.email,
          identityId: login.identityId,
          needsPassword: login.needsPassword,
        }),
      );
    }
  });
  await sendAll(ctx, mails);
  return { id, result: true, validation: {} };
}

/** Field errors as the flat list of POST /pilots/edit.json (`"UserDetail.name: Name is required"`). */
const flatten = (errors: FieldErrors): string[] =>
  Object.entries(errors).flatMap(([field, list]) => list.map((m) => `${field}: ${m}`));

function editFailure(id: string | null, errors: FieldErrors): HttpError {
  const list = flatten(errors);
  return new HttpError(400, { id, result: false, message: list.join('; '), errors: list });
}

/** Ids of a map must be live records of the company; a foreign id is 404 like any foreign record. */
async function checkIds(
  db: Kysely<DB>,
  table: 'aircraft' | 'flight_types' | 'pilot_groups',
  companyId: string,
  ids: readonly string[] | undefined,
  missing: 'errors.aircraftNotFound' | 'errors.flightTypeNotFound' | 'errors.pilotGroupNotFound',
) {
  if (!ids?.length) return;
  const found =
    table === 'pilot_groups'
      ? await db
          .selectFrom('pilot_groups')
          .select('id')
          .where('company_id', '=', companyId)
          .where('id', 'in', [...ids])
          .execute()
      : await db
          .selectFrom(table)
          .select('id')
          .where('company_id', '=', companyId)
          .where('deleted', '=', 0)
          .where('id', 'in', [...ids])
          .execute();
  if (found.length !== new Set(ids).size) throw new HttpError(404, { result: false, ...said(missing) });
}

type JoinTable = 'pilot_aircraft' | 'pilot_flight_types' | 'pilot_group_members';

async function currentJoin(db: Kysely<DB>, table: JoinTable, companyId: string, userId: string): Promise<string[]> {
  let refs: string[];
  if (table === 'pilot_aircraft')
    refs = (
      await db
        .selectFrom('pilot_aircraft')
        .select('aircraft_id as ref')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .execute()
    ).map((r) => r.ref);
  else if (table === 'pilot_flight_types')
    refs = (
      await db
        .selectFrom('pilot_flight_types')
        .select('flight_type_id as ref')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .execute()
    ).map((r) => r.ref);
  else
    refs = (
      await db
        .selectFrom('pilot_group_members')
        .select('pilot_group_id as ref')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .execute()
    ).map((r) => r.ref);
  return refs.sort();
}

/** Existing joins are wiped and re-saved (Part A 4.8 item 5). */
async function replaceJoin(
  uow: UnitOfWork,
  table: JoinTable,
  companyId: string,
  userId: string,
  ids: readonly string[],
) {
  await uow.trx.deleteFrom(table).where('company_id', '=', companyId).where('user_id', '=', userId).execute();
  if (!ids.length) return;
  const now = nowSeconds();
  const row = () => ({ id: uuidv7(), company_id: companyId, user_id: userId, created: now });
  if (table === 'pilot_aircraft')
    await uow.trx
      .insertInto(table)
      .values(ids.map((ref) => ({ ...row(), aircraft_id: ref })))
      .execute();
  else if (table === 'pilot_flight_types')
    await uow.trx
      .insertInto(table)
      .values(ids.map((ref) => ({ ...row(), flight_type_id: ref })))
      .execute();
  else
    await uow.trx
      .insertInto(table)
      .values(ids.map((ref) => ({ ...row(), pilot_group_id: ref })))
      .execute();
}

/**
 * POST /pilots/edit.json (Part A 4.8 item 5). Validates everything before
 * writing; one transaction writes the account, the login preferences, the
 * joins, the history row and ends the sessions of a changed role. Answers
 * `{id, result, errors[]}`.
 */
export async function editPilot(ctx: AppContext, actor: Actor, raw: unknown) {
  const parsed = ZPilotEdit.safeParse(raw ?? {});
  const rawId = ((raw as { User?: { id?: unknown }; data?: { User?: { id?: unknown } } } | null)?.User?.id ?? null) as
    | string
    | null;
  if (!parsed.success) throw editFailure(typeof rawId === 'string' ? rawId : null, zodFieldErrors(parsed.error));
  const input: TPilotEdit = parsed.data;
  const u = input.User;
  const d = input.UserDetail;
  const target = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', u.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!target) throw notFound('Pilot not found');
  if (!mayChangeAccount(actor, target)) throw forbidden(english('pilots.errAboveRole'));

  const role = u.user_group_id ?? target.user_group_id;
  const roleChanged = role !== target.user_group_id;
  const auditor = isAuditorRole(role);
  const errors: FieldErrors = {};
  if (roleChanged) {
    const e = pilotRoleChangeRefusal(actor, target, role);
    if (e) errors['User.user_group_id'] = [e];
  }
  if (auditor) {
    const e = auditorExpirationError(
      u.expiration === undefined ? target.expiration : u.expiration,
      actor.company.timezone,
    );
    if (e) errors['User.expiration'] = [e];
  }
  const emailChanged = u.email !== undefined && u.email !== target.email;
  if (emailChanged && u.email && (await emailTaken(ctx.db, actor.companyId, u.email, target.id)))
    errors['User.email'] = ['This email already has an account in your company'];
  if (u.active === false && target.id === actor.userId) errors['User.active'] = ['You cannot deactivate yourself'];
  const pilot = auditor ? false : (u.pilot ?? !!target.pilot);
  const active = u.active ?? !!target.active;
  if (
    pilot &&
    active &&
    !(target.pilot && target.active) &&
    actor.plan === 'free' &&
    (await livePilots(ctx.db, actor.companyId, target.id)) >= FREE_PLAN_PILOT_LIMIT
  ) {
    errors['User.pilot'] = [`The free plan holds at most ${FREE_PLAN_PILOT_LIMIT} pilots`];
  }
  if (Object.keys(errors).length) throw editFailure(target.id, errors);
  await checkRefs(ctx.db, actor.companyId, u.base_id, u.supervisor_id);
  if (u.supervisor_id === target.id)
    throw editFailure(target.id, { 'User.supervisor_id': ['A person cannot supervise themself'] });
  await checkIds(ctx.db, 'aircraft', actor.companyId, input.AttributedAircraft, 'errors.aircraftNotFound');
  await checkIds(ctx.db, 'flight_types', actor.companyId, input.FlightType, 'errors.flightTypeNotFound');
  await checkIds(ctx.db, 'pilot_groups', actor.companyId, input.PilotGroup, 'errors.pilotGroupNotFound');

  const now = nowSeconds();
  // Every editor of this endpoint has role <= 150, the spec's condition for writing `created`.
  const created = mayViewPilotInFull(actor) ? sanitizeCreated(u.created, now) : undefined;
  const mails: OutgoingMail[] = [];
  await ctx.tx(async (uow) => {
    const set: Updateable<UsersTable> = {
      ...detailColumns(d),
      ...defined({
        active: flag(u.active),
        billing: flag(u.billing),
        base_id: u.base_id,
        supervisor_id: u.supervisor_id,
        language: u.language,
        expiration: u.expiration,
        user_group_id: u.user_group_id,
        created,
      }),
      pilot: pilot ? 1 : 0,
    };
    // Part A 4.4: an external auditor never leaves EMAIL two-factor, whatever endpoint changes the role.
    if (auditor) set.two_factor = 'EMAIL';
    if (emailChanged)
      Object.assign(
        set,
        await moveToEmail(uow, actor, target, u.email ?? null, active && u.send_email === true, mails),
      );
    const changes: FieldChange[] = diff(target as unknown as Record<string, unknown>, set as Record<string, unknown>);
    set.change_no = await uow.changeNo(actor.companyId, 'users');
    set.modified = now;
    await uow.trx
      .updateTable('users')
      .set(set)
      .where('company_id', '=', actor.companyId)
      .where('id', '=', target.id)
      .execute();

    // Preferences live on the login and are shared by every account of the email; WhatsApp is only ever switched off here.
    const identityId = (set.identity_id === undefined ? target.identity_id : set.identity_id) as string | null;
    const prefs = defined({
      alerts: flag(u.alerts),
      message_alerts: flag(u.message_alerts),
      newsletter: flag(u.newsletter),
      whatsapp: u.whatsapp === false ? 0 : undefined,
    });
    if (identityId && Object.keys(prefs).length) {
      const before = await uow.trx
        .selectFrom('identities')
        .select(['alerts', 'message_alerts', 'newsletter', 'whatsapp'])
        .where('id', '=', identityId)
        .executeTakeFirstOrThrow();
      changes.push(...diff(before, prefs, 'preferences.'));
      await uow.trx
        .updateTable('identities')
        .set({ ...prefs, modified: now })
        .where('id', '=', identityId)
        .execute();
    }

    const joins: Array<[JoinTable, string[] | undefined, string]> = [
      ['pilot_aircraft', input.AttributedAircraft, 'AttributedAircraft'],
      ['pilot_flight_types', input.FlightType, 'FlightType'],
      ['pilot_group_members', input.PilotGroup, 'PilotGroup'],
    ];
    for (const [table, ids, name] of joins) {
      if (ids === undefined) continue;
      const before = await currentJoin(uow.trx, table, actor.companyId, target.id);
      const after = [...new Set(ids)].sort();
      changes.push(...diff({ [name]: before }, { [name]: after }));
      await replaceJoin(uow, table, actor.companyId, target.id, after);
      // Devices hold the members of groups with their own weather minimums (readiness).
      if (table === 'pilot_group_members') await touchReadiness(uow, actor.companyId);
    }

    // A changed role ends every session of the account: its rights change at the next sign-in.
    if (roleChanged) await uow.trx.deleteFrom('sessions').where('user_id', '=', target.id).execute();
    await recordUserChange(uow, actor.companyId, target.id, actor.userId, 'edit', changes);
  });
  await sendAll(ctx, mails);
  return { id: target.id, result: true, errors: [] as string[] };
}
