import { mayUseTotp } from '@ops/shared/rules/accounts/policy';
import { authenticator } from 'otplib';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest } from '../../http/errors.ts';

/**
 * TOTP enrolment (RFC 6238 through otplib): setup stores a new secret, enable
 * switches the account to TOTP once a code from the authenticator app checks.
 * External auditors stay on EMAIL (Part A 4.4).
 */
export async function setupTotp(ctx: AppContext, actor: Actor) {
  if (!mayUseTotp(actor)) throw badRequest('External auditors use email codes; TOTP is not available');
  const secret = authenticator.generateSecret();
  await ctx.db.updateTable('users').set({ totp_secret: secret }).where('id', '=', actor.userId).execute();
  return {
    result: true,
    secret,
    otpauth_url: authenticator.keyuri(actor.email ?? actor.userId, 'Ops Platform', secret),
  };
}

export async function enableTotp(ctx: AppContext, actor: Actor, code: string) {
  if (!mayUseTotp(actor)) throw badRequest('External auditors use email codes; TOTP is not available');
  const user = await ctx.db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  if (!user.totp_secret) throw badRequest('Call the TOTP setup first');
  if (!authenticator.check(code.replace(/\s/g, ''), user.totp_secret)) throw badRequest('Wrong code');
  await ctx.db.updateTable('users').set({ two_factor: 'TOTP' }).where('id', '=', actor.userId).execute();
  return { result: true, two_factor: 'TOTP' };
}
