import { type PersonalDoc, PEOPLE_TYPES, peopleCollection, personalCollection } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import { presentAccount } from './billing.presenter.ts';
import type { BillingAccountsTable } from './billing.tables.ts';

const accountQuery = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('billing_accounts as a').selectAll('a').where('a.company_id', '=', companyId);

/** The `account` document: `data.Account` as the REST account, `data.entries` the last entries (newest first). */
const accountDoc = (a: BillingAccountsTable): PersonalDoc => ({
  id: a.id,
  type: 'account',
  user_id: a.user_id,
  data: {
    Account: presentAccount(a.user_id, a, a.currency),
    entries: JSON.parse(a.recent) as unknown[],
    entry_count: Number(a.entry_count),
  },
  updated: Number(a.modified),
});

/**
 * The signed-in user's own billing account, the `account` record type of
 * `people` (own scope): read-only on devices; every entry moves the account
 * row (its change number) in the entry's transaction, so devices pull it anew.
 */
export const billingAccountRecords = recordType<PersonalDoc>(peopleCollection, {
  types: [PEOPLE_TYPES.account],
  sources: [
    tableSource({
      tables: ['billing_accounts'],
      alias: 'a',
      rows: personalCollection.rows,
      query: accountQuery,
      toDoc: accountDoc,
    }),
  ],
  async load(db, companyId, id) {
    const a = await accountQuery(db, companyId).where('a.id', '=', id).executeTakeFirst();
    return a ? { ...accountDoc(a), _deleted: !!a.deleted } : null;
  },
});
