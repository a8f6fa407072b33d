import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the users routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** Part A 2.6 `User` (presentUser): the account. */
export const ZUser = z.object({
  id: z.string(),
  active: z.boolean(),
  pilot: z.boolean(),
  billing: z.boolean(),
  user_group_id: z.number(),
  base_id: z.string().nullable(),
  supervisor_id: z.string().nullable(),
  email: z.string().nullable(),
  email_status: z.string(),
  language: z.string(),
  api: z.boolean(),
  two_factor: z.string(),
  newsletter: z.boolean(),
  alerts: z.boolean(),
  message_alerts: z.boolean(),
  whatsapp: z.boolean(),
  created: z.number(),
  expiration: z.string().nullable(),
});

/** Part A 2.6 `UserDetail` (presentUser): the person. */
export const ZUserDetail = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string(),
  passport: z.string().nullable(),
  companyid: z.string().nullable(),
  dob: z.string().nullable(),
  phonecode: z.string().nullable(),
  phone: z.string().nullable(),
  phonecode2: z.string().nullable(),
  phone2: z.string().nullable(),
  emergency_contact: z.string().nullable(),
  public_phone: z.boolean(),
  address: z.string().nullable(),
  pc: z.string().nullable(),
  city: z.string().nullable(),
  country_id: z.string().nullable(),
  timezone_id: z.string().nullable(),
  nationality: z.string().nullable(),
  birthcountry_id: z.string().nullable(),
  photo: z.string().nullable(),
  flight_hours: z.number(),
  color: z.string().nullable(),
  notes: z.string().nullable(),
  modified: z.number(),
});

/** Part A 2.6 `UserGroup` (presentUserGroup). */
export const ZUserGroup = z.object({
  id: z.number(),
  name: z.string(),
  role: z.string(),
});

/** The three blocks of one company account, as presentUser returns them (its declared return type). */
export const ZUserRecord = z.object({ User: ZUser, UserDetail: ZUserDetail, UserGroup: ZUserGroup });
export type TUserRecord = z.infer<typeof ZUserRecord>;

/** GET /manager/users.json */
export const ZManagerUsers = z.array(
  z.object({
    User: z.object({
      id: z.string(),
      active: z.boolean(),
      email_status: z.string(),
      pilot: z.boolean(),
      two_factor: z.string(),
      api: z.boolean(),
      email: z.string().nullable(),
      user_group_id: z.number(),
      expiration: z.string().nullable(),
    }),
    UserDetail: z.object({
      name: z.string(),
      surname: z.string(),
      photo: z.string().nullable(),
    }),
    UserGroup: z.object({
      name: z.string(),
      id: z.number(),
    }),
  }),
);

/** GET /manager/users/list.json */
export const ZManagerUsersList = z.record(z.string(), z.string());

/** GET /manager/users/view/:id.json */
export const ZManagerUsersView = z.strictObject({
  Base: z
    .object({
      id: z.string(),
      name: z.string(),
      airport_id: z.string().nullable(),
    })
    .nullable(),
  Supervisor: z
    .object({
      id: z.string(),
      UserDetail: z.object({
        name: z.string(),
        surname: z.string(),
      }),
    })
    .nullable(),
  Company: z.object({
    id: z.string(),
    name: z.string(),
    plan: z.string(),
    timezone: z.string(),
  }),
  UserLogin: z.array(
    z.object({
      id: z.string(),
      created: z.number(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      method: z.string(),
    }),
  ),
  Login: z.object({
    company_accounts: z.number(),
    activation_pending: z.boolean(),
  }),
  User: ZUser,
  UserDetail: ZUserDetail,
  UserGroup: ZUserGroup,
});

/** POST /manager/users/create.json */
export const ZManagerUsersCreate = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** POST /manager/users/edit.json */
export const ZManagerUsersEdit = z.strictObject({
  User: ZUser,
  UserDetail: ZUserDetail,
  UserGroup: ZUserGroup,
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** POST /pilots/reminder.json */
export const ZPilotsReminder = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  mail: z.string(),
});

/** GET /manager/bills/pilots.json */
export const ZManagerBillsPilots = z.strictObject({
  pilots: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      surname: z.string(),
      user_group_id: z.number(),
      active: z.boolean(),
      pilot: z.boolean(),
      billing: z.boolean(),
      base_id: z.string().nullable(),
      email: z.string().nullable(),
    }),
  ),
  paginate: ZPaginate,
});
