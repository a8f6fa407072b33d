/**
 * Languages (issue 33): ICU messages through FormatJS, one catalogue for the
 * server, the shared rules and the renderer; locale negotiation; formatters.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { AREA_MESSAGES } from './catalogue.ts';

export const LOCALES = ['en', 'es', 'fr', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español', fr: 'Français', de: 'Deutsch' };

type Areas = typeof AREA_MESSAGES;
/** `<area>.<key>` of every English message: a typo is a type error. */
export type MessageId = {
  [A in keyof Areas & string]: `${A}.${keyof Areas[A]['en'] & string}`;
}[keyof Areas & string];
export type MessageValues = Record<string, string | number | Date | null | undefined>;
export type Translate = (id: MessageId, values?: MessageValues) => string;

export const isLocale = (v: unknown): v is Locale =>
  typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

/** A language tag (`es-ES`, `pt-BR`, `FR`) reduced to a supported locale, or null. */
export function localeOf(tag: string | null | undefined): Locale | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : null;
}

/** The supported locales of an Accept-Language header in the order of their q weights. */
function acceptedLocales(header: string): Locale[] {
  return header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
      return { locale: localeOf(tag), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x): x is { locale: Locale; q: number; i: number } => x.locale !== null && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.locale);
}

/** The request's language: Accept-Language when it names a supported one, else the user's, else the fallback. */
export function pickLocale(
  acceptLanguage: string | null | undefined,
  userLanguage: string | null | undefined,
  fallback: Locale = DEFAULT_LOCALE,
): Locale {
  const accepted = acceptLanguage ? acceptedLocales(acceptLanguage)[0] : undefined;
  return accepted ?? localeOf(userLanguage) ?? fallback;
}

const flat = new Map<Locale, Record<string, string>>();
/** The flat `{ id: message }` catalogue of a locale (what react-intl's IntlProvider takes). */
export function messagesOf(locale: Locale): Record<string, string> {
  let out = flat.get(locale);
  if (!out) {
    out = {};
    for (const [area, m] of Object.entries(AREA_MESSAGES))
      for (const [k, v] of Object.entries(m[locale] as Record<string, string>)) out[`${area}.${k}`] = v;
    flat.set(locale, out);
  }
  return out;
}

const cache = createIntlCache();
const intls = new Map<Locale, IntlShape<string>>();
function intlOf(locale: Locale): IntlShape<string> {
  let intl = intls.get(locale);
  if (!intl) {
    intl = createIntl({ locale, defaultLocale: DEFAULT_LOCALE, messages: messagesOf(locale) }, cache);
    intls.set(locale, intl);
  }
  return intl;
}

/** The message function of a locale (unknown locales get English). */
export function translator(locale: string | null | undefined): Translate {
  const intl = intlOf(localeOf(locale) ?? DEFAULT_LOCALE);
  const raw = messagesOf(intl.locale as Locale);
  return (id, values = {}) => {
    // A placeholder left out reads as nothing (mails' optional `{place}`), never as the raw pattern.
    const all: Record<string, string | number | Date> = {};
    for (const m of (raw[id] ?? '').matchAll(/\{(\w+)\}/g)) all[m[1]] = '';
    for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined) all[k] = v;
    return String(intl.formatMessage({ id }, all));
  };
}

/** The id of an English message text, for texts thrown as plain English (server errors). */
const byEnglish = new Map<string, MessageId>();
export function idOfEnglish(text: string, area: keyof Areas): MessageId | null {
  if (!byEnglish.size)
    for (const [a, m] of Object.entries(AREA_MESSAGES))
      for (const [k, v] of Object.entries(m.en)) byEnglish.set(`${a}\u0000${v}`, `${a}.${k}` as MessageId);
  return byEnglish.get(`${area}\u0000${text}`) ?? null;
}

export * from './format.ts';
