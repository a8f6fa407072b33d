import { pilotGroupGates } from '@ops/shared/rules/pilot-groups/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { ZPilotGroupAdd, ZPilotGroupEdit } from './pilot-groups.schema.ts';
import {
  bulkActivate,
  createGroup,
  deleteGroup,
  editGroup,
  groupForEdit,
  groupPilots,
  listGroups,
  viewGroup,
  welcomize,
} from './pilot-groups.service.ts';
import {
  ZPilotGroupsManagerIndex,
  ZPilotGroupsManagerView,
  ZPilotGroupsManagerPilots,
  ZPilotGroupsManagerAdd,
  ZPilotGroupsManagerEdit,
  ZPilotGroupsManagerEditPost,
  ZPilotGroupsManagerDelete,
  ZPilotGroupsManagerDo,
  ZPilotGroupsManagerWelcomize,
} from './pilot-groups.responses.ts';

const access = { who: pilotGroupGates.manage } as const;
const idParam = z.object({ id: zId });

export const pilotGroupsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/pilot_groups/manager_index.json',
    area: 'pilot-groups',
    summary: 'Pilot groups by name with pilot_count',
    access,
    response: ZPilotGroupsManagerIndex,
    handler: ({ ctx, actor }) => listGroups(ctx, actor),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilot_groups/manager_view/:id.json',
    area: 'pilot-groups',
    summary: 'A group with its members; each member lists its other groups',
    access,
    params: idParam,
    response: ZPilotGroupsManagerView,
    handler: ({ ctx, actor, params }) => viewGroup(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilot_groups/manager_pilots/:id.json',
    area: 'pilot-groups',
    summary: 'Members of a group as a flat array (deleted users excluded)',
    access,
    params: idParam,
    response: ZPilotGroupsManagerPilots,
    handler: ({ ctx, actor, params }) => groupPilots(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilot_groups/manager_add.json',
    area: 'pilot-groups',
    summary: 'Create a group: PilotGroup{name, color?, User?[{id}]}',
    access,
    body: ZPilotGroupAdd,
    response: ZPilotGroupsManagerAdd,
    handler: ({ ctx, actor, body }) => createGroup(ctx, actor, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilot_groups/manager_edit/:id.json',
    area: 'pilot-groups',
    summary: 'The group with its members, for form prefill',
    access,
    params: idParam,
    response: ZPilotGroupsManagerEdit,
    handler: ({ ctx, actor, params }) => groupForEdit(ctx, actor, params.id),
  }),
  defineRoute({
    method: ['POST', 'PUT'],
    path: '/pilot_groups/manager_edit/:id.json',
    area: 'pilot-groups',
    summary: 'Rename (and recolour) a group; PilotGroup.User given replaces the membership',
    access,
    params: idParam,
    body: ZPilotGroupEdit,
    response: ZPilotGroupsManagerEditPost,
    handler: ({ ctx, actor, params, body }) => editGroup(ctx, actor, params.id, body),
  }),
  defineRoute({
    method: ['POST', 'DELETE'],
    path: '/pilot_groups/manager_delete/:id.json',
    noBody: true,
    area: 'pilot-groups',
    summary: 'Delete a group and its memberships (not the users)',
    access,
    params: idParam,
    response: ZPilotGroupsManagerDelete,
    handler: ({ ctx, actor, params }) => deleteGroup(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilot_groups/manager_do/:id/:action.json',
    area: 'pilot-groups',
    summary: 'Activate (1) or deactivate (0) the members whose state differs',
    access,
    params: z.object({
      id: zId,
      action: z.enum(['0', '1'], { error: 'Action must be 1 (activate) or 0 (deactivate)' }),
    }),
    response: ZPilotGroupsManagerDo,
    handler: ({ ctx, actor, params }) => bulkActivate(ctx, actor, params.id, params.action === '1'),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilot_groups/manager_welcomize/:id.json',
    noBody: true,
    area: 'pilot-groups',
    summary: 'Welcome, activation or confirmation mail to each active member with an email',
    access,
    params: idParam,
    response: ZPilotGroupsManagerWelcomize,
    handler: ({ ctx, actor, params }) => welcomize(ctx, actor, params.id),
  }),
];
