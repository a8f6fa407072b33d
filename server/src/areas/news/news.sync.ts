import { INBOX_TYPES, inboxCollection, type NewsDoc } from '@ops/shared';
import type { Kysely } from 'kysely';
import { recipientsOf } from './news.repository.ts';
import './news.tables.ts';
import type { DB } from '../../db/schema.ts';
import { recordType, type SourceRow, type SyncSource } from '../../sync/registry.ts';
import { afterCheckpoint } from '../../sync/checkpoint.ts';
import { countCompanyRows } from '../../sync/table-source.ts';

/**
 * Company articles with their recipients and signers, read for a whole page
 * at once. Every row of the company replicates; `visibleNews` blanks the ones
 * not addressed to the viewer and keeps only their own signature, so a role
 * change (which restarts the pull) reveals or hides articles.
 */
const newsSource: SyncSource<NewsDoc> = {
  tables: ['news'],
  async read(db, companyId, after, limit, onlyVisibleTo) {
    let q = db
      .selectFrom('news as n')
      .select([
        'n.id',
        'n.slug',
        'n.name',
        'n.category',
        'n.content',
        'n.base_id',
        'n.sign',
        'n.published',
        'n.modified',
        'n.change_no',
        'n.deleted',
      ])
      .where('n.company_id', '=', companyId)
      .where(afterCheckpoint('n.change_no', 'n.id', after));
    if (onlyVisibleTo) q = q.where('n.deleted', '=', 0);
    const rows = await q.orderBy('n.change_no').orderBy('n.id').limit(limit).execute();
    const ids = rows.map((r) => r.id);
    const recipients = await recipientsOf(db, ids);
    const signers = await signersOf(db, companyId, ids);
    return rows.map(
      (r): SourceRow<NewsDoc> => ({
        seq: Number(r.change_no),
        id: r.id,
        deleted: !!r.deleted,
        scope: {},
        doc: {
          id: r.id,
          slug: r.slug,
          name: r.name,
          category: r.category,
          content: r.content,
          base_id: r.base_id,
          sign: !!r.sign,
          created: r.published,
          recipients: recipients.get(r.id) ?? [],
          signed_by: signers.get(r.id) ?? [],
          signed: false,
          for_me: true,
          modified: Number(r.modified),
        },
      }),
    );
  },
  // Every live article replicates (those not addressed to the viewer blanked), so every one counts.
  count: (db, companyId, upTo) => countCompanyRows(db, 'news', companyId, upTo),
};

async function signersOf(db: Kysely<DB>, companyId: string, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('news_signatures')
    .select(['news_id', 'user_id'])
    .where('company_id', '=', companyId)
    .where('news_id', 'in', ids)
    .orderBy('created')
    .orderBy('id')
    .execute();
  for (const r of rows) out.set(r.news_id, [...(out.get(r.news_id) ?? []), r.user_id]);
  return out;
}

/** The `news` record type of `inbox` (read-only on devices). */
export const newsRecords = recordType<NewsDoc>(inboxCollection, { types: [INBOX_TYPES.news], sources: [newsSource] });
