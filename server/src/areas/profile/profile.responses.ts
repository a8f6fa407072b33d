import { z } from 'zod';
import { ZUser, ZUserDetail, ZUserGroup } from '../users/users.responses.ts';

/**
 * Response schemas of the profile routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /users/view.json */
export const ZUsersView = z.strictObject({
  User: ZUser,
  UserDetail: ZUserDetail,
  UserGroup: ZUserGroup,
});

/** POST /users/email.json */
export const ZUsersEmail = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  email: z.string(),
  email_status: z.string(),
});

/** POST /users/password.json */
export const ZUsersPassword = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  sessions_closed: z.number(),
});

/** POST /users/activate.json */
export const ZUsersActivate = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  email: z.string(),
});

/** POST /users/whatsapp.json */
export const ZUsersWhatsapp = z.union([
  z.object({
    result: z.boolean(),
    message: z.string(),
    whatsapp: z.boolean(),
    phone: z.string(),
  }),
  z.object({
    result: z.boolean(),
    message: z.string(),
    phone: z.string(),
    expires: z.number(),
  }),
]);

/** GET /users/logins.json */
export const ZUsersLogins = z.strictObject({
  logins: z.array(
    z.object({
      id: z.string(),
      created: z.number(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      method: z.string(),
    }),
  ),
  sessions: z.array(
    z.object({
      id: z.string(),
      created: z.number(),
      last_seen: z.number(),
      expires: z.number(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
  currentSession: z.string().nullable(),
});

/** POST /users/closesession/:sessionId.json */
export const ZUsersClosesession = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  current: z.boolean(),
  message: z.string(),
});

/** GET /users/user_groups{/:staff}.json */
export const ZUsersUserGroups = z.strictObject({
  user_groups: z.array(
    z.object({
      UserGroup: ZUserGroup,
    }),
  ),
});

/** GET /users/countries.json */
export const ZUsersCountries = z.record(z.string(), z.string());
