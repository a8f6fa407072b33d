import { randomInt } from 'node:crypto';
import { ROLES, uuidv7 } from '@ops/shared';
import argon2 from 'argon2';
import { authenticator } from 'otplib';
import type { AppContext } from '../../context.ts';
import { HttpError, tooManyRequests } from '../../http/errors.ts';
import { nowSeconds, safeEqual, sha256 } from '../../lib/tokens.ts';
import { type ClientInfo, accountsOfIdentity, type IdentityAccount, openSession } from './sessions.repository.ts';
import { clearFailures, recordFailure, throttleWait } from './throttle.service.ts';

authenticator.options = { window: 1 };

const CHALLENGE_TTL = 600;
const CHALLENGE_ATTEMPTS = 5;
const invalid = () => new HttpError(401, { result: false, message: 'Invalid email or password' });

// A real hash to verify against when the email is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | null = null;

export async function login(
  ctx: AppContext,
  input: { email: string; password: string; companyId?: string },
  client: ClientInfo,
) {
  const ip = client.ip ?? 'unknown';
  const wait = await throttleWait(ctx.db, input.email, ip);
  if (wait > 0) throw tooManyRequests('Too many failed sign-in attempts; try again later', wait);

  const identity = await ctx.db
    .selectFrom('identities')
    .selectAll()
    .where('email', '=', input.email.toLowerCase())
    .executeTakeFirst();
  dummyHash ??= argon2.hash('not-a-password', { type: argon2.argon2id });
  const ok = await argon2.verify(identity?.password_hash ?? (await dummyHash), input.password).catch(() => false);
  const usable = identity && ok ? await accountsOfIdentity(ctx.db, identity.id) : [];
  if (!identity || !ok || usable.length === 0) {
    await recordFailure(ctx.db, input.email, ip);
    throw invalid();
  }
  await clearFailures(ctx.db, input.email);
  const account = input.companyId ? usable.find((a) => a.company_id === input.companyId) : usable[0];
  if (!account) throw invalid();
  return (await startChallenge(ctx, account, identity.email, ip)) ?? openSession(ctx.db, account, client, 'password');
}

/** Two-factor mode an account signs in with; external auditors always use EMAIL codes (Part A 4.4), whatever is stored. */
export function twoFactorMode(
  account: Pick<IdentityAccount, 'user_group_id' | 'two_factor' | 'totp_secret'>,
): 'OFF' | 'EMAIL' | 'TOTP' {
  if (account.user_group_id === ROLES.AUDITOR) return 'EMAIL';
  return account.two_factor === 'EMAIL' || (account.two_factor === 'TOTP' && account.totp_secret)
    ? account.two_factor
    : 'OFF';
}

/**
 * The second factor of an account that has one: mails the EMAIL code and
 * stores the challenge that /login/verify.json answers. Null when the account
 * signs in with the password alone.
 */
export async function startChallenge(ctx: AppContext, account: IdentityAccount, identityEmail: string, ip: string) {
  const mode = twoFactorMode(account);
  if (mode === 'OFF') return null;
  const challenge = uuidv7();
  let codeHash: string | null = null;
  if (mode === 'EMAIL') {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    codeHash = sha256(`${challenge}:${code}`);
    await ctx.mailer.send({
      to: account.email ?? identityEmail,
      template: 'two_factor_code',
      data: { name: account.name, code },
      companyId: account.company_id,
    });
  }
  await ctx.db
    .insertInto('login_challenges')
    .values({
      id: challenge,
      user_id: account.id,
      mode,
      code_hash: codeHash,
      expires: nowSeconds() + CHALLENGE_TTL,
      attempts: 0,
      used: 0,
      ip,
      created: nowSeconds(),
    })
    .execute();
  return { result: false as const, two_factor: mode, challenge };
}

export async function verifyChallenge(ctx: AppContext, input: { challenge: string; code: string }, client: ClientInfo) {
  const failed = (message: string) => new HttpError(401, { result: false, message });
  const ch = await ctx.db
    .selectFrom('login_challenges')
    .selectAll()
    .where('id', '=', input.challenge)
    .executeTakeFirst();
  if (!ch || ch.used || ch.expires <= nowSeconds()) throw failed('Sign-in challenge expired; sign in again');
  if (ch.attempts >= CHALLENGE_ATTEMPTS) throw tooManyRequests('Too many wrong codes; sign in again', 0);
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'identity_id', 'company_id', 'email', 'user_group_id', 'totp_secret'])
    .where('id', '=', ch.user_id)
    .where('deleted', '=', 0)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (!user) throw failed('Account not available');
  const code = input.code.replace(/\s/g, '');
  const good =
    ch.mode === 'EMAIL'
      ? !!ch.code_hash && safeEqual(ch.code_hash, sha256(`${ch.id}:${code}`))
      : !!user.totp_secret && authenticator.check(code, user.totp_secret);
  if (!good) {
    await ctx.db
      .updateTable('login_challenges')
      .set({ attempts: ch.attempts + 1 })
      .where('id', '=', ch.id)
      .execute();
    throw failed('Wrong code');
  }
  // Single use: only the request that flips `used` proceeds.
  const claimed = await ctx.db
    .updateTable('login_challenges')
    .set({ used: 1 })
    .where('id', '=', ch.id)
    .where('used', '=', 0)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw failed('Sign-in challenge already used');
  return openSession(ctx.db, user, client, ch.mode === 'EMAIL' ? 'email_code' : 'totp');
}
