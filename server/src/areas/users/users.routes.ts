import { pilotGates } from '@ops/shared/rules/pilots/policy';
import { userGates } from '@ops/shared/rules/users/policy';
import { z } from 'zod';
import { PAGING_HEADERS } from '../../http/responses.ts';
import { defineRoute } from '../../http/define-route.ts';
import { zBoolish, zId } from '../../http/zod.ts';
import { ZUserWrite } from './users.schema.ts';
import {
  billedPilots,
  createUser,
  deleteUser,
  editUser,
  listUsers,
  sendReminder,
  userNameMap,
  viewUser,
} from './users.service.ts';
import {
  ZManagerUsers,
  ZManagerUsersList,
  ZManagerUsersView,
  ZManagerUsersCreate,
  ZManagerUsersEdit,
  ZPilotsReminder,
  ZManagerBillsPilots,
} from './users.responses.ts';
import { pageCountOf } from '../../http/paging.ts';

/**
 * Part A 4.4 user administration. Managers are roles <= 110 (the spec's
 * manager threshold, as for API keys); the external auditor (250) reads the
 * GET endpoints, with personal fields masked, and writes nothing.
 */
const readers = { who: userGates.read } as const;
const writers = { who: userGates.write } as const;

const zPage = z.coerce
  .number({ error: 'Expected a page number' })
  .int('Expected a page number')
  .min(1, 'Pages start at 1')
  .max(1_000_000)
  .default(1);
/**
 * The spec answers the whole company as one array (Part A 4.4): without `limit`
 * every account comes back; `page`/`limit` are an opt-in for large companies.
 */
const USERS_LIST_MAX = 100_000;
const zLimit = (def: number, max: number) =>
  z.coerce
    .number({ error: 'Expected a number' })
    .int('Expected a whole number')
    .min(1, 'At least 1')
    .max(max, `At most ${max}`)
    .default(def);

export const usersRoutes = [
  defineRoute({
    method: 'GET',
    path: '/manager/users.json',
    area: 'users',
    summary:
      'Company accounts ({User, UserDetail, UserGroup}), by role then name, all of them unless `page`/`limit` (max 100000) ask for one page; `search`, `user_group_id`, `active`; totals in X-Total-Posts, X-Number-Pages',
    access: readers,
    headers: PAGING_HEADERS,
    query: z.object({
      page: zPage,
      limit: zLimit(USERS_LIST_MAX, USERS_LIST_MAX),
      search: z.string().trim().max(100).optional(),
      user_group_id: z.coerce.number().int().optional(),
      active: zBoolish.optional(),
    }),
    response: ZManagerUsers,
    handler: async ({ ctx, actor, query, res }) => {
      const { users, total } = await listUsers(ctx, actor, query);
      res.setHeader('X-Total-Posts', String(total));
      res.setHeader('X-Actual-Page', String(query.page));
      res.setHeader('X-Paging-limit', String(query.limit));
      res.setHeader('X-Number-Pages', String(pageCountOf(total, query.limit)));
      return users;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/users/list.json',
    area: 'users',
    summary: 'Map of user id to full name of the company’s accounts (dropdowns)',
    access: readers,
    response: ZManagerUsersList,
    handler: ({ ctx, actor }) => userNameMap(ctx, actor),
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/users/view/:id.json',
    area: 'users',
    summary: 'One account with preferences, base, supervisor, company, the last 20 sign-ins and its login state',
    access: readers,
    params: z.object({ id: zId }),
    response: ZManagerUsersView,
    handler: ({ ctx, actor, params }) => viewUser(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/users/create.json',
    area: 'users',
    summary:
      'Create an account (User, UserDetail); links or creates the login of the email and mails it (roles <= 110)',
    access: writers,
    body: ZUserWrite,
    response: ZManagerUsersCreate,
    handler: ({ ctx, actor, body }) => createUser(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/users/edit.json',
    area: 'users',
    summary: 'Edit an account (User.id required; partial); answers the saved record (roles <= 110)',
    access: writers,
    body: ZUserWrite,
    response: ZManagerUsersEdit,
    handler: ({ ctx, actor, body }) => editUser(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/users/delete/:id.json',
    area: 'users',
    summary: 'Delete an account; `confirm` must be true (roles <= 110)',
    access: writers,
    params: z.object({ id: zId }),
    body: z.object({ confirm: zBoolish.optional() }),
    response: ZManagerUsersCreate,
    handler: ({ ctx, actor, params, body }) => deleteUser(ctx, actor, params.id, body.confirm === true),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilots/reminder.json',
    area: 'users',
    summary: 'Send the activation mail again (or a welcome mail once the login is active); `user` is the account id',
    // The reminder is a pilot-administration action: the roles that create pilots (Part A 4.8 item 3).
    access: { who: pilotGates.admin },
    body: z.object({ user: z.union([zId, z.number().transform(String)], { error: 'user is required' }) }),
    response: ZPilotsReminder,
    handler: ({ ctx, actor, body }) => sendReminder(ctx, actor, body.user),
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/bills/pilots.json',
    area: 'users',
    summary:
      'Accounts billed by the company in the pilot-list shape, all of them unless `page`/`limit` (max 100000) ask for one page, with `paginate`; paid plans',
    access: { ...readers, plans: ['premium', 'unlimited', 'club'] },
    // The pilot list it mirrors (Part A 4.8 item 1) is not paginated: all billed accounts unless a page is asked for.
    query: z.object({ page: zPage, limit: zLimit(USERS_LIST_MAX, USERS_LIST_MAX) }),
    response: ZManagerBillsPilots,
    handler: ({ ctx, actor, query }) => billedPilots(ctx, actor, query),
  }),
];
