import { z } from 'zod';

/**
 * Response schemas of the pilot-groups routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One pilot group row. */
const zPilotGroup = z.object({
  pilot_count: z.number().optional(),
  id: z.string(),
  company_id: z.string(),
  name: z.string(),
  color: z.string(),
});

/** GET /pilot_groups/manager_index.json */
export const ZPilotGroupsManagerIndex = z.strictObject({
  pilotGroups: z.array(
    z.object({
      PilotGroup: zPilotGroup,
    }),
  ),
});

/** GET /pilot_groups/manager_view/:id.json */
export const ZPilotGroupsManagerView = z.strictObject({
  PilotGroup: zPilotGroup,
  User: z.array(
    z.object({
      User: z.object({
        id: z.string(),
        active: z.boolean(),
        pilot: z.boolean(),
        email: z.string().nullable(),
        email_status: z.string(),
        user_group_id: z.number(),
      }),
      UserDetail: z.object({
        name: z.string(),
        surname: z.string(),
        photo: z.string().nullable(),
      }),
      PilotGroup: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          color: z.string(),
        }),
      ),
    }),
  ),
});

/** GET /pilot_groups/manager_pilots/:id.json */
export const ZPilotGroupsManagerPilots = z.array(
  z.object({
    active: z.boolean(),
    pilot: z.boolean(),
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    email_status: z.string(),
    user_group_id: z.number(),
    base_id: z.string().nullable(),
    surname: z.string(),
    photo: z.string().nullable(),
  }),
);

/** POST /pilot_groups/manager_add.json */
export const ZPilotGroupsManagerAdd = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
  PilotGroup: zPilotGroup,
});

/** A pilot group with its members. */
const zPilotGroupDetail = z.object({
  User: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      surname: z.string(),
    }),
  ),
  pilot_count: z.number().optional(),
  id: z.string(),
  company_id: z.string(),
  name: z.string(),
  color: z.string(),
});

/** GET /pilot_groups/manager_edit/:id.json */
export const ZPilotGroupsManagerEdit = z.strictObject({
  PilotGroup: zPilotGroupDetail,
});

/** [POST, PUT] /pilot_groups/manager_edit/:id.json */
export const ZPilotGroupsManagerEditPost = z.strictObject({
  PilotGroup: zPilotGroupDetail,
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** [POST, DELETE] /pilot_groups/manager_delete/:id.json */
export const ZPilotGroupsManagerDelete = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** GET /pilot_groups/manager_do/:id/:action.json */
export const ZPilotGroupsManagerDo = z.strictObject({
  result: z.boolean(),
  action: z.number(),
  changed: z.array(z.string()),
  skipped: z.array(z.string()),
  message: z.string(),
});

/** POST /pilot_groups/manager_welcomize/:id.json */
export const ZPilotGroupsManagerWelcomize = z.strictObject({
  result: z.boolean(),
  sent: z.number(),
  mails: z.object({
    activation: z.number(),
    confirm: z.number(),
    welcome: z.number(),
  }),
  message: z.string(),
});
