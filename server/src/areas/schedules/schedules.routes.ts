import { GATES } from '@ops/shared';
import { scheduleGates } from '@ops/shared/rules/schedules/policy';
import { z } from 'zod';
import { MEDIA } from '../../http/responses.ts';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { createFeed, listFeeds, revokeFeed, serveFeed } from './feeds.export.ts';
import { availability, boardText } from './reads.service.ts';
import { ZAvailability, ZFeedCreate, ZScheduleEdit, ZScheduleIndex } from './schedules.schema.ts';
import { cancelBooking, saveBooking } from './schedules.service.ts';
import {
  ZSchedulesEdit,
  ZSchedulesDelete,
  ZSchedulesAvailability,
  ZSchedulesFeeds,
  ZSchedulesFeedsCreate,
  ZSchedulesFeedsRevoke,
  ZSchedulesIndex,
} from './schedules.responses.ts';

/** The read-only auditor and mechanics see the board but never book. */
const idParam = z.object({ id: zId });

export const schedulesRoutes = [
  defineRoute({
    method: 'GET',
    path: '/schedules/index.json',
    area: 'schedules',
    summary:
      'Bookings overlapping from..to (unix or YYYY-MM-DD, at most 62 days), optional aircraft_id, user_id, base_id; by start',
    access: { who: GATES.member },
    query: ZScheduleIndex,
    response: ZSchedulesIndex,
    handler: async ({ ctx, actor, query, res }) => {
      res.type('json').send(await boardText(ctx.db, actor, query));
      return undefined;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/schedules/edit.json',
    area: 'schedules',
    summary: 'Create (no id) or move a booking and its SCHEDULED flight; refusals are result false with a code',
    access: { who: scheduleGates.book },
    body: ZScheduleEdit,
    response: ZSchedulesEdit,
    handler: ({ ctx, actor, body }) => saveBooking(ctx, actor, body.Schedule),
  }),
  defineRoute({
    method: 'POST',
    path: '/schedules/delete/:id.json',
    noBody: true,
    area: 'schedules',
    summary: 'Cancel a booking; its SCHEDULED flight becomes CANCELED with a history row',
    access: { who: scheduleGates.book },
    params: idParam,
    response: ZSchedulesDelete,
    handler: ({ ctx, actor, params }) => cancelBooking(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/schedules/availability.json',
    area: 'schedules',
    summary: 'Free windows per aircraft and per instructor of a base inside its resolved operating hours on date',
    access: { who: GATES.member },
    query: ZAvailability,
    response: ZSchedulesAvailability,
    handler: ({ ctx, actor, query }) => availability(ctx.db, actor, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/schedules/feeds.json',
    area: 'schedules',
    summary: "The caller's calendar feed URLs (without their secrets)",
    access: { who: GATES.member, sessionOnly: true },
    response: ZSchedulesFeeds,
    handler: ({ ctx, actor }) => listFeeds(ctx.db, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/schedules/feeds/create.json',
    area: 'schedules',
    summary: 'A new secret ICS feed URL: kind user (own bookings) or aircraft (staff, aircraft_id)',
    access: { who: GATES.member, sessionOnly: true },
    body: ZFeedCreate,
    response: ZSchedulesFeedsCreate,
    handler: ({ ctx, actor, body, req }) => createFeed(ctx, actor, body, req),
  }),
  defineRoute({
    method: 'POST',
    path: '/schedules/feeds/revoke/:id.json',
    noBody: true,
    area: 'schedules',
    summary: 'Revoke a calendar feed URL (it answers 404 from then on)',
    access: { who: GATES.member, sessionOnly: true },
    params: idParam,
    response: ZSchedulesFeedsRevoke,
    handler: ({ ctx, actor, params }) => revokeFeed(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/schedules/ics/:token.ics',
    area: 'schedules',
    summary: 'An ICS calendar feed behind its secret token (public; revocable)',
    file: { mediaType: MEDIA.ics },
    headers: { 'Cache-Control': { description: '`private, max-age=300`' } },
    access: { public: true },
    params: z.object({ token: z.string().trim().min(10).max(100) }),
    handler: ({ ctx, params, res }) => serveFeed(ctx, params.token, res),
  }),
];
