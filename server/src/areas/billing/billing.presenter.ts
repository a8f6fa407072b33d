import type { EntryKind } from '@ops/shared/rules/billing/charges';
import { fromCents, secondsToHours } from '@ops/shared/rules/billing/money';
import type { BillingAccountsTable, BillingEntriesTable, BillingRatesTable } from './billing.tables.ts';

/** CONTRACT 6 `Entry`: amounts in the company currency, hours as hours. */
export function presentEntry(e: BillingEntriesTable) {
  return {
    id: e.id,
    user_id: e.user_id,
    kind: e.kind as EntryKind,
    amount: fromCents(Number(e.amount)),
    tax: fromCents(Number(e.tax)),
    hours: secondsToHours(Number(e.seconds)),
    aircraft_id: e.aircraft_id,
    flight_id: e.flight_id,
    reverses_id: e.reverses_id,
    description: e.description,
    created: Number(e.created),
    created_by: e.created_by,
  };
}
export type EntryView = ReturnType<typeof presentEntry>;

/** CONTRACT 6 `Account`; a user without entries has an empty account in the company currency. */
export function presentAccount(
  userId: string,
  a: Pick<BillingAccountsTable, 'balance' | 'package_seconds' | 'currency'> | undefined,
  companyCurrency: string,
) {
  return {
    user_id: userId,
    balance: fromCents(Number(a?.balance ?? 0)),
    package_balance: secondsToHours(Number(a?.package_seconds ?? 0)),
    currency: a?.currency ?? companyCurrency,
  };
}

export function presentRate(r: BillingRatesTable) {
  return { id: r.id, kind: r.kind, target_id: r.target_id, amount: fromCents(Number(r.amount)) };
}
