import { GATES } from '@ops/shared';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { notFound } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './notifications.tables.ts';
import { ZNotifications, ZNotificationsRead } from './notifications.responses.ts';

const PAGE = 100;

export const notificationsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/notifications.json',
    area: 'notifications',
    summary:
      'The caller’s in-app notifications, newest first (CONTRACT 4); `unread:1` keeps unread ones, `page` pages by 100',
    access: { who: GATES.member },
    query: z.object({
      unread: z.enum(['0', '1']).optional(),
      page: z.coerce.number().int().min(1).max(100000).default(1),
    }),
    response: ZNotifications,
    handler: async ({ ctx, actor, query }) => {
      let q = ctx.db
        .selectFrom('notifications')
        .select(['id', 'title', 'body', 'link', 'read', 'created'])
        .where('company_id', '=', actor.companyId)
        .where('user_id', '=', actor.userId)
        .where('deleted', '=', 0);
      if (query.unread === '1') q = q.where('read', '=', 0);
      const rows = await q
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .limit(PAGE)
        .offset((query.page - 1) * PAGE)
        .execute();
      return { notifications: rows.map((r) => ({ ...r, read: !!r.read })) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/notifications/read.json',
    area: 'notifications',
    summary: 'Mark notifications read: `ids` (array of ids) or `all: true`',
    access: { who: GATES.member },
    body: z.union([z.object({ ids: z.array(zId).min(1).max(500) }), z.object({ all: z.literal(true) })]),
    response: ZNotificationsRead,
    handler: async ({ ctx, actor, body }) => {
      const marked = await ctx.tx(async (uow) => {
        let q = uow.trx
          .updateTable('notifications')
          .set({ read: 1, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'notifications') })
          .where('company_id', '=', actor.companyId)
          .where('user_id', '=', actor.userId)
          .where('read', '=', 0);
        if ('ids' in body) {
          const mine = await uow.trx
            .selectFrom('notifications')
            .select('id')
            .where('company_id', '=', actor.companyId)
            .where('user_id', '=', actor.userId)
            .where('id', 'in', body.ids)
            .execute();
          if (mine.length !== new Set(body.ids).size) throw notFound('Notification not found');
          q = q.where('id', 'in', body.ids);
        }
        return Number((await q.executeTakeFirst()).numUpdatedRows);
      });
      return { result: true, marked };
    },
  }),
];
