import { accountGates } from '@ops/shared/rules/accounts/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId, zUnix } from '../../http/zod.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.ts';
import { ZManagerApiKeys, ZManagerApiKeysAdd, ZManagerApiKeysRevoke } from './api-keys.responses.ts';

/** Part A 4.1: roles <= 110, interactive session only (an API key never manages keys). */
const access = { who: accountGates.apiKeys, sessionOnly: true } as const;

export const apiKeysRoutes = [
  defineRoute({
    method: 'GET',
    path: '/manager/api_keys.json',
    area: 'accounts',
    summary: 'API keys of the company (never their secrets)',
    access,
    response: ZManagerApiKeys,
    handler: async ({ ctx, actor }) => ({ keys: await listApiKeys(ctx, actor) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/api_keys/add.json',
    area: 'accounts',
    summary: 'Create an API key bound to a company user; the plaintext is shown once',
    access,
    body: z.object({
      name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(120),
      user_id: z.union([zId, z.number().transform(String)], { error: 'user_id is required' }),
      expires: zUnix
        .optional()
        .or(z.literal('').transform(() => undefined))
        .or(z.null().transform(() => undefined)),
    }),
    response: ZManagerApiKeysAdd,
    handler: ({ ctx, actor, body }) => createApiKey(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/api_keys/revoke/:id.json',
    noBody: true,
    area: 'accounts',
    summary: 'Revoke an API key (irreversible; kept for audit)',
    access,
    params: z.object({ id: zId }),
    response: ZManagerApiKeysRevoke,
    handler: ({ ctx, actor, params }) => revokeApiKey(ctx, actor, params.id),
  }),
];
