import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the news routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** Who signed the news item, and when. */
const zNewsSignature = z.object({
  id: z.string(),
  user_id: z.string(),
  news_id: z.string(),
  created: z.number(),
});

/** A news list item without its text (the row carries either its content or its summary). */
const zNewsItem = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  view_count: z.number(),
  sign: z.boolean(),
  created: z.string(),
  base_id: z.string().nullable(),
  notification: z.boolean(),
});

/** GET /news.json */
export const ZNews = z.strictObject({
  news: z.array(
    z.object({
      News: z.union([
        zNewsItem.extend({ content: z.string().nullable() }),
        zNewsItem.extend({ summary: z.string().nullable() }),
      ]),
      NewsSignature: z.array(zNewsSignature),
    }),
  ),
  pagination: ZPaginate,
});

/** GET /news/news/view/:slug.json */
export const ZNewsNewsView = z.record(z.string(), z.unknown());

/** POST /manager/news/news/edit.json */
export const ZManagerNewsNewsEdit = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  id: z.string(),
  slug: z.string(),
  News: z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    created: z.string(),
    sign: z.boolean(),
    notification: z.boolean(),
    public: z.boolean(),
  }),
});

/** POST /manager/news/news/delete/:id.json */
export const ZManagerNewsNewsDelete = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  id: z.string(),
});

/** POST /news/news/sign/:id.json */
export const ZNewsNewsSign = z.strictObject({
  result: z.boolean(),
  message: z.string(),
  NewsSignature: zNewsSignature,
});
