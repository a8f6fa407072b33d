import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { newSecret, nowSeconds, sha256 } from '../../lib/tokens.ts';

const PREFIX_LENGTH = 12;

export async function listApiKeys(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([
      'k.id',
      'k.user_id',
      'k.name',
      'k.key_prefix',
      'k.last_used_at',
      'k.expires',
      'k.revoked',
      'k.created',
      'u.email',
    ])
    .where('k.company_id', '=', actor.companyId)
    .orderBy('k.created', 'desc')
    .execute();
  return rows.map((r) => ({
    ApiKey: {
      id: r.id,
      user_id: r.user_id,
      name: r.name,
      key_prefix: r.key_prefix,
      last_used_at: r.last_used_at,
      expires: r.expires,
      revoked: !!r.revoked,
      created: r.created,
    },
    User: { id: r.user_id, email: r.email },
  }));
}

export async function createApiKey(
  ctx: AppContext,
  actor: Actor,
  input: { name: string; user_id: string; expires?: number },
) {
  const user = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', actor.companyId)
    .where('id', '=', input.user_id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!user) throw notFound('User not found in your company');
  const now = nowSeconds();
  if (input.expires !== undefined && input.expires <= now)
    throw badRequest('Expiry must be in the future', { errors: { expires: ['Expiry must be in the future'] } });
  const plaintext = newSecret('svc_');
  const key = {
    id: uuidv7(),
    company_id: actor.companyId,
    user_id: user.id,
    created_by: actor.userId,
    name: input.name,
    key_prefix: plaintext.slice(0, PREFIX_LENGTH),
    key_hash: sha256(plaintext),
    last_used_at: null,
    expires: input.expires ?? null,
    revoked: 0,
    revoked_at: null,
    created: now,
  };
  await ctx.db.insertInto('api_keys').values(key).execute();
  return {
    result: true,
    message: 'API key created. Copy it now: it will not be shown again.',
    key: {
      id: key.id,
      name: key.name,
      user_id: key.user_id,
      key_prefix: key.key_prefix,
      expires: key.expires,
      plaintext,
    },
  };
}

export async function revokeApiKey(ctx: AppContext, actor: Actor, id: string) {
  const key = await ctx.db
    .selectFrom('api_keys')
    .select(['id', 'revoked'])
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!key) throw notFound('API key not found');
  if (key.revoked) return { result: true, message: 'API key was already revoked' };
  await ctx.db.updateTable('api_keys').set({ revoked: 1, revoked_at: nowSeconds() }).where('id', '=', id).execute();
  return { result: true, message: 'API key revoked' };
}
