import { z } from 'zod';

/**
 * Response schemas of the accounts routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** POST /logout.json */
export const ZLogout = z.strictObject({
  result: z.boolean(),
  message: z.string(),
});

/** GET /users/organizations.json */
export const ZUsersOrganizations = z.record(
  z.string(),
  z.object({
    id: z.string(),
    name: z.string(),
    user_id: z.string(),
    user_group_id: z.number(),
    current: z.boolean(),
  }),
);

/** POST /users/two_factor/totp/setup.json */
export const ZUsersTwoFactorTotpSetup = z.strictObject({
  result: z.boolean(),
  secret: z.string(),
  otpauth_url: z.string(),
});

/** POST /users/two_factor/totp/enable.json */
export const ZUsersTwoFactorTotpEnable = z.strictObject({
  result: z.boolean(),
  two_factor: z.string(),
});
