import { type ChargeLine, flightCharges, type Seats } from '@ops/shared/rules/billing/charges';
import {
  chargeLineDescription,
  flightChangedDescription,
  reversalDescription,
} from '@ops/shared/rules/billing/descriptions';
import { includedTax, taxBasisPoints } from '@ops/shared/rules/billing/money';
import { mayReverseEntry, mayViewAccount } from '@ops/shared/rules/billing/policy';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, type FieldErrors, forbidden, invalid, notFound } from '../../http/errors.ts';
import { paginate } from '../../http/paging.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { announceEntries } from './billing.notify.ts';
import { presentAccount, presentEntry, presentRate } from './billing.presenter.ts';
import {
  accountOf,
  accountsPage,
  appendEntries,
  billingSettingsOf,
  companyUser,
  entriesPage,
  entryById,
  liveFlightEntries,
  type NewEntry,
  packagePools,
  rateById,
  rateFor,
  ratesOf,
  reversalOf,
} from './billing.repository.ts';
import type { TEntryAdd, TRateEdit } from './billing.schema.ts';
import type { BillingEntriesTable } from './billing.tables.ts';
import { uuidv7 } from '@ops/shared';

/** Billing applies only on a paid plan with `CompanyBillingSetting.enabled` (CONTRACT 6); elsewhere 403. */
export function requireBilling(actor: Actor): void {
  if (actor.plan === 'free') throw forbidden('Billing is not available on the free plan');
  if (!actor.company.billingEnabled) throw forbidden('Billing is not enabled for your company');
}

/** A user of the caller's company (404 otherwise, before any other check), then billing on, then own or office. */
export async function requireAccountUser(db: Kysely<DB>, actor: Actor, userId: string) {
  const user = await companyUser(db, actor.companyId, userId);
  if (!user) throw notFound('User not found');
  requireBilling(actor);
  if (!mayViewAccount(actor, userId)) throw forbidden('You can only see your own account');
  return user;
}

async function companyCurrency(db: Kysely<DB>, companyId: string): Promise<string> {
  const c = await db.selectFrom('companies').select('currency').where('id', '=', companyId).executeTakeFirstOrThrow();
  return c.currency ?? 'EUR';
}

// ---------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------

/** GET /billing/rates.json */
export async function listRates(ctx: AppContext, actor: Actor) {
  requireBilling(actor);
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  const rows = await ratesOf(ctx.db, actor.companyId);
  return {
    rates: rows.map((r) => ({ Rate: presentRate(r) })),
    currency: settings.currency ?? 'EUR',
    basis: settings.billing_basis === 'flight' ? ('flight' as const) : ('block' as const),
  };
}

/** POST /manager/billing/rates/edit.json: create, or change the rate of an id or of the same kind and target. */
export async function saveRate(ctx: AppContext, actor: Actor, input: TRateEdit) {
  const r = input.Rate;
  const byId = r.id ? await rateById(ctx.db, actor.companyId, r.id) : undefined;
  if (r.id && !byId) throw notFound('Rate not found');
  requireBilling(actor);
  const target =
    r.kind === 'aircraft'
      ? await ctx.db
          .selectFrom('aircraft')
          .select('id')
          .where('company_id', '=', actor.companyId)
          .where('id', '=', r.target_id)
          .where('deleted', '=', 0)
          .executeTakeFirst()
      : await companyUser(ctx.db, actor.companyId, r.target_id);
  if (!target)
    throw invalid({
      'Rate.target_id': [r.kind === 'aircraft' ? 'Unknown aircraft in your company' : 'Unknown user in your company'],
    });
  return ctx.tx(async (uow) => {
    const now = nowSeconds();
    const same = await rateFor(uow.trx, actor.companyId, r.kind, r.target_id);
    if (byId && same && same.id !== byId.id)
      throw invalid({ 'Rate.target_id': ['Another rate exists for this kind and target'] });
    const existing = byId ?? same;
    if (existing) {
      await uow.trx
        .updateTable('billing_rates')
        .set({ kind: r.kind, target_id: r.target_id, amount: r.amount, modified: now })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', existing.id)
        .execute();
      return { result: true as const, id: existing.id };
    }
    const id = uuidv7();
    await uow.trx
      .insertInto('billing_rates')
      .values({
        id,
        company_id: actor.companyId,
        kind: r.kind,
        target_id: r.target_id,
        amount: r.amount,
        created: now,
        modified: now,
      })
      .execute();
    return { result: true as const, id };
  });
}

/** POST /manager/billing/rates/delete/{id}.json */
export async function deleteRate(ctx: AppContext, actor: Actor, id: string) {
  const rate = await rateById(ctx.db, actor.companyId, id);
  if (!rate) throw notFound('Rate not found');
  requireBilling(actor);
  await ctx.db.deleteFrom('billing_rates').where('company_id', '=', actor.companyId).where('id', '=', id).execute();
  return { result: true as const };
}

// ---------------------------------------------------------------------------
// Accounts and entries
// ---------------------------------------------------------------------------

/** GET /billing/account.json and /billing/account/{userId}.json: the whole balance, and a page of entries (newest first). */
export async function viewAccount(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  q: { page: number; limit: number; from?: number; to?: number },
) {
  await requireAccountUser(ctx.db, actor, userId);
  const [account, currency] = await Promise.all([
    accountOf(ctx.db, actor.companyId, userId),
    companyCurrency(ctx.db, actor.companyId),
  ]);
  // Without a date filter the totals row knows the count: no count over the account's entries.
  const page = await entriesPage(
    ctx.db,
    actor.companyId,
    userId,
    { from: q.from, to: q.to },
    q.page,
    q.limit,
    account ? Number(account.entry_count) : 0,
  );
  return {
    Account: presentAccount(userId, account, currency),
    entries: page.rows.map((e) => ({ Entry: presentEntry(e) })),
    paginate: paginate(q.page, q.limit, page.count, page.rows.length),
  };
}

/** GET /billing/accounts.json: every balance of the company for the office, most negative first (docs/areas/billing.md). */
export async function listAccounts(ctx: AppContext, actor: Actor, q: { page: number; limit: number }) {
  requireBilling(actor);
  const [page, currency] = await Promise.all([
    accountsPage(ctx.db, actor.companyId, q.page, q.limit),
    companyCurrency(ctx.db, actor.companyId),
  ]);
  return {
    accounts: page.rows.map((r) => ({
      Account: presentAccount(
        r.id,
        r.balance === null
          ? undefined
          : { balance: r.balance, package_seconds: Number(r.package_seconds), currency: r.currency ?? currency },
        currency,
      ),
      User: { id: r.id, name: r.name, surname: r.surname, billing: Number(r.billing) === 1 },
    })),
    paginate: paginate(q.page, q.limit, page.count, page.rows.length),
  };
}

/** POST /manager/billing/entries/add.json: a payment, an adjustment, or a package (its price booked as a charge, its hours added). */
export async function addEntry(ctx: AppContext, actor: Actor, input: TEntryAdd) {
  const e = input.Entry;
  const user = await companyUser(ctx.db, actor.companyId, e.user_id);
  if (!user) throw notFound('User not found');
  requireBilling(actor);
  const errors: FieldErrors = {};
  const add = (k: string, m: string) => {
    errors[k] = [...(errors[k] ?? []), m];
  };
  if (e.kind === 'package') {
    if (!e.hours) add('Entry.hours', 'A package needs its hours (more than 0)');
    if (e.amount < 0) add('Entry.amount', 'Enter the package price as a positive amount');
    if (e.aircraft_id) {
      const a = await ctx.db
        .selectFrom('aircraft')
        .select('id')
        .where('company_id', '=', actor.companyId)
        .where('id', '=', e.aircraft_id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      if (!a) add('Entry.aircraft_id', 'Unknown aircraft in your company');
    }
  } else {
    if (e.hours !== undefined) add('Entry.hours', 'Only a package has hours');
    if (e.aircraft_id !== undefined) add('Entry.aircraft_id', 'Only a package is for an aircraft');
    if (e.kind === 'payment' && e.amount <= 0) add('Entry.amount', 'A payment is a positive amount');
    if (e.kind === 'adjustment' && e.amount === 0) add('Entry.amount', 'An adjustment needs an amount');
  }
  if (Object.keys(errors).length) throw invalid(errors);
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  const entry: NewEntry =
    e.kind === 'package'
      ? {
          kind: 'package',
          amount: -e.amount,
          tax: -includedTax(e.amount, taxBasisPoints(Number(settings.billing_tax))),
          seconds: e.hours ?? 0,
          package_seconds: e.hours ?? 0,
          aircraft_id: e.aircraft_id ?? null,
          flight_id: null,
          reverses_id: null,
          reference: null,
          description: e.description ?? null,
        }
      : {
          kind: e.kind,
          amount: e.amount,
          tax: 0,
          seconds: 0,
          package_seconds: 0,
          aircraft_id: null,
          flight_id: null,
          reverses_id: null,
          reference: null,
          description: e.description ?? null,
        };
  const id = await ctx.tx(async (uow) => {
    const [row] = await appendEntries(uow, actor.companyId, e.user_id, actor.userId, [entry]);
    await announceEntries(uow, actor.companyId, [row]);
    return row.id;
  });
  const account = await accountOf(ctx.db, actor.companyId, e.user_id);
  return { result: true as const, id, Account: presentAccount(e.user_id, account, settings.currency ?? 'EUR') };
}

const reversalEntry = (e: BillingEntriesTable, description: string | null): NewEntry => ({
  kind: 'reversal',
  amount: -Number(e.amount),
  tax: -Number(e.tax),
  seconds: -Number(e.seconds),
  package_seconds: -Number(e.package_seconds),
  aircraft_id: e.aircraft_id,
  flight_id: e.flight_id,
  reverses_id: e.id,
  reference: null,
  description,
});

/** POST /manager/billing/entries/reverse/{id}.json: a new entry negating one; never a reversal, never twice. */
export async function reverseEntry(ctx: AppContext, actor: Actor, id: string, description: string | null | undefined) {
  const entry = await entryById(ctx.db, actor.companyId, id);
  if (!entry) throw notFound('Entry not found');
  requireBilling(actor);
  return ctx.tx(async (uow) => {
    await uow.changeNo(actor.companyId, 'billing_accounts'); // the company's write lock before the "already reversed" read
    const reversed = !!(await reversalOf(uow.trx, actor.companyId, id));
    if (!mayReverseEntry(actor, { kind: entry.kind, reversed })) {
      throw badRequest(entry.kind === 'reversal' ? 'A reversal cannot be reversed' : 'This entry is already reversed');
    }
    const [row] = await appendEntries(uow, actor.companyId, entry.user_id, actor.userId, [
      reversalEntry(entry, description ?? reversalDescription(entry.kind)),
    ]);
    await announceEntries(uow, actor.companyId, [row]);
    return { result: true as const, id: row.id };
  });
}

// ---------------------------------------------------------------------------
// Charges of flights
// ---------------------------------------------------------------------------

/** What makes two charge lines the same charge (compared as sorted lists: order does not matter). */
const lineKey = (
  a: Pick<BillingEntriesTable | ChargeLine, 'kind' | 'amount' | 'tax' | 'seconds' | 'package_seconds' | 'aircraft_id'>,
) =>
  [a.kind, Number(a.amount), Number(a.tax), Number(a.seconds), Number(a.package_seconds), a.aircraft_id ?? ''].join(
    '|',
  );
const sameCharges = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().every((k, i) => k === [...b].sort()[i]);

/**
 * Brings a flight's entries to what it costs now, in the caller's transaction
 * (the confirm, edit, cancel of the flights area, REST or a device's command):
 * when the flight's live entries (not reversals, not reversed) already equal
 * its charges, nothing is written, so a repeated or replayed confirm charges
 * once; otherwise every live entry is reversed and the charges are booked anew.
 * A free plan or billing switched off books nothing. Takes the company's write
 * lock (change number) before reading, so concurrent confirms are serialized.
 */
export async function settleFlightCharges(
  uow: UnitOfWork,
  companyId: string,
  flightId: string,
  byUserId: string | null,
): Promise<void> {
  const trx = uow.trx;
  const settings = await billingSettingsOf(trx, companyId);
  if (settings.plan === 'free' || !settings.billing_enabled) return;
  const f = await trx
    .selectFrom('flights as f')
    .leftJoin('flight_types as t', (j) =>
      j.onRef('t.id', '=', 'f.flight_type_id').onRef('t.company_id', '=', 'f.company_id'),
    )
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').onRef('a.company_id', '=', 'f.company_id'))
    .select([
      'f.id',
      'f.status',
      'f.date',
      'f.aircraft_id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.block_time',
      'f.flight_time',
      't.pic_flight_time',
      't.sic_flight_time',
      't.supervisor_flight_time',
      'a.registration',
    ])
    .where('f.company_id', '=', companyId)
    .where('f.id', '=', flightId)
    .executeTakeFirst();
  if (!f) return;
  await uow.changeNo(companyId, 'billing_accounts');
  const live = await liveFlightEntries(trx, companyId, flightId);
  if (f.status !== 'LANDED' && !live.length) return;

  const crew = [f.pic_id, f.sic_id, f.supervisor_id].filter((u): u is string => !!u);
  const billedRows = crew.length
    ? await trx
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', 'in', crew)
        .where('billing', '=', 1)
        .execute()
    : [];
  const rates = await ratesOf(trx, companyId);
  const seats: Seats | null = f.pic_flight_time
    ? { pic: f.pic_flight_time, sic: f.sic_flight_time ?? 'none', supervisor: f.supervisor_flight_time ?? 'none' }
    : null;
  const base = {
    flight: {
      status: f.status,
      aircraft_id: f.aircraft_id,
      pic_id: f.pic_id,
      sic_id: f.sic_id,
      supervisor_id: f.supervisor_id,
      block_time: Number(f.block_time),
      flight_time: Number(f.flight_time),
    },
    seats,
    billed: new Set(billedRows.map((r) => r.id)),
    aircraftRates: new Map(rates.filter((r) => r.kind === 'aircraft').map((r) => [r.target_id, Number(r.amount)])),
    instructorRates: new Map(rates.filter((r) => r.kind === 'instructor').map((r) => [r.target_id, Number(r.amount)])),
    basis: settings.billing_basis === 'flight' ? ('flight' as const) : ('block' as const),
    taxBp: taxBasisPoints(Number(settings.billing_tax)),
  };
  // Who pays is known without pools; the pools then exclude this flight's own live use (it is what gets reversed).
  const payer = flightCharges({ ...base, pools: [] }).userId;
  let pools: { aircraft_id: string | null; seconds: number }[] = [];
  if (payer) {
    pools = await packagePools(trx, companyId, payer);
    for (const e of live.filter((x) => x.user_id === payer && Number(x.package_seconds) !== 0)) {
      const p = pools.find((x) => x.aircraft_id === e.aircraft_id);
      if (p) p.seconds -= Number(e.package_seconds);
    }
  }
  const target = flightCharges({ ...base, pools });
  const unchanged =
    live.every((e) => e.user_id === target.userId) && sameCharges(live.map(lineKey), target.lines.map(lineKey));
  if (unchanged) return;

  const written: BillingEntriesTable[] = [];
  for (const userId of [...new Set(live.map((e) => e.user_id))]) {
    const rows = live
      .filter((e) => e.user_id === userId)
      .map((e) => reversalEntry(e, flightChangedDescription(f.date)));
    written.push(...(await appendEntries(uow, companyId, userId, byUserId, rows)));
  }
  if (target.userId && target.lines.length) {
    const rows: NewEntry[] = target.lines.map((l) => ({
      ...l,
      description: chargeLineDescription(l.description, f.registration ?? 'aircraft', f.date),
      flight_id: flightId,
      reverses_id: null,
      reference: null,
    }));
    written.push(...(await appendEntries(uow, companyId, target.userId, byUserId, rows)));
  }
  await announceEntries(uow, companyId, written);
}
