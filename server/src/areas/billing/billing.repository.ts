import { uuidv7 } from '@ops/shared';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { presentEntry } from './billing.presenter.ts';
import type { BillingAccountsTable, BillingEntriesTable } from './billing.tables.ts';
import './billing.tables.ts';

/** Entries kept on the account row for the owner's devices (newest first). */
export const RECENT_ENTRIES = 20;

/** A new entry before the ledger stamps id, company, account owner and time. */
export type NewEntry = Omit<BillingEntriesTable, 'id' | 'company_id' | 'user_id' | 'created' | 'created_by'> & {
  id?: string;
};

export async function accountOf(
  db: Kysely<DB>,
  companyId: string,
  userId: string,
): Promise<BillingAccountsTable | undefined> {
  return db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * One page of the company's people (not deleted) with their account totals,
 * most negative balance first (no account yet: 0), then by name; the count
 * of people for the paging. A left join from users, so everyone with billing
 * is listed even before their first entry.
 */
export async function accountsPage(db: Kysely<DB>, companyId: string, page: number, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users as u')
      .leftJoin('billing_accounts as a', (j) => j.onRef('a.user_id', '=', 'u.id').on('a.company_id', '=', companyId))
      .select(['u.id', 'u.name', 'u.surname', 'u.billing', 'a.balance', 'a.package_seconds', 'a.currency'])
      .where('u.company_id', '=', companyId)
      .where('u.deleted', '=', 0)
      .orderBy((eb) => eb.fn.coalesce('a.balance', eb.lit(0)))
      .orderBy('u.surname')
      .orderBy('u.name')
      .orderBy('u.id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

/** The user of the company (not deleted), or undefined: every account lookup goes through here first (404). */
export async function companyUser(db: Kysely<DB>, companyId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'email', 'billing'])
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/**
 * Appends entries to one account and moves its totals row in the same
 * transaction: balance and prepaid seconds by the entries' sums, the entry
 * count, and the last entries for the owner's devices. The company's change
 * number is taken first, so writers of one company are serialized (the row lock
 * of `sync_counters`, docs/sync.md) and the totals never miss an entry.
 */
export async function appendEntries(
  uow: UnitOfWork,
  companyId: string,
  userId: string,
  createdBy: string | null,
  entries: readonly NewEntry[],
): Promise<BillingEntriesTable[]> {
  if (!entries.length) return [];
  const changeNo = await uow.changeNo(companyId, 'billing_accounts');
  const now = nowSeconds();
  const rows: BillingEntriesTable[] = entries.map((e) => ({
    ...e,
    id: e.id ?? uuidv7(),
    company_id: companyId,
    user_id: userId,
    created: now,
    created_by: createdBy,
  }));
  await uow.trx.insertInto('billing_entries').values(rows).execute();
  let account = await accountOf(uow.trx, companyId, userId);
  if (!account) {
    const company = await uow.trx
      .selectFrom('companies')
      .select('currency')
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    account = {
      id: uuidv7(),
      company_id: companyId,
      change_no: changeNo,
      deleted: 0,
      created: now,
      modified: now,
      user_id: userId,
      currency: company.currency ?? 'EUR',
      balance: 0,
      package_seconds: 0,
      entry_count: 0,
      recent: '[]',
    };
    await uow.trx.insertInto('billing_accounts').values(account).execute();
  }
  const amount = rows.reduce((s, r) => s + r.amount, 0);
  const pkg = rows.reduce((s, r) => s + r.package_seconds, 0);
  const recent = [...[...rows].reverse().map(presentEntry), ...(JSON.parse(account.recent) as unknown[])].slice(
    0,
    RECENT_ENTRIES,
  );
  await uow.trx
    .updateTable('billing_accounts')
    .set({
      balance: sql<number>`balance + ${amount}`,
      package_seconds: sql<number>`package_seconds + ${pkg}`,
      entry_count: sql<number>`entry_count + ${rows.length}`,
      recent: JSON.stringify(recent),
      change_no: changeNo,
      modified: now,
    })
    .where('company_id', '=', companyId)
    .where('id', '=', account.id)
    .execute();
  return rows;
}

export interface EntryFilter {
  from?: number;
  to?: number;
}

function entriesQuery(db: Kysely<DB>, companyId: string, userId: string, f: EntryFilter) {
  let q = db.selectFrom('billing_entries').where('company_id', '=', companyId).where('user_id', '=', userId);
  if (f.from !== undefined) q = q.where('created', '>=', f.from);
  if (f.to !== undefined) q = q.where('created', '<=', f.to);
  return q;
}

/** One page of an account's entries, newest first, and their count (`knownCount`: the totals row's, when nothing filters). */
export async function entriesPage(
  db: Kysely<DB>,
  companyId: string,
  userId: string,
  f: EntryFilter,
  page: number,
  limit: number,
  knownCount?: number,
) {
  const unfiltered = f.from === undefined && f.to === undefined;
  const n =
    unfiltered && knownCount !== undefined
      ? knownCount
      : (
          await entriesQuery(db, companyId, userId, f)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
  const rows = await entriesQuery(db, companyId, userId, f)
    .selectAll()
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { rows, count: Number(n) };
}

/** Entries of an account in `[from, to)`, oldest first, and the balance before `from` (statements). */
export async function entriesBetween(db: Kysely<DB>, companyId: string, userId: string, from: number, to: number) {
  const before = await db
    .selectFrom('billing_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('s'))
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('created', '<', from)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('billing_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('created', '>=', from)
    .where('created', '<', to)
    .orderBy('created')
    .orderBy('id')
    .execute();
  return { opening: Number(before.s), rows };
}

/** Every entry of the company in `[from, to)` with the account owner's name (export), oldest first. */
export function companyEntriesBetween(db: Kysely<DB>, companyId: string, from: number, to: number) {
  return db
    .selectFrom('billing_entries as e')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'e.user_id').onRef('u.company_id', '=', 'e.company_id'))
    .selectAll('e')
    .select(['u.name', 'u.surname'])
    .where('e.company_id', '=', companyId)
    .where('e.created', '>=', from)
    .where('e.created', '<', to)
    .orderBy('e.created')
    .orderBy('e.id')
    .execute();
}

export function entryById(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('billing_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The reversal of an entry, if any. */
export function reversalOf(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('billing_entries')
    .select('id')
    .where('company_id', '=', companyId)
    .where('reverses_id', '=', id)
    .executeTakeFirst();
}

/** A flight's entries that are not reversals and not reversed: what the flight is charged now. */
export function liveFlightEntries(db: Kysely<DB>, companyId: string, flightId: string) {
  return db
    .selectFrom('billing_entries as e')
    .selectAll('e')
    .where('e.company_id', '=', companyId)
    .where('e.flight_id', '=', flightId)
    .where('e.kind', '!=', 'reversal')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('billing_entries as r')
            .select('r.id')
            .where('r.company_id', '=', companyId)
            .whereRef('r.reverses_id', '=', 'e.id'),
        ),
      ),
    )
    .orderBy('e.id')
    .execute();
}

/** Prepaid seconds left per aircraft (null: any aircraft) of an account. */
export async function packagePools(db: Kysely<DB>, companyId: string, userId: string) {
  const rows = await db
    .selectFrom('billing_entries')
    .select(['aircraft_id', (eb) => eb.fn.sum<number>('package_seconds').as('seconds')])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('package_seconds', '!=', 0)
    .groupBy('aircraft_id')
    .execute();
  return rows.map((r) => ({ aircraft_id: r.aircraft_id, seconds: Number(r.seconds) }));
}

export function ratesOf(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('billing_rates')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('kind')
    .orderBy('target_id')
    .execute();
}

export function rateById(db: Kysely<DB>, companyId: string, id: string) {
  return db
    .selectFrom('billing_rates')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function rateFor(db: Kysely<DB>, companyId: string, kind: string, targetId: string) {
  return db
    .selectFrom('billing_rates')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
}

/** Billing settings of a company as stored. */
export function billingSettingsOf(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('companies')
    .select([
      'plan',
      'currency',
      'timezone',
      'billing_enabled',
      'billing_tax',
      'billing_basis',
      'billing_send_notification',
      'billing_public_key',
      'name',
    ])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/** Balance and prepaid seconds of users (0 for users without an account): the pilots directory and view read these. */
export async function accountTotals(
  db: Kysely<DB>,
  companyId: string,
  userIds: readonly string[],
): Promise<Map<string, { balance: number; packageSeconds: number }>> {
  const out = new Map<string, { balance: number; packageSeconds: number }>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('billing_accounts')
    .select(['user_id', 'balance', 'package_seconds'])
    .where('company_id', '=', companyId)
    .where('user_id', 'in', [...userIds])
    .execute();
  for (const r of rows) out.set(r.user_id, { balance: Number(r.balance), packageSeconds: Number(r.package_seconds) });
  return out;
}
