import type { Kysely } from 'kysely';
import type { DB } from '../../../server/src/db/schema.ts';
import type { TestServer } from '../../setup/server.ts';

/** Accounts whose totals row differs from the sum of their entries (empty: every balance equals its entries). */
export const recount = (s: TestServer): Promise<string[]> => recountLedger(s.ctx.db);

/** The same on any database handle (the crash harness opens the database itself). */
export async function recountLedger(db: Kysely<DB>): Promise<string[]> {
  const sums = await db
    .selectFrom('billing_entries')
    .select([
      'company_id',
      'user_id',
      (eb) => eb.fn.sum<number>('amount').as('amount'),
      (eb) => eb.fn.sum<number>('package_seconds').as('pkg'),
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['company_id', 'user_id'])
    .execute();
  const accounts = await db
    .selectFrom('billing_accounts')
    .select(['company_id', 'user_id', 'balance', 'package_seconds', 'entry_count'])
    .execute();
  const bad: string[] = [];
  for (const a of accounts) {
    const e = sums.find((x) => x.company_id === a.company_id && x.user_id === a.user_id);
    if (
      Number(a.balance) !== Number(e?.amount ?? 0) ||
      Number(a.package_seconds) !== Number(e?.pkg ?? 0) ||
      Number(a.entry_count) !== Number(e?.n ?? 0)
    )
      bad.push(`${a.user_id}: ${a.balance}/${a.package_seconds}/${a.entry_count} vs ${e?.amount}/${e?.pkg}/${e?.n}`);
  }
  for (const e of sums)
    if (!accounts.some((a) => a.company_id === e.company_id && a.user_id === e.user_id))
      bad.push(`${e.user_id}: entries without an account`);
  return bad;
}
