import {
  defaultPilotFlag,
  isAuditorRole,
  mayChangeAccount,
  mayReadPersonalFields,
  roleGrantRefusal,
} from '@ops/shared/rules/users/policy';
import { ROLES, uuidv7 } from '@ops/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.ts';
import type { UsersTable } from '../../db/core-tables.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, type FieldErrors, forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { viewerOf } from '../../sync/registry.ts';
import { FREE_PLAN_PILOT_LIMIT } from '../company/company.service.ts';
import { activationPending, createPendingIdentity, issueToken, type MailQueue } from './identities.repository.ts';
import { maskForAuditor, NO_PREFERENCES, type Preferences, presentUser, presentUserGroup } from './users.presenter.ts';
import type { TUserWrite } from './users.schema.ts';
import { defined, detailColumns, flag } from './user-detail.repository.ts';
import { paginate } from '../../http/paging.ts';
import { touchReadiness } from '../readiness/readiness.repository.ts';

/** External auditor accounts last at most this many days (Part A 4.4, 8). */
export const AUDITOR_MAX_DAYS = 90;

export const AUDITOR_MESSAGES = {
  missing: 'An external auditor account needs an expiration date',
  past: 'The expiration date of an external auditor account must be in the future',
  tooLong: `An external auditor account may last at most ${AUDITOR_MAX_DAYS} days`,
} as const;

export async function preferencesOf(db: Kysely<DB>, identityId: string | null): Promise<Preferences> {
  if (!identityId) return NO_PREFERENCES;
  const i = await db
    .selectFrom('identities')
    .select(['alerts', 'message_alerts', 'newsletter', 'whatsapp'])
    .where('id', '=', identityId)
    .executeTakeFirst();
  return i
    ? { alerts: !!i.alerts, message_alerts: !!i.message_alerts, newsletter: !!i.newsletter, whatsapp: !!i.whatsapp }
    : NO_PREFERENCES;
}

export async function sendAll(ctx: AppContext, mails: MailQueue): Promise<void> {
  for (const m of mails) await ctx.mailer.send(m);
}

async function companyUser(db: Kysely<DB>, companyId: string, id: string) {
  const u = await db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('User not found');
  return u;
}

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

export interface UserListQuery {
  page: number;
  limit: number;
  search?: string;
  user_group_id?: number;
  active?: boolean;
}

/** GET /manager/users.json: one page, filtered and counted in SQL, ordered by role then name. */
export async function listUsers(ctx: AppContext, actor: Actor, q: UserListQuery) {
  const scoped = () => {
    let s = ctx.db.selectFrom('users').where('company_id', '=', actor.companyId).where('deleted', '=', 0);
    if (q.user_group_id !== undefined) s = s.where('user_group_id', '=', q.user_group_id);
    if (q.active !== undefined) s = s.where('active', '=', q.active ? 1 : 0);
    if (q.search) {
      const like = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      s = s.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['name']), 'like', eb.val(like)),
          eb(eb.fn('lower', ['surname']), 'like', eb.val(like)),
          eb(eb.fn('lower', ['email']), 'like', eb.val(like)),
        ]),
      );
    }
    return s;
  };
  const { n } = await scoped()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await scoped()
    .select([
      'id',
      'active',
      'email_status',
      'pilot',
      'two_factor',
      'api',
      'email',
      'user_group_id',
      'expiration',
      'name',
      'surname',
      'photo',
    ])
    .orderBy('user_group_id')
    .orderBy('name')
    .orderBy('surname')
    .orderBy('id')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  const viewer = viewerOf(actor);
  const users = rows.map((u) =>
    maskForAuditor(
      {
        User: {
          id: u.id,
          active: !!u.active,
          email_status: u.email_status,
          pilot: !!u.pilot,
          two_factor: u.user_group_id === ROLES.AUDITOR ? 'EMAIL' : u.two_factor,
          api: !!u.api,
          email: u.email,
          user_group_id: u.user_group_id,
          expiration: u.expiration,
        },
        UserDetail: { name: u.name, surname: u.surname, photo: u.photo },
        UserGroup: { name: presentUserGroup(u.user_group_id).name, id: u.user_group_id },
      },
      viewer,
      u.id,
    ),
  );
  return { users, total: Number(n) };
}

/** GET /manager/users/list.json: id → full name of the live accounts, for dropdowns. */
export async function userNameMap(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .orderBy('name')
    .orderBy('surname')
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, `${r.name} ${r.surname}`]));
}

/** GET /manager/users/view/{id}.json: the account, its login history and its company context. */
export async function viewUser(ctx: AppContext, actor: Actor, id: string) {
  const u = await companyUser(ctx.db, actor.companyId, id);
  const prefs = await preferencesOf(ctx.db, u.identity_id);
  const company = await ctx.db
    .selectFrom('companies')
    .select(['id', 'name', 'plan', 'timezone'])
    .where('id', '=', actor.companyId)
    .executeTakeFirstOrThrow();
  const base = u.base_id
    ? await ctx.db
        .selectFrom('bases')
        .select(['id', 'name', 'airport_id'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', u.base_id)
        .executeTakeFirst()
    : undefined;
  const supervisor = u.supervisor_id
    ? await ctx.db
        .selectFrom('users')
        .select(['id', 'name', 'surname'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', u.supervisor_id)
        .executeTakeFirst()
    : undefined;
  const logins = await ctx.db
    .selectFrom('user_logins')
    .select(['id', 'created', 'ip', 'user_agent', 'method'])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', u.id)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const accounts = u.identity_id
    ? await ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('identity_id', '=', u.identity_id)
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow()
    : { n: 0 };
  const pending = u.identity_id ? await activationPending(ctx.db, u.identity_id) : false;
  return maskForAuditor(
    {
      ...presentUser(u, prefs),
      Base: base ?? null,
      Supervisor: supervisor
        ? { id: supervisor.id, UserDetail: { name: supervisor.name, surname: supervisor.surname } }
        : null,
      Company: { id: company.id, name: company.name, plan: company.plan, timezone: company.timezone },
      UserLogin: logins.map((l) => ({
        id: l.id,
        created: Number(l.created),
        ip: l.ip,
        user_agent: l.user_agent,
        method: l.method,
      })),
      Login: { company_accounts: Number(accounts.n), activation_pending: pending },
    },
    viewerOf(actor),
    u.id,
  );
}

/** GET /manager/bills/pilots.json: the pilot list shape (Part A 4.8 item 1) of the accounts billed by the company. */
export async function billedPilots(ctx: AppContext, actor: Actor, page: { page: number; limit: number }) {
  const scoped = () =>
    ctx.db
      .selectFrom('users')
      .where('company_id', '=', actor.companyId)
      .where('deleted', '=', 0)
      .where('billing', '=', 1);
  const { n } = await scoped()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await scoped()
    .select(['id', 'name', 'surname', 'user_group_id', 'active', 'pilot', 'email', 'base_id'])
    .orderBy('user_group_id')
    .orderBy('name')
    .orderBy('surname')
    .orderBy('id')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  const viewer = viewerOf(actor);
  const pilots = rows.map((r) => {
    return {
      id: r.id,
      name: r.name,
      surname: r.surname,
      user_group_id: r.user_group_id,
      active: !!r.active,
      pilot: !!r.pilot,
      billing: true,
      base_id: r.base_id,
      email: mayReadPersonalFields(viewer, r.id) ? r.email : null,
    };
  });
  const total = Number(n);
  return {
    pilots,
    paginate: paginate(page.page, page.limit, total, pilots.length),
  };
}

// ---------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------

const todayIn = (zone: string) => DateTime.now().setZone(zone).startOf('day');

/** Part A 4.4: expiration required, in the future, at most 90 days from the request (company calendar). */
export function auditorExpirationError(expiration: string | null | undefined, zone: string): string | null {
  if (!expiration) return AUDITOR_MESSAGES.missing;
  const today = todayIn(zone);
  const day = DateTime.fromISO(expiration, { zone });
  if (day <= today) return AUDITOR_MESSAGES.past;
  if (day > today.plus({ days: AUDITOR_MAX_DAYS })) return AUDITOR_MESSAGES.tooLong;
  return null;
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

async function checkRefs(
  uow: UnitOfWork,
  companyId: string,
  baseId: string | null | undefined,
  supervisorId: string | null | undefined,
) {
  if (baseId) {
    const b = await uow.trx
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', baseId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!b) throw notFound('Base not found');
  }
  if (supervisorId) {
    const s = await uow.trx
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', '=', supervisorId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!s) throw notFound('Supervisor not found');
  }
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

/**
 * Links a company account to the login identity of `email`: an existing login
 * is shared (the person signs in with the password they have; a welcome mail);
 * a new email gets a pending identity and an activation mail. The email status
 * is confirmed when another account of that login already confirmed it.
 */
async function linkIdentity(
  uow: UnitOfWork,
  companyName: string,
  companyId: string,
  email: string,
  name: string,
  notify: boolean,
  mails: MailQueue,
) {
  const existing = await uow.trx.selectFrom('identities').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) {
    const confirmed = await uow.trx
      .selectFrom('users')
      .select('id')
      .where('identity_id', '=', existing.id)
      .where('email_status', '=', 'confirmed')
      .where('deleted', '=', 0)
      .executeTakeFirst();
    const pending = await activationPending(uow.trx, existing.id);
    if (notify) {
      if (pending) {
        const token = await issueToken(uow.trx, {
          purpose: 'activate',
          identityId: existing.id,
          userId: null,
          companyId,
          email,
        });
        mails.push({ to: email, template: 'activation', data: { name, company: companyName, token }, companyId });
      } else mails.push({ to: email, template: 'welcome', data: { name, company: companyName, email }, companyId });
    }
    return { identityId: existing.id, emailStatus: confirmed ? 'confirmed' : 'pending' };
  }
  const created = await createPendingIdentity(uow.trx, email);
  const token = await issueToken(uow.trx, {
    purpose: 'activate',
    identityId: created.id,
    userId: null,
    companyId,
    email,
  });
  if (notify) mails.push({ to: email, template: 'activation', data: { name, company: companyName, token }, companyId });
  return { identityId: created.id, emailStatus: 'pending' };
}

/**
 * The uniqueness and plan checks again, inside the write transaction after it
 * took the company's change-number lock: writes of one company are serialized
 * from there, so two concurrent creates cannot both pass.
 */
async function recheckUnderLock(
  uow: UnitOfWork,
  actor: Actor,
  c: { email: string | null; exceptId?: string; addsPilot: boolean },
) {
  if (c.email && (await emailTaken(uow.trx, actor.companyId, c.email, c.exceptId)))
    throw validationFailed({ 'User.email': ['This email already has an account in your company'] });
  if (
    c.addsPilot &&
    actor.plan === 'free' &&
    (await livePilots(uow.trx, actor.companyId, c.exceptId)) >= FREE_PLAN_PILOT_LIMIT
  ) {
    throw validationFailed({ 'User.pilot': [`The free plan holds at most ${FREE_PLAN_PILOT_LIMIT} pilots`] });
  }
}

/** POST /manager/users/create.json. */
export async function createUser(ctx: AppContext, actor: Actor, input: TUserWrite) {
  const u = input.User;
  const d = input.UserDetail;
  const role = u.user_group_id ?? ROLES.PILOT;
  const auditor = isAuditorRole(role);
  const errors: FieldErrors = {};
  if (!d.name) errors['UserDetail.name'] = ['Name is required'];
  if (!d.surname) errors['UserDetail.surname'] = ['Surname is required'];
  const rErr = roleGrantRefusal(actor, role);
  if (rErr) errors['User.user_group_id'] = [rErr];
  if (u.two_factor === 'TOTP')
    errors['User.two_factor'] = ['TOTP is enabled by the person with their authenticator app'];
  if (auditor) {
    const e = auditorExpirationError(u.expiration, actor.company.timezone);
    if (e) errors['User.expiration'] = [e];
  }
  if (u.email && (await emailTaken(ctx.db, actor.companyId, u.email)))
    errors['User.email'] = ['This email already has an account in your company'];
  const pilot = auditor ? false : (u.pilot ?? defaultPilotFlag(role));
  const active = u.active ?? true;
  if (
    pilot &&
    active &&
    actor.plan === 'free' &&
    (await livePilots(ctx.db, actor.companyId)) >= FREE_PLAN_PILOT_LIMIT
  ) {
    errors['User.pilot'] = [`The free plan holds at most ${FREE_PLAN_PILOT_LIMIT} pilots`];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);

  const mails: MailQueue = [];
  const id = uuidv7();
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(actor.companyId, 'users');
    // Holding the company's change-number lock, check again what a concurrent write could have changed.
    await recheckUnderLock(uow, actor, { email: u.email ?? null, addsPilot: pilot && active });
    await checkRefs(uow, actor.companyId, u.base_id, u.supervisor_id);
    const notifyPerson = active && u.send_email !== false;
    const link = u.email
      ? await linkIdentity(uow, actor.company.name, actor.companyId, u.email, d.name as string, notifyPerson, mails)
      : null;
    const now = nowSeconds();
    const row: Insertable<UsersTable> = {
      id,
      company_id: actor.companyId,
      change_no: changeNo,
      deleted: 0,
      created: now,
      modified: now,
      identity_id: link?.identityId ?? null,
      email: u.email ?? null,
      email_status: link?.emailStatus ?? 'pending',
      active: active ? 1 : 0,
      pilot: pilot ? 1 : 0,
      billing: u.billing ? 1 : 0,
      user_group_id: role,
      base_id: u.base_id ?? null,
      supervisor_id: u.supervisor_id ?? null,
      language: u.language ?? 'en',
      api: u.api ? 1 : 0,
      two_factor: auditor ? 'EMAIL' : (u.two_factor ?? 'OFF'),
      totp_secret: null,
      expiration: u.expiration ?? null,
      name: d.name as string,
      surname: d.surname as string,
      passport: null,
      companyid: null,
      dob: null,
      phonecode: null,
      phone: null,
      phonecode2: null,
      phone2: null,
      emergency_contact: null,
      public_phone: 0,
      address: null,
      pc: null,
      city: null,
      country_id: null,
      timezone_id: actor.company.timezone,
      nationality: null,
      birthcountry_id: null,
      photo: null,
      flight_hours: 0,
      color: null,
      notes: null,
    };
    await uow.trx
      .insertInto('users')
      .values({ ...row, ...detailColumns(d) } as Insertable<UsersTable>)
      .execute();
  });
  await sendAll(ctx, mails);
  return { result: true, id, message: mails.length ? 'User created; a mail was sent to them' : 'User created' };
}

/** POST /manager/users/edit.json: partial; see docs/areas/company-news-users.md for the rules. */
export async function editUser(ctx: AppContext, actor: Actor, input: TUserWrite) {
  const u = input.User;
  const d = input.UserDetail;
  if (!u.id) throw validationFailed({ 'User.id': ['User id is required'] });
  const target = await companyUser(ctx.db, actor.companyId, u.id);
  if (!mayChangeAccount(actor, target)) throw forbidden('You cannot edit an account above your own role');
  const role = u.user_group_id ?? target.user_group_id;
  const auditor = isAuditorRole(role);
  const errors: FieldErrors = {};
  if (d.name === '' || d.name === null) errors['UserDetail.name'] = ['Name is required'];
  if (role !== target.user_group_id) {
    if (target.id === actor.userId) errors['User.user_group_id'] = ['You cannot change your own role'];
    else {
      const rErr = roleGrantRefusal(actor, role);
      if (rErr) errors['User.user_group_id'] = [rErr];
    }
  }
  if (u.two_factor === 'TOTP' && target.two_factor !== 'TOTP')
    errors['User.two_factor'] = ['TOTP is enabled by the person with their authenticator app'];
  const expiration = u.expiration === undefined ? target.expiration : u.expiration;
  if (auditor) {
    const e = auditorExpirationError(expiration, actor.company.timezone);
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
  if (Object.keys(errors).length) throw validationFailed(errors);

  const mails: MailQueue = [];
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(actor.companyId, 'users');
    await recheckUnderLock(uow, actor, {
      email: emailChanged ? (u.email ?? null) : null,
      exceptId: target.id,
      addsPilot: pilot && active && !(target.pilot && target.active),
    });
    await checkRefs(uow, actor.companyId, u.base_id, u.supervisor_id);
    const set: Updateable<UsersTable> = {
      ...detailColumns(d),
      ...defined({
        active: flag(u.active),
        billing: flag(u.billing),
        api: flag(u.api),
        base_id: u.base_id,
        supervisor_id: u.supervisor_id,
        language: u.language,
        expiration: u.expiration,
        user_group_id: u.user_group_id,
        two_factor: u.two_factor,
      }),
      pilot: pilot ? 1 : 0,
    };
    // Part A 4.4: an auditor never leaves EMAIL two-factor, through any endpoint.
    if (auditor) set.two_factor = 'EMAIL';
    if (emailChanged) {
      Object.assign(
        set,
        await relinkEmail(uow, actor, target, u.email ?? null, active && u.send_email !== false, mails),
      );
    }
    set.change_no = changeNo;
    set.modified = nowSeconds();
    await uow.trx.updateTable('users').set(set).where('id', '=', target.id).execute();
    // Part A 4.8 item 5 (same rule here): a changed role ends every session of the account.
    if (role !== target.user_group_id)
      await uow.trx.updateTable('sessions').set({ revoked: 1 }).where('user_id', '=', target.id).execute();
  });
  await sendAll(ctx, mails);
  const fresh = await companyUser(ctx.db, actor.companyId, target.id);
  return {
    result: true,
    id: target.id,
    message: 'User saved',
    ...maskForAuditor(presentUser(fresh, await preferencesOf(ctx.db, fresh.identity_id)), viewerOf(actor), fresh.id),
  };
}

/**
 * A manager changed an account's email. The account moves to the login of the
 * new address: an existing login is shared; when the old login served only
 * this account it is renamed (the person keeps their password, the address is
 * unconfirmed and gets a confirmation mail); otherwise a new pending login is
 * created with an activation mail. Removing the email detaches the login.
 */
async function relinkEmail(
  uow: UnitOfWork,
  actor: Actor,
  target: UsersTable,
  email: string | null,
  notify: boolean,
  mails: MailQueue,
): Promise<Updateable<UsersTable>> {
  if (email === null) return { email: null, identity_id: null, email_status: 'pending' };
  const existing = await uow.trx.selectFrom('identities').select('id').where('email', '=', email).executeTakeFirst();
  if (!existing && target.identity_id) {
    const others = await uow.trx
      .selectFrom('users')
      .select('id')
      .where('identity_id', '=', target.identity_id)
      .where('id', '!=', target.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!others) {
      await uow.trx
        .updateTable('identities')
        .set({ email, modified: nowSeconds() })
        .where('id', '=', target.identity_id)
        .execute();
      const pending = await activationPending(uow.trx, target.identity_id);
      if (notify) {
        const purpose = pending ? 'activate' : 'confirm';
        const token = await issueToken(uow.trx, {
          purpose,
          identityId: target.identity_id,
          userId: target.id,
          companyId: actor.companyId,
          email,
        });
        mails.push(
          pending
            ? {
                to: email,
                template: 'activation',
                data: { name: target.name, company: actor.company.name, token },
                companyId: actor.companyId,
              }
            : { to: email, template: 'confirm', data: { name: target.name, email, token }, companyId: actor.companyId },
        );
      }
      return { email, email_status: pending ? 'pending' : 'unconfirmed' };
    }
  }
  const link = await linkIdentity(uow, actor.company.name, actor.companyId, email, target.name, notify, mails);
  return { email, identity_id: link.identityId, email_status: link.emailStatus };
}

/** POST /manager/users/delete/{id}.json: a tombstone; sessions and API keys of the account stop working. */
export async function deleteUser(ctx: AppContext, actor: Actor, id: string, confirm: boolean) {
  if (!confirm)
    throw validationFailed(
      { confirm: ['Confirm the deletion with confirm = true'] },
      'errors',
      'Deletion not confirmed',
    );
  const target = await companyUser(ctx.db, actor.companyId, id);
  if (target.id === actor.userId) throw badRequest('You cannot delete your own account');
  if (!mayChangeAccount(actor, target)) throw forbidden('You cannot delete an account above your own role');
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('users')
      .set({ deleted: 1, active: 0, change_no: await uow.changeNo(actor.companyId, 'users'), modified: nowSeconds() })
      .where('id', '=', target.id)
      .execute();
    await uow.trx.updateTable('sessions').set({ revoked: 1 }).where('user_id', '=', target.id).execute();
    await uow.trx
      .updateTable('api_keys')
      .set({ revoked: 1, revoked_at: nowSeconds() })
      .where('user_id', '=', target.id)
      .where('revoked', '=', 0)
      .execute();
    // The account leaves its pilot groups; devices get the readiness document again, so none keeps applying a
    // deleted member's group minimums.
    const left = await uow.trx
      .deleteFrom('pilot_group_members')
      .where('company_id', '=', actor.companyId)
      .where('user_id', '=', target.id)
      .executeTakeFirst();
    if (Number(left.numDeletedRows) > 0) await touchReadiness(uow, actor.companyId);
  });
  return { result: true, id: target.id, message: 'User deleted' };
}

/**
 * POST /pilots/reminder.json: sends the activation mail again (a fresh link;
 * older ones stop working) while the login has no password of its own, or a
 * welcome mail once it has.
 */
export async function sendReminder(ctx: AppContext, actor: Actor, userId: string) {
  const target = await companyUser(ctx.db, actor.companyId, userId);
  if (!target.email || !target.identity_id)
    throw validationFailed({ user: ['This user has no email address'] }, 'errors', 'This user has no email address');
  if (!target.active)
    throw validationFailed(
      { user: ['This account is inactive; activate it first'] },
      'errors',
      'This account is inactive',
    );
  const identityId = target.identity_id;
  const email = target.email;
  const mail: OutgoingMail = await ctx.tx(async (uow) => {
    if (await activationPending(uow.trx, identityId)) {
      const token = await issueToken(uow.trx, {
        purpose: 'activate',
        identityId,
        userId: null,
        companyId: actor.companyId,
        email,
      });
      return {
        to: email,
        template: 'reminder',
        data: { name: target.name, company: actor.company.name, token },
        companyId: actor.companyId,
      };
    }
    return {
      to: email,
      template: 'welcome',
      data: { name: target.name, company: actor.company.name, email },
      companyId: actor.companyId,
    };
  });
  await ctx.mailer.send(mail);
  return {
    result: true,
    message: mail.template === 'reminder' ? 'Activation mail sent again' : 'Welcome mail sent',
    mail: mail.template === 'reminder' ? 'activation' : 'welcome',
  };
}
