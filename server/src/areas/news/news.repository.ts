import { mayReadAllNews } from '@ops/shared/rules/news/policy';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import './news.tables.ts';

/** Who reads: a company caller (role decides recipients) or an anonymous visitor of the public feed. */
export type NewsReader = { companyId: string; role: number; userId: string } | null;

/**
 * Articles a reader may see, as a query to refine: the company's live
 * articles (recipient filter above role 105), or the public platform feed.
 * The company (or public) filter is in SQL, always.
 */
export function visibleNewsQuery(db: Kysely<DB>, reader: NewsReader) {
  let q = db.selectFrom('news as n').where('n.deleted', '=', 0);
  if (!reader) return q.where('n.company_id', 'is', null).where('n.public', '=', 1);
  q = q.where('n.company_id', '=', reader.companyId);
  if (!mayReadAllNews(reader)) {
    const role = reader.role;
    q = q.where((eb) =>
      eb.or([
        eb.not(eb.exists(eb.selectFrom('news_recipients as r').select('r.id').whereRef('r.news_id', '=', 'n.id'))),
        eb.exists(
          eb
            .selectFrom('news_recipients as r')
            .select('r.id')
            .whereRef('r.news_id', '=', 'n.id')
            .where('r.user_group_id', '=', role),
        ),
      ]),
    );
  }
  return q;
}

export async function recipientsOf(db: Kysely<DB>, newsIds: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (!newsIds.length) return out;
  const rows = await db
    .selectFrom('news_recipients')
    .select(['news_id', 'user_group_id'])
    .where('news_id', 'in', [...newsIds])
    .orderBy('user_group_id')
    .execute();
  for (const r of rows) out.set(r.news_id, [...(out.get(r.news_id) ?? []), Number(r.user_group_id)]);
  return out;
}

/** Signatures with the signer's full name (only signers of the article's company). */
export async function signaturesOf(db: Kysely<DB>, newsIds: readonly string[], onlyUserId?: string) {
  if (!newsIds.length) return [];
  let q = db
    .selectFrom('news_signatures as s')
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 's.user_id').onRef('u.company_id', '=', 's.company_id'))
    .select(['s.id', 's.news_id', 's.user_id', 's.created', 'u.name', 'u.surname'])
    .where('s.news_id', 'in', [...newsIds]);
  if (onlyUserId) q = q.where('s.user_id', '=', onlyUserId);
  return q.orderBy('s.created').orderBy('s.id').execute();
}

/** Active people of the company in the recipient roles (everyone when the set is empty). */
export function recipientUsersQuery(db: Kysely<DB>, companyId: string, recipients: readonly number[]) {
  const q = db.selectFrom('users').where('company_id', '=', companyId).where('deleted', '=', 0).where('active', '=', 1);
  return recipients.length ? q.where('user_group_id', 'in', [...recipients]) : q;
}
