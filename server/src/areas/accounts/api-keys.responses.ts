import { z } from 'zod';

/**
 * Response schemas of the api-keys routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /manager/api_keys.json */
export const ZManagerApiKeys = z.strictObject({
  keys: z.array(
    z.object({
      ApiKey: z.object({
        id: z.string(),
        user_id: z.string(),
        name: z.string(),
        key_prefix: z.string(),
        last_used_at: z.number().nullable(),
        expires: z.number().nullable(),
        revoked: z.boolean(),
        created: z.number(),
      }),
      User: z.object({
        id: z.string(),
        email: z.string().nullable(),
      }),
    }),
  ),
});

/** POST /manager/api_keys/add.json */
export const ZManagerApiKeysAdd = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  key: z.object({
    id: z.string(),
    name: z.string(),
    user_id: z.string(),
    key_prefix: z.string(),
    expires: z.number().nullable(),
    plaintext: z.string(),
  }),
});

/** POST /manager/api_keys/revoke/:id.json */
export const ZManagerApiKeysRevoke = z.strictObject({
  result: z.boolean(),
  message: z.string(),
});
