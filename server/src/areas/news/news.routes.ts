import { GATES } from '@ops/shared';
import { newsGates } from '@ops/shared/rules/news/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { ZNewsEdit } from './news.schema.ts';
import { deleteNews, listNews, saveNews, signNews, viewNews } from './news.service.ts';
import { ZNews, ZNewsNewsView, ZManagerNewsNewsEdit, ZManagerNewsNewsDelete, ZNewsNewsSign } from './news.responses.ts';

/** `?page=N` (1-based); a page past the end answers an empty list with its pagination block. */
const ZPage = z.object({
  page: z.coerce
    .number({ error: 'Expected a page number' })
    .int('Expected a page number')
    .min(1, 'Pages start at 1')
    .max(1_000_000)
    .default(1),
});

export const newsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/news.json',
    area: 'news',
    summary:
      'Company news addressed to the caller, newest first, 10 per page (`?page=`); without credentials the public platform feed',
    access: { public: true },
    query: ZPage,
    response: ZNews,
    handler: ({ ctx, actor, query }) => listNews(ctx, actor, { baseId: null, page: query.page }),
  }),
  defineRoute({
    method: 'GET',
    path: '/news/news/index{/:base_id}.json',
    area: 'news',
    summary: 'As /news.json; with `base_id`, only articles of that base or of no base',
    access: { public: true },
    params: z.object({ base_id: zId.optional() }),
    query: ZPage,
    response: ZNews,
    handler: ({ ctx, actor, params, query }) =>
      listNews(ctx, actor, { baseId: params.base_id ?? null, page: query.page }),
  }),
  defineRoute({
    method: 'GET',
    path: '/news/news/view/:slug.json',
    area: 'news',
    summary: 'One article; managers (<= 135) also get NewsRecipient and NewsRecipientUsers, others add a view',
    access: { public: true },
    params: z.object({ slug: z.string().trim().min(1).max(120) }),
    response: ZNewsNewsView,
    handler: ({ ctx, actor, params }) => viewNews(ctx, actor, params.slug),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/news/news/edit.json',
    area: 'news',
    summary:
      'Create (no News.id) or update an article; NewsRecipient.user_group_id[] replaces the recipients (roles <= 135)',
    access: { who: newsGates.manage },
    body: ZNewsEdit,
    response: ZManagerNewsNewsEdit,
    handler: ({ ctx, actor, body }) => saveNews(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/news/news/delete/:id.json',
    noBody: true,
    area: 'news',
    summary: 'Delete an article (roles <= 135)',
    access: { who: newsGates.manage },
    params: z.object({ id: zId }),
    response: ZManagerNewsNewsDelete,
    handler: ({ ctx, actor, params }) => deleteNews(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/news/news/sign/:id.json',
    area: 'news',
    summary: 'Acknowledge an article that asks for a signature, with the caller’s password (other methods: 400)',
    access: { who: GATES.member },
    params: z.object({ id: zId }),
    body: z.object({ password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024) }),
    response: ZNewsNewsSign,
    handler: ({ ctx, actor, params, body, req }) => signNews(ctx, actor, params.id, body.password, req.ip ?? null),
  }),
];
