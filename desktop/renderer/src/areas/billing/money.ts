/**
 * Billing view logic (CONTRACT 6), pure: money in the company currency, the
 * answers of the billing endpoints as zod shapes, amounts typed by a person,
 * the sentences the confirm dialogs show, and the order of the accounts list.
 * Money is added up in integer cents: the API's amounts have at most two
 * decimals, and 0.1 + 0.2 must stay 0.30 on screen too.
 */
import { formatNumber, type Translate, translator } from '@ops/shared/i18n/index';
import { z } from 'zod';

/** English, for callers (and tests) that pass no language: the screens pass their `t`. */
const EN: Translate = translator('en');

// Entry kinds and their names live with the billing rule (the server's statement PDF names them too).
export { ENTRY_KINDS, type EntryKind, KIND_LABELS, kindLabel } from '@ops/shared/rules/billing/charges';

const zNum = z.coerce.number();
const zNullableNum = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v)));
const zNullableStr = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const ZEntry = z.object({
  id: z.string(),
  user_id: z.string(),
  kind: z.string(),
  amount: zNum,
  tax: zNullableNum.transform((v) => v ?? 0),
  hours: zNullableNum,
  aircraft_id: zNullableStr,
  flight_id: zNullableStr,
  reverses_id: zNullableStr,
  description: zNullableStr,
  created: zNum,
  created_by: zNullableStr,
});
export type Entry = z.output<typeof ZEntry>;

export const ZAccount = z.object({
  user_id: z.string(),
  balance: zNum,
  package_balance: zNullableNum.transform((v) => v ?? 0),
  currency: z.string(),
});
export type Account = z.output<typeof ZAccount>;

export const ZPaginate = z.object({
  page: zNum,
  pageCount: zNum,
  count: zNum,
  prevPage: z.boolean(),
  nextPage: z.boolean(),
});

/** `GET /billing/account.json` and `/billing/account/{userId}.json`. */
export const ZAccountPage = z.object({
  Account: ZAccount,
  entries: z.array(z.union([z.object({ Entry: ZEntry }).transform((r) => r.Entry), ZEntry])),
  paginate: ZPaginate.optional(),
});
export type AccountPage = z.output<typeof ZAccountPage>;

/** GET /billing/accounts.json: every balance of the company, most negative first. */
export const ZAccountsList = z.object({
  accounts: z.array(
    z.object({
      Account: ZAccount,
      User: z.object({ id: z.string(), name: z.string(), surname: z.string() }),
    }),
  ),
  paginate: ZPaginate,
});

export const RATE_KINDS = ['aircraft', 'instructor'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export const ZRate = z.object({ id: z.string(), kind: z.enum(RATE_KINDS), target_id: z.string(), amount: zNum });
export type Rate = z.output<typeof ZRate>;

/** `GET /billing/rates.json`. */
export const ZRates = z.object({
  rates: z.array(z.union([z.object({ Rate: ZRate }).transform((r) => r.Rate), ZRate])),
  currency: z.string(),
  basis: z.string().nullish(),
});
export type Rates = z.output<typeof ZRates>;

/**
 * The account replicated to this device, in the shapes a sync document may
 * carry it: the REST answer under `data` (`{Account, entries}`), or the
 * account's fields on the document itself with `entries` beside them.
 * Null when the document is not an account.
 */
export function accountOfDoc(
  doc: unknown,
  fallbackCurrency = '',
): { account: Account; entries: Entry[]; updated: number | null } | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const d = doc as Record<string, unknown>;
  const inner = typeof d.data === 'object' && d.data !== null ? (d.data as Record<string, unknown>) : d;
  const rawAccount = typeof inner.Account === 'object' && inner.Account !== null ? inner.Account : inner;
  const account = ZAccount.safeParse({
    user_id: d.user_id,
    currency: d.currency ?? fallbackCurrency,
    ...(rawAccount as object),
  });
  if (!account.success) return null;
  const list = Array.isArray(inner.entries) ? inner.entries : Array.isArray(d.entries) ? d.entries : [];
  const entries: Entry[] = [];
  for (const raw of list) {
    const r = z.union([z.object({ Entry: ZEntry }).transform((x) => x.Entry), ZEntry]).safeParse(raw);
    if (r.success) entries.push(r.data);
  }
  entries.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  const updated = typeof d.updated === 'number' ? d.updated : typeof d.modified === 'number' ? d.modified : null;
  return { account: account.data, entries, updated };
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `amount` in `currency` (ISO 4217), e.g. -€120.50; an unknown code still shows the number and the code. */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        // Spanish leaves 4-digit amounts ungrouped by default; the issue asks for 1.234,50 €.
        useGrouping: 'always',
      });
    } catch {
      f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      // An invalid code: the plain number, the code added by the caller below.
      formatters.set(key, f);
      return `${f.format(amount)} ${currency}`;
    }
    formatters.set(key, f);
  }
  // `-0` would read "-€0.00".
  return f.format(amount === 0 ? 0 : amount);
}

/** Hours with one decimal (package hours), e.g. "10.0 h", "10,0 h" in Spanish. */
export const formatHours = (hours: number | null | undefined, t: Translate = EN, locale = 'en'): string =>
  hours === null || hours === undefined
    ? '—'
    : t('billing.hoursUnit', { hours: formatNumber(Math.round(hours * 10) / 10, locale, 1, 1) });

export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
/** Sum of amounts, exact to the cent. */
export const sumMoney = (amounts: readonly number[]): number => fromCents(amounts.reduce((s, a) => s + toCents(a), 0));

/**
 * An amount a person typed: digits with at most two decimals, a dot or a
 * comma as decimal mark, an optional minus when `signed`. Answers the number
 * or a sentence saying what is wrong.
 */
export function parseAmount(
  text: string,
  opts: { signed?: boolean; allowZero?: boolean } = {},
  t: Translate = EN,
): { ok: true; value: number } | { ok: false; message: string } {
  const typed = text.trim().replace(/\s/g, '');
  if (!typed) return { ok: false, message: t('billing.enterAmount') };
  const m = /^([+-]?)(\d+)(?:[.,](\d*))?$/.exec(typed);
  if (!m) return { ok: false, message: t('billing.enterNumber') };
  if (m[1] === '-' && !opts.signed) return { ok: false, message: t('billing.noMinus') };
  if ((m[3] ?? '').length > 2) return { ok: false, message: t('billing.twoDecimals') };
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > 100_000_000_00) return { ok: false, message: t('billing.tooLarge') };
  if (cents === 0 && !opts.allowZero) return { ok: false, message: t('billing.notZero') };
  return { ok: true, value: fromCents(m[1] === '-' ? -cents : cents) };
}

/** Hours of a package: more than zero, at most two decimals (0.25 h is a quarter of an hour). */
export function parseHours(
  text: string,
  t: Translate = EN,
): { ok: true; value: number } | { ok: false; message: string } {
  const typed = text.trim().replace(',', '.');
  if (!typed) return { ok: false, message: t('billing.enterHours') };
  if (!/^\d+(\.\d{1,2})?$/.test(typed)) return { ok: false, message: t('billing.hoursSuch') };
  const v = Number(typed);
  if (v <= 0) return { ok: false, message: t('billing.needsHours') };
  if (v > 10_000) return { ok: false, message: t('billing.maxHours') };
  return { ok: true, value: v };
}

export type AddKind = 'payment' | 'package' | 'adjustment';

export interface EntryDraft {
  kind: AddKind;
  amount: number;
  hours?: number;
  aircraftLabel?: string | null;
}

/**
 * What an entry does to an account, in one sentence for the confirm dialog:
 * the booked amount (a package's price is a charge) and the balance after.
 */
export function addEffect(
  draft: EntryDraft,
  who: string,
  account: Pick<Account, 'balance' | 'package_balance' | 'currency'>,
  locale?: string,
  t: Translate = EN,
): string {
  const money = (n: number) => formatMoney(n, account.currency, locale);
  const hrs = (n: number) => formatHours(n, t, locale);
  const booked = draft.kind === 'package' ? -Math.abs(draft.amount) : draft.amount;
  const after = fromCents(toCents(account.balance) + toCents(booked));
  const balance = { who, from: money(account.balance), to: money(after) };
  if (draft.kind === 'payment') return t('billing.effectPayment', { ...balance, amount: money(draft.amount) });
  if (draft.kind === 'adjustment')
    return t('billing.effectAdjustment', {
      ...balance,
      amount: money(draft.amount),
      sign: draft.amount < 0 ? 'charge' : 'credit',
    });
  const hours = draft.hours ?? 0;
  const pkg = {
    ...balance,
    hours: hrs(hours),
    amount: money(Math.abs(draft.amount)),
    hoursFrom: hrs(account.package_balance),
    hoursTo: hrs(account.package_balance + hours),
  };
  return draft.aircraftLabel
    ? t('billing.effectPackage', { ...pkg, aircraft: draft.aircraftLabel })
    : t('billing.effectPackageAny', pkg);
}

/** What reversing an entry does: the negated amount and hours, and the balance after. */
export function reverseEffect(
  entry: Pick<Entry, 'kind' | 'amount' | 'hours'>,
  who: string,
  account: Pick<Account, 'balance' | 'package_balance' | 'currency'>,
  locale?: string,
  t: Translate = EN,
): string {
  const money = (n: number) => formatMoney(n, account.currency, locale);
  const after = fromCents(toCents(account.balance) - toCents(entry.amount));
  const values = {
    who,
    kind: entry.kind,
    amount: money(-entry.amount),
    original: money(entry.amount),
    from: money(account.balance),
    to: money(after),
  };
  if (!entry.hours) return t('billing.effectReverse', values);
  return t('billing.effectReverseHours', {
    ...values,
    hoursFrom: formatHours(account.package_balance, t, locale),
    hoursTo: formatHours(account.package_balance - entry.hours, t, locale),
  });
}

/** Why an entry cannot be reversed (a reversal, or one already reversed), or null when it can. */
export function reverseRefusal(
  entry: Pick<Entry, 'id' | 'kind'>,
  reversedIds: ReadonlySet<string>,
  t: Translate = EN,
): string | null {
  if (entry.kind === 'reversal') return t('billing.cannotReverseReversal');
  if (reversedIds.has(entry.id)) return t('billing.alreadyReversed');
  return null;
}

export interface BalanceRow {
  user_id: string;
  name: string;
  balance: number;
  package_balance: number;
}

/** Most negative balance first (who owes most), then by name. */
export function byBalance(rows: readonly BalanceRow[]): BalanceRow[] {
  return [...rows].sort(
    (a, b) =>
      toCents(a.balance) - toCents(b.balance) || a.name.localeCompare(b.name) || (a.user_id < b.user_id ? -1 : 1),
  );
}

/** The last `count` months `YYYY-MM`, newest first, from the month of `today` (`YYYY-MM-DD`, company zone). */
export function recentMonths(today: string, count = 12): string[] {
  const m = /^(\d{4})-(\d{2})/.exec(today);
  if (!m) return [];
  let y = Number(m[1]);
  let mo = Number(m[2]);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(`${y}-${String(mo).padStart(2, '0')}`);
    mo -= 1;
    if (mo === 0) {
      mo = 12;
      y -= 1;
    }
  }
  return out;
}

/** "November 2026" for `2026-11`. */
export function monthLabel(month: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 15)),
  );
}

/**
 * A refused or failed call as a sentence for the screen. The server's own
 * message is kept when it is a sentence; bare status words ("Forbidden") and
 * codes become what they mean here.
 */
export function refusalSentence(status: number, message: string, t: Translate = EN): string {
  const bare = !message || /^HTTP \d+$/.test(message) || /^[A-Z][a-z]*( [A-Za-z]+){0,2}$/.test(message);
  if (!bare) return /[.!?]$/.test(message) ? message : `${message}.`;
  if (status === 0) return t('billing.unreachable');
  if (status === 401) return t('billing.sessionEnded');
  if (status === 403) return t('billing.forbidden');
  if (status === 404) return t('billing.notFound');
  if (status === 400) return t('billing.badValues');
  if (status >= 500) return t('billing.serverFailed');
  return t('billing.refusedWhy', { message: message || `HTTP ${status}` });
}
