import { ROLES, uuidv7 } from '@ops/shared';
import argon2 from 'argon2';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { IdentitiesTable, UsersTable } from '../../db/core-tables.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, HttpError, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds, sha256 } from '../../lib/tokens.ts';
import { issueToken } from '../users/identities.repository.ts';
import { defined, detailColumns, flag } from '../users/user-detail.repository.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { TUserDetailFields } from '../users/users.schema.ts';
import { preferencesOf } from '../users/users.service.ts';
import { verifyOwnPassword } from './password.service.ts';

async function ownRow(ctx: AppContext, actor: Actor) {
  const u = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', actor.userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('Account not found');
  return u;
}

/** GET /users/view.json: `{User, UserDetail, UserGroup}` of the caller (Part A 2.6). */
export async function viewProfile(ctx: AppContext, actor: Actor) {
  const u = await ownRow(ctx, actor);
  return presentUser(u, await preferencesOf(ctx.db, u.identity_id));
}

export interface ProfileEdit {
  User: {
    language?: string;
    two_factor?: 'OFF' | 'EMAIL' | 'TOTP';
    alerts?: boolean;
    message_alerts?: boolean;
    newsletter?: boolean;
    whatsapp?: boolean;
  };
  UserDetail: TUserDetailFields;
}

/**
 * POST /users/edit.json: any subset of the profile; omitted fields stay. The
 * preferences are written on the login identity, so every company account of
 * the email shares them. WhatsApp can only be switched off here (switching it
 * on needs the code of POST /users/whatsapp.json); TOTP is switched on by its
 * enrolment; an external auditor stays on EMAIL codes.
 */
export async function editProfile(ctx: AppContext, actor: Actor, input: ProfileEdit) {
  const u = input.User;
  const d = input.UserDetail;
  const current = await ownRow(ctx, actor);
  const errors: Record<string, string[]> = {};
  if (d.name === null) errors['UserDetail.name'] = ['Name is required'];
  if (d.surname === null) errors['UserDetail.surname'] = ['Surname is required'];
  if (u.whatsapp === true && !(await preferencesOf(ctx.db, current.identity_id)).whatsapp)
    errors['User.whatsapp'] = ['WhatsApp is switched on with a verification code (POST /users/whatsapp.json)'];
  if (u.two_factor === 'TOTP' && current.two_factor !== 'TOTP')
    errors['User.two_factor'] = ['TOTP is switched on with /users/two_factor/totp/setup.json and enable.json'];
  if (current.user_group_id === ROLES.AUDITOR && u.two_factor !== undefined && u.two_factor !== 'EMAIL')
    errors['User.two_factor'] = ['External auditors always use email codes'];
  const prefs = defined({
    alerts: flag(u.alerts),
    message_alerts: flag(u.message_alerts),
    newsletter: flag(u.newsletter),
    whatsapp: flag(u.whatsapp),
  });
  if (Object.keys(prefs).length && !current.identity_id)
    errors.User = ['This account has no login, so it has no preferences'];
  if (Object.keys(errors).length) throw validationFailed(errors);

  // Names were checked non-null above.
  const set: Updateable<UsersTable> = {
    ...detailColumns({ ...d, name: d.name ?? undefined, surname: d.surname ?? undefined }),
    ...defined({ language: u.language, two_factor: u.two_factor }),
  };
  if (Object.keys(set).length || Object.keys(prefs).length) {
    await ctx.tx(async (uow) => {
      if (Object.keys(set).length) {
        await uow.trx
          .updateTable('users')
          .set({ ...set, change_no: await uow.changeNo(actor.companyId, 'users'), modified: nowSeconds() })
          .where('id', '=', actor.userId)
          .execute();
      }
      if (Object.keys(prefs).length && current.identity_id) {
        await uow.trx
          .updateTable('identities')
          .set({ ...(prefs as Updateable<IdentitiesTable>), modified: nowSeconds() })
          .where('id', '=', current.identity_id)
          .execute();
      }
    });
  }
  return viewProfile(ctx, actor);
}

/**
 * POST /users/email.json. The caller's account in this company gets the new
 * address, `unconfirmed`, and a confirmation link goes to it. Signing in keeps
 * using the old address until the link is confirmed (POST
 * /users/confirm_email.json), so a mistyped address cannot lock anyone out.
 * Accounts of the same login in other companies are not touched (a request
 * never changes another company's records).
 */
export async function changeEmail(
  ctx: AppContext,
  actor: Actor,
  input: { new_email: string; new_email_repeat: string; password: string },
  ip: string | null,
) {
  const current = await ownRow(ctx, actor);
  if (input.new_email === (current.email ?? '').toLowerCase())
    throw badRequest('The new address is the same as the current one', {
      errors: { new_email: ['Same as the current address'] },
    });
  if (input.new_email !== input.new_email_repeat)
    throw badRequest('The addresses do not match', {
      errors: { new_email_repeat: ['Does not match the new address'] },
    });
  if (!current.identity_id) throw badRequest('This account has no login');
  // Spec Part A 7: a wrong current password is a 404 here.
  if (!(await verifyOwnPassword(ctx, actor, input.password, ip))) throw notFound('Wrong password');
  const owner = await ctx.db
    .selectFrom('identities')
    .select('id')
    .where('email', '=', input.new_email)
    .executeTakeFirst();
  if (owner && owner.id !== current.identity_id)
    throw badRequest('This address belongs to another login', {
      errors: { new_email: ['Already used by another login'] },
    });

  const identityId = current.identity_id;
  let token: string;
  try {
    token = await ctx.tx(async (uow) => {
      await uow.trx
        .updateTable('users')
        .set({
          email: input.new_email,
          email_status: 'unconfirmed',
          modified: nowSeconds(),
          change_no: await uow.changeNo(actor.companyId, 'users'),
        })
        .where('id', '=', actor.userId)
        .where('company_id', '=', actor.companyId)
        .execute();
      return issueToken(uow.trx, {
        purpose: 'confirm',
        identityId,
        userId: actor.userId,
        companyId: actor.companyId,
        email: input.new_email,
      });
    });
  } catch (err) {
    ctx.log.error({ err }, 'email change failed');
    throw new HttpError(500, { result: false, message: 'The new address could not be saved' });
  }
  await ctx.mailer.send({
    to: input.new_email,
    template: 'confirm',
    data: { name: current.name, email: input.new_email, token },
    companyId: actor.companyId,
  });
  return {
    result: true,
    message: 'Check your inbox: we sent a confirmation link to the new address',
    email: input.new_email,
    email_status: 'unconfirmed',
  };
}

/**
 * POST /users/confirm_email.json: the link of the confirmation mail. The
 * account becomes `confirmed` and signs in with the new address: its login is
 * renamed, or, when the login also serves accounts in other companies (which
 * keep the old address), the account moves to a new login for the new
 * address with the same password and preferences.
 */
export async function confirmEmail(ctx: AppContext, actor: Actor, token: string) {
  const row = await ctx.db
    .selectFrom('email_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', 'confirm')
    .executeTakeFirst();
  if (!row || row.identity_id !== actor.identityId || row.user_id !== actor.userId)
    throw notFound('Unknown confirmation link');
  if (row.used_at !== null || row.expires <= nowSeconds())
    throw badRequest('This confirmation link has expired; change the address again to get a new one');
  const current = await ownRow(ctx, actor);
  if (current.email !== row.email) throw badRequest('The address of this account changed since this link was sent');
  const identityId = row.identity_id;
  const owner = await ctx.db.selectFrom('identities').select('id').where('email', '=', row.email).executeTakeFirst();
  if (owner && owner.id !== identityId) throw badRequest('This address now belongs to another login');
  await ctx.tx(async (uow) => {
    const claimed = await uow.trx
      .updateTable('email_tokens')
      .set({ used_at: nowSeconds() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw badRequest('This confirmation link was already used');
    const shared = await uow.trx
      .selectFrom('users')
      .select('id')
      .where('identity_id', '=', identityId)
      .where('id', '!=', actor.userId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    let loginId = identityId;
    if (shared) {
      const old = await uow.trx
        .selectFrom('identities')
        .selectAll()
        .where('id', '=', identityId)
        .executeTakeFirstOrThrow();
      loginId = uuidv7();
      await uow.trx
        .insertInto('identities')
        .values({ ...old, id: loginId, email: row.email, created: nowSeconds(), modified: nowSeconds() })
        .execute();
    } else {
      await uow.trx
        .updateTable('identities')
        .set({ email: row.email, modified: nowSeconds() })
        .where('id', '=', identityId)
        .execute();
    }
    await uow.trx
      .updateTable('users')
      .set({
        identity_id: loginId,
        email_status: 'confirmed',
        modified: nowSeconds(),
        change_no: await uow.changeNo(actor.companyId, 'users'),
      })
      .where('id', '=', actor.userId)
      .execute();
  });
  return { result: true, message: 'Email address confirmed', email: row.email, email_status: 'confirmed' };
}

export const MIN_PASSWORD_LENGTH = 8;

/**
 * POST /users/password.json: argon2id hash on the login (all its company
 * accounts). Every other session of the login ends; the presenting one stays.
 */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: { password: string; newpassword: string; newpasswordrepeat: string },
  ip: string | null,
) {
  const errors: Record<string, string[]> = {};
  if (input.newpassword.length < MIN_PASSWORD_LENGTH)
    errors.newpassword = [`At least ${MIN_PASSWORD_LENGTH} characters`];
  if (input.newpassword !== input.newpasswordrepeat) errors.newpasswordrepeat = ['Does not match the new password'];
  if (input.newpassword === input.password)
    errors.newpassword = [...(errors.newpassword ?? []), 'Must differ from the current password'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  if (!actor.identityId) throw badRequest('This account has no login');
  if (!(await verifyOwnPassword(ctx, actor, input.password, ip)))
    throw validationFailed({ password: ['Wrong current password'] }, 'errors', 'Wrong current password');
  const hash = await argon2.hash(input.newpassword, { type: argon2.argon2id });
  const identityId = actor.identityId;
  const closed = await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('identities')
      .set({ password_hash: hash, modified: nowSeconds() })
      .where('id', '=', identityId)
      .execute();
    // Whoever set the password owns the login now: pending activation links are void.
    await uow.trx
      .updateTable('email_tokens')
      .set({ used_at: nowSeconds() })
      .where('identity_id', '=', identityId)
      .where('purpose', '=', 'activate')
      .where('used_at', 'is', null)
      .execute();
    let q = uow.trx
      .updateTable('sessions')
      .set({ revoked: 1 })
      .where('identity_id', '=', identityId)
      .where('revoked', '=', 0);
    if (actor.credential.kind === 'session') q = q.where('id', '!=', actor.credential.id);
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  });
  return { result: true, message: 'Password changed', sessions_closed: closed };
}

/** GET /users/logins.json: recent sign-ins and open sessions of the caller's account in this company. */
export async function loginsAndSessions(ctx: AppContext, actor: Actor) {
  const logins = await ctx.db
    .selectFrom('user_logins')
    .select(['id', 'created', 'ip', 'user_agent', 'method'])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', actor.userId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const sessions = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'created', 'last_seen', 'expires', 'ip', 'user_agent'])
    .where('user_id', '=', actor.userId)
    .where('company_id', '=', actor.companyId)
    .where('revoked', '=', 0)
    .where('expires', '>', nowSeconds())
    .orderBy('last_seen', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  const currentSession = actor.credential.kind === 'session' ? actor.credential.id : null;
  return {
    logins: logins.map((l) => ({
      id: l.id,
      created: Number(l.created),
      ip: l.ip,
      user_agent: l.user_agent,
      method: l.method,
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      created: Number(s.created),
      last_seen: Number(s.last_seen),
      expires: Number(s.expires),
      ip: s.ip,
      user_agent: s.user_agent,
      current: s.id === currentSession,
    })),
    currentSession,
  };
}

/** POST /users/closesession/{sessionId}.json: remote logout of one of the caller's sessions. */
export async function closeSession(ctx: AppContext, actor: Actor, sessionId: string) {
  const s = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', actor.userId)
    .where('company_id', '=', actor.companyId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  if (!s) throw notFound('Session not found');
  await ctx.db.updateTable('sessions').set({ revoked: 1 }).where('id', '=', s.id).execute();
  const current = actor.credential.kind === 'session' && actor.credential.id === s.id;
  return { result: true, id: s.id, current, message: current ? 'Signed out' : 'Session closed' };
}
