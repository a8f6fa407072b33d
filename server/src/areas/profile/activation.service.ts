import argon2 from 'argon2';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds, sha256 } from '../../lib/tokens.ts';
import { MIN_PASSWORD_LENGTH } from './profile.service.ts';

/**
 * POST /users/activate.json: the person an administrator created sets the
 * password of their login with the token of the activation (or reminder)
 * mail. Public, since they have no password yet; the token (random, stored as
 * SHA-256, single use, 7 days) is the credential. Receiving the mail proves
 * the address, so the login's accounts become `confirmed`.
 */
export async function activateAccount(
  ctx: AppContext,
  input: { token: string; password: string; passwordrepeat: string },
) {
  const row = await ctx.db
    .selectFrom('email_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(input.token))
    .where('purpose', '=', 'activate')
    .executeTakeFirst();
  if (!row?.identity_id) throw notFound('Unknown activation link');
  if (row.used_at !== null || row.expires <= nowSeconds())
    throw badRequest('This activation link has expired; ask your administrator for a new one');
  const errors: Record<string, string[]> = {};
  if (input.password.length < MIN_PASSWORD_LENGTH) errors.password = [`At least ${MIN_PASSWORD_LENGTH} characters`];
  if (input.password !== input.passwordrepeat) errors.passwordrepeat = ['Does not match the password'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const hash = await argon2.hash(input.password, { type: argon2.argon2id });
  const identityId = row.identity_id;
  await ctx.tx(async (uow) => {
    const claimed = await uow.trx
      .updateTable('email_tokens')
      .set({ used_at: nowSeconds() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw badRequest('This activation link was already used');
    await uow.trx
      .updateTable('identities')
      .set({ password_hash: hash, modified: nowSeconds() })
      .where('id', '=', identityId)
      .execute();
    // Other links of the same login are void once it has a password.
    await uow.trx
      .updateTable('email_tokens')
      .set({ used_at: nowSeconds() })
      .where('identity_id', '=', identityId)
      .where('purpose', '=', 'activate')
      .where('used_at', 'is', null)
      .execute();
    const accounts = await uow.trx
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('identity_id', '=', identityId)
      .where('deleted', '=', 0)
      .where('email_status', '!=', 'confirmed')
      .execute();
    for (const companyId of new Set(accounts.map((a) => a.company_id))) {
      const ids = accounts.filter((a) => a.company_id === companyId).map((a) => a.id);
      await uow.trx
        .updateTable('users')
        .set({ email_status: 'confirmed', modified: nowSeconds(), change_no: await uow.changeNo(companyId, 'users') })
        .where('company_id', '=', companyId)
        .where('id', 'in', ids)
        .execute();
    }
  });
  return {
    result: true,
    message: 'Your account is active: sign in with your email and the new password',
    email: row.email,
  };
}
