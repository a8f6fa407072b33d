import { uuidv7 } from '@ops/shared';
import { mayManageNews, mayPublishPlatformNews } from '@ops/shared/rules/news/policy';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { notify } from '../notifications/notifications.notify.ts';
import { verifyOwnPassword } from '../profile/password.service.ts';
import {
  type NewsReader,
  recipientsOf,
  recipientUsersQuery,
  signaturesOf,
  visibleNewsQuery,
} from './news.repository.ts';
import type { TNewsEdit } from './news.schema.ts';
import type { NewsTable } from './news.tables.ts';
import { paginate } from '../../http/paging.ts';

/** Part A 8: ten articles per page. */
export const NEWS_PAGE_SIZE = 10;
const SUMMARY_LENGTH = 280;

const readerOf = (actor: Actor | null): NewsReader =>
  actor ? { companyId: actor.companyId, role: actor.role, userId: actor.userId } : null;

type NewsRow = Pick<
  NewsTable,
  | 'id'
  | 'slug'
  | 'name'
  | 'category'
  | 'view_count'
  | 'sign'
  | 'published'
  | 'base_id'
  | 'content'
  | 'notification'
  | 'public'
  | 'company_id'
  | 'user_id'
>;
const NEWS_COLUMNS = [
  'n.id',
  'n.slug',
  'n.name',
  'n.category',
  'n.view_count',
  'n.sign',
  'n.published',
  'n.base_id',
  'n.content',
  'n.notification',
  'n.public',
  'n.company_id',
  'n.user_id',
] as const;

function summary(content: string | null): string | null {
  if (!content) return content;
  const text = content
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

/** Part A 2.5 `News`; lists carry a summary, the public feed and the view the full content. */
function presentNews(n: NewsRow, content: 'full' | 'summary') {
  return {
    id: n.id,
    slug: n.slug,
    name: n.name,
    category: n.category,
    view_count: Number(n.view_count),
    sign: !!n.sign,
    created: n.published,
    base_id: n.base_id,
    notification: !!n.notification,
    ...(content === 'full' ? { content: n.content } : { summary: summary(n.content) }),
  };
}

/** The pagination block of news (Part A conventions: key `pagination`). */
export function paginationBlock(page: number, shown: number, count: number, limit: number) {
  return paginate(page, limit, count, shown);
}

/**
 * GET /news.json and /news/news/index/{base_id}.json: newest first, ten per
 * page, counted and paged in SQL. A signed-in caller gets the company's
 * articles addressed to them with their own signature; nobody signed in gets
 * the public platform feed with full content.
 */
export async function listNews(ctx: AppContext, actor: Actor | null, opts: { baseId: string | null; page: number }) {
  const reader = readerOf(actor);
  // A signed-in caller filters by a base of their company; another company's base is 404 like any of its records.
  if (actor && opts.baseId) {
    const base = await ctx.db
      .selectFrom('bases')
      .select('id')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', opts.baseId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!base) throw notFound('Base not found');
  }
  const scoped = () => {
    const q = visibleNewsQuery(ctx.db, reader);
    return opts.baseId ? q.where((eb) => eb.or([eb('n.base_id', 'is', null), eb('n.base_id', '=', opts.baseId)])) : q;
  };
  const { count } = await scoped()
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const rows = await scoped()
    .select([...NEWS_COLUMNS])
    .orderBy('n.published', 'desc')
    .orderBy('n.id', 'desc')
    .limit(NEWS_PAGE_SIZE)
    .offset((opts.page - 1) * NEWS_PAGE_SIZE)
    .execute();
  const signatures = actor
    ? await signaturesOf(
        ctx.db,
        rows.map((r) => r.id),
        actor.userId,
      )
    : [];
  return {
    news: rows.map((r) => ({
      News: presentNews(r, actor ? 'summary' : 'full'),
      NewsSignature: signatures
        .filter((s) => s.news_id === r.id)
        .map((s) => ({ id: s.id, user_id: s.user_id, news_id: s.news_id, created: Number(s.created) })),
    })),
    pagination: paginationBlock(opts.page, rows.length, Number(count), NEWS_PAGE_SIZE),
  };
}

/**
 * GET /news/news/view/{slug}.json. News managers (<= 135) also get the
 * recipients and their user count, every signature, and do not count as a
 * view; everyone else (and the public feed) adds one view per call and sees
 * only their own signature.
 */
export async function viewNews(ctx: AppContext, actor: Actor | null, slug: string) {
  const row = await visibleNewsQuery(ctx.db, readerOf(actor))
    .select([...NEWS_COLUMNS])
    .where('n.slug', '=', slug)
    .executeTakeFirst();
  if (!row) throw notFound('News not found');
  const manager = actor !== null && mayManageNews(actor);
  let viewCount = Number(row.view_count);
  if (!manager) {
    // Atomic increment; view counts do not replicate, so no change number.
    await ctx.db
      .updateTable('news')
      .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    const fresh = await ctx.db
      .selectFrom('news')
      .select('view_count')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    viewCount = Number(fresh.view_count);
  }
  const signatures = actor ? await signaturesOf(ctx.db, [row.id], manager ? undefined : actor.userId) : [];
  const out: Record<string, unknown> = {
    News: { ...presentNews(row, 'full'), view_count: viewCount },
    NewsSignature: Object.fromEntries(signatures.map((s) => [s.user_id, `${s.name} ${s.surname}`])),
  };
  if (manager && actor) {
    const recipients = (await recipientsOf(ctx.db, [row.id])).get(row.id) ?? [];
    const { n } = await recipientUsersQuery(ctx.db, actor.companyId, recipients)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out.NewsRecipient = recipients;
    out.NewsRecipientUsers = Number(n);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return base || 'news';
}

/** A slug not used by another live article of the same scope (company, or the public feed). */
async function uniqueSlug(db: Kysely<DB>, companyId: string | null, name: string): Promise<string> {
  const base = slugify(name);
  let q = db
    .selectFrom('news')
    .select('slug')
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
  q = companyId === null ? q.where('company_id', 'is', null) : q.where('company_id', '=', companyId);
  const taken = new Set((await q.execute()).map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** `created` plus `time` (Part A 4.3 item 3) as `YYYY-MM-DD HH:MM:SS`, or an error message. */
function publication(
  created: string | undefined,
  time: string | undefined,
  fallback: string,
): string | { error: string } {
  const datePart = (created ?? fallback).slice(0, 10);
  const raw = time ? `${datePart} ${time}` : (created ?? fallback);
  const norm = raw.replace('T', ' ');
  const full = norm.length === 10 ? `${norm} 00:00:00` : norm.length === 16 ? `${norm}:00` : norm;
  const parsed = DateTime.fromFormat(full, 'yyyy-MM-dd HH:mm:ss');
  return parsed.isValid ? full : { error: 'Not a real date and time' };
}

async function requireBase(uow: UnitOfWork, companyId: string, baseId: string) {
  const base = await uow.trx
    .selectFrom('bases')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', baseId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!base) throw notFound('Base not found');
}

/**
 * POST /manager/news/news/edit.json. Creates without `News.id`, else updates.
 * The company and author come from the session; the recipient set is replaced
 * on every save (an omitted set means everyone); the slug is fixed at
 * creation so links keep working. Only a platform administrator may publish
 * to the public platform feed (`News.public`), which belongs to no company.
 * With `notification` on, recipients get an in-app notification when the
 * article is created or when notification is switched on.
 */
export async function saveNews(ctx: AppContext, actor: Actor, input: TNewsEdit) {
  const n = input.News;
  const platform = mayPublishPlatformNews(actor) && n.public === true;
  const companyId = platform ? null : actor.companyId;
  const recipients = [...new Set(input.NewsRecipient?.user_group_id ?? [])].sort((a, b) => a - b);
  const nowLocal = DateTime.now().setZone(actor.company.timezone).toFormat('yyyy-MM-dd HH:mm:ss');

  return ctx.tx(async (uow) => {
    const existing = n.id
      ? await (companyId === null
          ? uow.trx.selectFrom('news').where('company_id', 'is', null)
          : uow.trx.selectFrom('news').where('company_id', '=', companyId)
        )
          .selectAll()
          .where('id', '=', n.id)
          .where('deleted', '=', 0)
          .executeTakeFirst()
      : undefined;
    if (n.id && !existing) throw notFound('News not found');
    const errors: Record<string, string[]> = {};
    if (!existing && !n.name) errors['News.name'] = ['Title is required'];
    const published =
      n.created !== undefined || n.time !== undefined || !existing
        ? publication(n.created, n.time, existing?.published ?? nowLocal)
        : existing.published;
    if (typeof published !== 'string') errors['News.created'] = [published.error];
    if (platform && (recipients.length || n.base_id))
      errors['News.public'] = ['A public platform article has no base and no recipients'];
    if (Object.keys(errors).length) throw validationFailed(errors);
    if (n.base_id && companyId) await requireBase(uow, companyId, n.base_id);

    const now = nowSeconds();
    const changeNo = companyId ? await uow.changeNo(companyId, 'news') : 0;
    const fields = {
      name: n.name ?? existing?.name ?? '',
      category: n.category === undefined ? (existing?.category ?? null) : n.category,
      content: n.content === undefined ? (existing?.content ?? null) : n.content,
      base_id: n.base_id === undefined ? (existing?.base_id ?? null) : n.base_id,
      sign: n.sign === undefined ? (existing?.sign ?? 0) : n.sign ? 1 : 0,
      notification: n.notification ?? existing?.notification ?? 0,
      public: platform ? 1 : 0,
      published: published as string,
      user_id: actor.userId,
      modified: now,
      change_no: changeNo,
    };
    let id: string;
    let slug: string;
    if (existing) {
      id = existing.id;
      slug = existing.slug;
      await uow.trx.updateTable('news').set(fields).where('id', '=', id).execute();
    } else {
      id = uuidv7();
      slug = await uniqueSlug(uow.trx, companyId, fields.name);
      await uow.trx
        .insertInto('news')
        .values({ id, company_id: companyId, deleted: 0, created: now, slug, view_count: 0, ...fields })
        .execute();
    }
    if (companyId) {
      await uow.trx.deleteFrom('news_recipients').where('news_id', '=', id).execute();
      if (recipients.length) {
        await uow.trx
          .insertInto('news_recipients')
          .values(recipients.map((role) => ({ id: uuidv7(), company_id: companyId, news_id: id, user_group_id: role })))
          .execute();
      }
      const switchedOn = fields.notification === 1 && !existing?.notification;
      if (switchedOn) {
        const people = await recipientUsersQuery(uow.trx, companyId, recipients)
          .select('id')
          .where('id', '!=', actor.userId)
          .execute();
        await notify(uow, {
          companyId,
          userIds: people.map((p) => p.id),
          title: `News: ${fields.name}`,
          titleId: 'notifications.newsPublished',
          titleValues: { name: fields.name },
          body: summary(fields.content),
          link: `/news/news/view/${slug}`,
        });
      }
    }
    return {
      result: true,
      message: existing ? 'News saved' : 'News created',
      id,
      slug,
      News: {
        id,
        slug,
        name: fields.name,
        created: fields.published,
        sign: !!fields.sign,
        notification: !!fields.notification,
        public: !!fields.public,
      },
    };
  });
}

/** POST /manager/news/news/delete/{id}.json: a tombstone (replicated), signatures kept for the record. */
export async function deleteNews(ctx: AppContext, actor: Actor, id: string) {
  return ctx.tx(async (uow) => {
    const row = await uow.trx
      .selectFrom('news')
      .select(['id', 'company_id'])
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .where((eb) =>
        mayPublishPlatformNews(actor)
          ? eb.or([eb('company_id', '=', actor.companyId), eb('company_id', 'is', null)])
          : eb('company_id', '=', actor.companyId),
      )
      .executeTakeFirst();
    if (!row) throw notFound('News not found');
    const changeNo = row.company_id ? await uow.changeNo(row.company_id, 'news') : 0;
    await uow.trx
      .updateTable('news')
      .set({ deleted: 1, modified: nowSeconds(), change_no: changeNo })
      .where('id', '=', id)
      .execute();
    return { result: true, message: 'News deleted', id };
  });
}

/**
 * POST /news/news/sign/{id}.json: read acknowledgement with the caller's own
 * password. 404 for an article the caller cannot see; 400 when it asks for no
 * signature or the password is wrong. Signing twice answers the first signature.
 */
export async function signNews(ctx: AppContext, actor: Actor, id: string, password: string, ip: string | null) {
  const row = await visibleNewsQuery(ctx.db, readerOf(actor))
    .select(['n.id', 'n.sign'])
    .where('n.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('News not found');
  if (!row.sign) throw badRequest('This article does not ask for a signature');
  if (!(await verifyOwnPassword(ctx, actor, password, ip)))
    throw badRequest('Wrong password', { errors: { password: ['Wrong password'] } });
  const signature = await ctx.tx(async (uow) => {
    const found = await uow.trx
      .selectFrom('news_signatures')
      .selectAll()
      .where('news_id', '=', id)
      .where('user_id', '=', actor.userId)
      .executeTakeFirst();
    if (found) return { ...found, fresh: false };
    // The article's document carries its signatures: move it forward for sync.
    await uow.trx
      .updateTable('news')
      .set({ change_no: await uow.changeNo(actor.companyId, 'news') })
      .where('id', '=', id)
      .execute();
    const sig = {
      id: uuidv7(),
      company_id: actor.companyId,
      news_id: id,
      user_id: actor.userId,
      created: nowSeconds(),
    };
    await uow.trx
      .insertInto('news_signatures')
      .values(sig)
      .onConflict((oc) => oc.columns(['news_id', 'user_id']).doNothing())
      .execute();
    const stored = await uow.trx
      .selectFrom('news_signatures')
      .selectAll()
      .where('news_id', '=', id)
      .where('user_id', '=', actor.userId)
      .executeTakeFirstOrThrow();
    return { ...stored, fresh: stored.id === sig.id };
  });
  return {
    result: true,
    message: signature.fresh ? 'Signed' : 'Already signed',
    NewsSignature: {
      id: signature.id,
      user_id: signature.user_id,
      news_id: signature.news_id,
      created: Number(signature.created),
    },
  };
}
