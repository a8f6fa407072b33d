import { GATES } from '@ops/shared';
import { baseGates } from '@ops/shared/rules/bases/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId, zUnix } from '../../http/zod.ts';
import { ZBaseAdd, ZBaseEdit, ZScheduleAdd, ZScheduleEdit } from './bases.schema.ts';
import { baseCrew, createBase, deleteBase, editBase, listBases, viewBase } from './bases.service.ts';
import { addSchedule, deleteSchedule, editSchedule, listSchedules } from './duty-entries.service.ts';
import {
  ZBasesIndex,
  ZBasesView,
  ZBasesAdd,
  ZBasesDelete,
  ZBasesCrew,
  ZBasesSchedule,
  ZBasesAddSchedule,
  ZBasesDeleteSchedule,
} from './bases.responses.ts';

const idParam = z.object({ id: zId });

export const basesRoutes = [
  defineRoute({
    method: 'GET',
    path: '/bases/index.json',
    area: 'bases',
    summary: 'Bases of the company ({Base}), by name',
    access: { who: GATES.member },
    response: ZBasesIndex,
    handler: ({ ctx, actor }) => listBases(ctx, actor),
  }),
  defineRoute({
    method: 'GET',
    path: '/bases/view{/:id}.json',
    area: 'bases',
    summary: 'One base (omitted id: the default base) with its Airport, Aircraft, Pilots and Mechanics',
    access: { who: GATES.member },
    params: z.object({ id: zId.optional() }),
    response: ZBasesView,
    handler: ({ ctx, actor, params }) => viewBase(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/bases/add.json',
    area: 'bases',
    summary:
      'Create a base: name (stored in Title Case), airport_id (ICAO), default; premium or unlimited plans, roles <= 110',
    access: { who: baseGates.manage, plans: ['premium', 'unlimited'] },
    body: ZBaseAdd,
    response: ZBasesAdd,
    handler: ({ ctx, actor, body }) => createBase(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/bases/edit/:id.json',
    area: 'bases',
    summary: 'Change a base (only the fields sent); default = true makes it the default (roles <= 110)',
    access: { who: baseGates.manage },
    params: idParam,
    body: ZBaseEdit,
    response: ZBasesAdd,
    handler: ({ ctx, actor, params, body }) => editBase(ctx, actor, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/bases/delete/:id.json',
    noBody: true,
    area: 'bases',
    summary: 'Delete a base (not the default); its aircraft and people move to the default base (roles <= 110)',
    access: { who: baseGates.manage },
    params: idParam,
    response: ZBasesDelete,
    handler: ({ ctx, actor, params }) => deleteBase(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/bases/crew/:id.json',
    area: 'bases',
    summary: 'Active pilots of the base as calendar resources {id, title, eventColor}',
    access: { who: GATES.member },
    params: idParam,
    response: ZBasesCrew,
    handler: ({ ctx, actor, params }) => baseCrew(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/bases/schedule/:id.json',
    area: 'bases',
    summary:
      'Schedule entries of the base with pilot details; optional `from`, `to` (unix) keep entries overlapping that range',
    access: { who: GATES.member },
    params: idParam,
    query: z.object({ from: zUnix.optional(), to: zUnix.optional() }),
    response: ZBasesSchedule,
    handler: ({ ctx, actor, params, query }) => listSchedules(ctx, actor, params.id, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/bases/add_schedule.json',
    area: 'bases',
    summary:
      'Add a schedule entry (base, pilot, start, end, type DUTY|OFF|STANDBY|REST, or always); staff for anyone, others for themselves',
    access: { who: baseGates.dutyWrite },
    body: ZScheduleAdd,
    response: ZBasesAddSchedule,
    handler: ({ ctx, actor, body }) => addSchedule(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/bases/edit_schedule.json',
    area: 'bases',
    summary: 'Change the times or type of a schedule entry (not past ones)',
    access: { who: baseGates.dutyWrite },
    body: ZScheduleEdit,
    response: ZBasesAddSchedule,
    handler: ({ ctx, actor, body }) => editSchedule(ctx, actor, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/bases/delete_schedule/:id.json',
    area: 'bases',
    summary:
      'Delete a schedule entry (UUID), all future entries (`all`) or the always-available entries (`always`) of the caller; staff may add ?pilot=',
    access: { who: baseGates.dutyWrite },
    params: z.object({ id: z.string().trim().min(1).max(64) }),
    query: z.object({ pilot: zId.optional() }),
    response: ZBasesDeleteSchedule,
    handler: ({ ctx, actor, params, query }) => deleteSchedule(ctx, actor, params.id, query.pilot),
  }),
];
