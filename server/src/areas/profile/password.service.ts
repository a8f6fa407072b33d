import argon2 from 'argon2';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { tooManyRequests } from '../../http/errors.ts';
import { clearFailures, recordFailure, throttleWait } from '../accounts/throttle.service.ts';

/**
 * Checks the caller's own login password (news signing, email and password
 * changes). Failures count against the same per-email and per-address limits
 * as sign-in, so a stolen session cannot be used to guess the password.
 */
export async function verifyOwnPassword(
  ctx: AppContext,
  actor: Actor,
  password: string,
  ip: string | null,
): Promise<boolean> {
  if (!actor.identityId) return false;
  const identity = await ctx.db
    .selectFrom('identities')
    .select(['email', 'password_hash'])
    .where('id', '=', actor.identityId)
    .executeTakeFirst();
  if (!identity) return false;
  const address = ip ?? 'unknown';
  const wait = await throttleWait(ctx.db, identity.email, address);
  if (wait > 0) throw tooManyRequests('Too many wrong passwords; try again later', wait);
  const ok = await argon2.verify(identity.password_hash, password).catch(() => false);
  if (ok) await clearFailures(ctx.db, identity.email);
  else await recordFailure(ctx.db, identity.email, address);
  return ok;
}
