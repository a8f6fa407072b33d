/**
 * A rule's sentence as a message id and its values (issue 33), so the server,
 * the panel and an offline device can each show it in the reader's language.
 * The rule still writes its English sentence itself; the rule tests check that
 * the English catalogue renders the very same bytes.
 */
import { DateTime } from 'luxon';
import type { MessageId, Translate } from '../../i18n/index.ts';

/** One piece of a sentence: a message, plain values and dates (unix seconds). */
export interface TextPart {
  id: MessageId;
  values?: Record<string, string | number>;
  /** Shown as "d LLL yyyy" in the text's zone, months in the reader's language. */
  dates?: Record<string, number>;
}

export interface RuleText extends TextPart {
  /** Values that are lists of pieces, joined with "; " (missing certificates, items due, weather problems). */
  lists?: Record<string, TextPart[]>;
  /** The zone of the dates. */
  zone?: string;
}

/** The "d LLL yyyy" date the rules print ("25 Nov 2026"), in a locale. */
export const ruleDate = (at: number, zone: string, locale = 'en'): string =>
  DateTime.fromSeconds(at, { zone }).setLocale(locale).toFormat('d LLL yyyy');

function valuesOf(p: TextPart, zone: string, locale: string): Record<string, string | number> {
  const values: Record<string, string | number> = { ...p.values };
  for (const [k, at] of Object.entries(p.dates ?? {})) values[k] = ruleDate(at, zone, locale);
  return values;
}

/** The sentence in the language of `t` (`locale` names the months of its dates). */
export function renderText(t: Translate, text: RuleText, locale = 'en'): string {
  const zone = text.zone ?? 'UTC';
  const values = valuesOf(text, zone, locale);
  for (const [k, parts] of Object.entries(text.lists ?? {}))
    values[k] = parts.map((p) => t(p.id, valuesOf(p, zone, locale))).join('; ');
  return t(text.id, values);
}
