import { uuidv7 } from '@ops/shared';
import { accountExpired } from '@ops/shared/rules/users/account-expiry';
import type { Kysely } from 'kysely';
import { SESSION_TTL_SECONDS } from '../../http/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { newSecret, nowSeconds, sha256 } from '../../lib/tokens.ts';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface LoginUser {
  id: string;
  identity_id: string | null;
  company_id: string;
  email: string | null;
  user_group_id: number;
}

/** Opens a 14-day session for a company account and writes the sign-in audit row. */
export async function openSession(db: Kysely<DB>, user: LoginUser, client: ClientInfo, method: string) {
  const token = newSecret('ses_');
  const now = nowSeconds();
  const expires = now + SESSION_TTL_SECONDS;
  const id = uuidv7();
  await db
    .insertInto('sessions')
    .values({
      id,
      token_hash: sha256(token),
      identity_id: user.identity_id ?? '',
      user_id: user.id,
      company_id: user.company_id,
      created: now,
      expires,
      last_seen: now,
      ip: client.ip,
      user_agent: client.userAgent,
      revoked: 0,
    })
    .execute();
  await db
    .insertInto('user_logins')
    .values({
      id: uuidv7(),
      user_id: user.id,
      company_id: user.company_id,
      created: now,
      ip: client.ip,
      user_agent: client.userAgent,
      method,
    })
    .execute();
  return {
    result: true as const,
    token,
    expires,
    session_id: id,
    user: { id: user.id, email: user.email, user_group_id: user.user_group_id, company_id: user.company_id },
  };
}

export async function revokeSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked: 1 }).where('id', '=', sessionId).execute();
}

/**
 * Company accounts a login identity may sign in to: active, not deleted, not
 * past their expiration (external auditors, company calendar), company enabled.
 * Sign-in, the organisations list and the company switch all use it, so an
 * account that authentication would refuse is never offered or entered.
 */
export async function accountsOfIdentity(db: Kysely<DB>, identityId: string) {
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select([
      'u.id',
      'u.identity_id',
      'u.company_id',
      'u.email',
      'u.user_group_id',
      'u.two_factor',
      'u.totp_secret',
      'u.name',
      'u.expiration',
      'c.name as company_name',
      'c.timezone',
    ])
    .where('u.identity_id', '=', identityId)
    .where('u.deleted', '=', 0)
    .where('u.active', '=', 1)
    .where('c.disabled', '=', 0)
    .orderBy('u.created')
    .orderBy('u.id')
    .execute();
  // Expiry is a date of each company's calendar, so it is decided here rather than in SQL.
  const now = Date.now();
  return rows.filter((r) => !accountExpired(r.expiration, r.timezone, now));
}

export type IdentityAccount = Awaited<ReturnType<typeof accountsOfIdentity>>[number];
