/**
 * A rule's sentence as a message id and its values (issue 33), so the server,
 * the panel and an offline device can each show it in the reader's language.
 * The rule still writes its English sentence itself; the rule tests check that
 * the English catalogue renders the very same bytes.
 */
import { DateTime } from 'luxon';
import { formatMoney, formatNumber, type MessageId, messagesOf, type Translate } from '../../i18n/index.ts';

/** An amount in cents with its currency code ("" when the account has none yet). */
export interface TextMoney {
  cents: number;
  currency: string;
}

/** One piece of a sentence: a message, plain values, dates, money and hours. */
export interface TextPart {
  id: MessageId;
  values?: Record<string, string | number>;
  /** Shown as "d LLL yyyy" in the text's zone, months in the reader's language. */
  dates?: Record<string, number>;
  /** Shown as "50.00 EUR" in English, through Intl currency in the other languages ("50,00 €"). */
  money?: Record<string, TextMoney>;
  /** Decimal hours, shown as "1.5 h" in English, with the language's decimal mark in the others ("1,5 h"). */
  hours?: Record<string, number>;
}

export interface RuleText extends TextPart {
  /** Values that are sentences of their own (a list of pieces, or one nested sentence), joined with "; " unless `joins` says otherwise. */
  lists?: Record<string, RuleText[]>;
  /** The separator of a list value ("; " when absent). */
  joins?: Record<string, string>;
  /** The zone of the dates (nested pieces use the outer one). */
  zone?: string;
}

/** The "d LLL yyyy" date the rules print ("25 Nov 2026"), in a locale. */
export const ruleDate = (at: number, zone: string, locale = 'en'): string =>
  DateTime.fromSeconds(at, { zone }).setLocale(locale).toFormat('d LLL yyyy');

/** The amount the rules print in English: "50.00 EUR" (what the API has always said). */
export const ruleMoney = (cents: number, currency: string): string => `${(cents / 100).toFixed(2)} ${currency}`;

/** The hours the rules print in English: "1.5 h" (one decimal at most). */
export const ruleHours = (h: number): string => `${Math.round(h * 10) / 10} h`;

const isEnglish = (locale: string) => locale.toLowerCase().startsWith('en');

function moneyIn(m: TextMoney, locale: string): string {
  if (isEnglish(locale)) return ruleMoney(m.cents, m.currency);
  // Intl only knows ISO codes; an account without a currency shows the bare amount.
  if (/^[A-Z]{3}$/.test(m.currency)) return formatMoney(m.cents / 100, m.currency, locale);
  return `${formatNumber(m.cents / 100, locale, 2, 2)}${m.currency ? ` ${m.currency}` : ''}`;
}

function hoursIn(h: number, locale: string): string {
  if (isEnglish(locale)) return ruleHours(h);
  return `${formatNumber(Math.round(h * 10) / 10, locale, 0, 1)} h`;
}

function valuesOf(p: TextPart, zone: string, locale: string): Record<string, string | number> {
  const values: Record<string, string | number> = { ...p.values };
  for (const [k, at] of Object.entries(p.dates ?? {})) values[k] = ruleDate(at, zone, locale);
  for (const [k, m] of Object.entries(p.money ?? {})) values[k] = moneyIn(m, locale);
  for (const [k, h] of Object.entries(p.hours ?? {})) values[k] = hoursIn(h, locale);
  return values;
}

function render(t: Translate, text: RuleText, zone: string, locale: string): string {
  const values = valuesOf(text, zone, locale);
  for (const [k, parts] of Object.entries(text.lists ?? {}))
    values[k] = parts.map((p) => render(t, p, zone, locale)).join(text.joins?.[k] ?? '; ');
  return t(text.id, values);
}

/** The sentence in the language of `t` (`locale` names the months of its dates and formats its numbers). */
export function renderText(t: Translate, text: RuleText, locale = 'en'): string {
  return render(t, text, text.zone ?? 'UTC', locale);
}

/**
 * A sentence received as data (a server answer, a stored command) when every id in it is one this
 * catalogue knows; null otherwise, so the reader falls back to the English `message`.
 */
export function ruleTextOf(v: unknown): RuleText | null {
  const known = messagesOf('en');
  const ok = (x: unknown, depth: number): boolean => {
    if (!x || typeof x !== 'object' || depth > 4) return false;
    const p = x as { id?: unknown; lists?: unknown };
    if (typeof p.id !== 'string' || !(p.id in known)) return false;
    if (p.lists === undefined) return true;
    if (!p.lists || typeof p.lists !== 'object') return false;
    return Object.values(p.lists).every((l) => Array.isArray(l) && l.every((y) => ok(y, depth + 1)));
  };
  return ok(v, 0) ? (v as RuleText) : null;
}
