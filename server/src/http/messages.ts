/**
 * The REST API's messages in the caller's language (issue 33): Accept-Language
 * when it names a supported language, else the user's `language` (an API key
 * speaks as its user), else English. Services throw or answer English; every
 * JSON body with a `message` passes `localize` on its way out (the router's
 * answers, `reply`, the error handler), so no endpoint can forget it. Only
 * `message` changes; codes, field names and `text` never do.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { formMessage } from '@ops/shared/forms/messages';
import {
  idOfEnglish,
  type Locale,
  type MessageId,
  type MessageValues,
  pickLocale,
  translator,
} from '@ops/shared/i18n/index';
import { renderText, ruleTextOf } from '@ops/shared/rules/readiness/text';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { errorsMessage, type FieldErrors } from './errors.ts';

export function requestLocale(req: Request): Locale {
  const header = req.headers['accept-language'];
  return pickLocale(typeof header === 'string' ? header : null, req.actor?.language ?? null);
}

/**
 * The language zod words its own issues in ("Invalid input: expected string…"): a route
 * runs its validation and handler inside `inLanguage(requestLocale(req))`, so every
 * parse of the request, the router's and a service's own, answers in the caller's
 * language with zod's locales; outside one (jobs, stored command refusals) English.
 * Texts a schema gives itself ('Required') stay English there and are translated on
 * the way out (`translateBody`, through the forms catalogue).
 */
const zodLanguage = new AsyncLocalStorage<Locale>();
const ZOD_LOCALES: Record<Locale, ReturnType<typeof z.locales.en>> = {
  en: z.locales.en(),
  es: z.locales.es(),
  fr: z.locales.fr(),
  de: z.locales.de(),
};
z.config({ localeError: (issue) => ZOD_LOCALES[zodLanguage.getStore() ?? 'en'].localeError(issue) });
/**
 * English with no language set around it needs no store (`getStore() ?? 'en'`): an AsyncLocalStorage that never
 * runs leaves Node's promise hooks off, which every promise of every request otherwise paid (issue 34 item 5).
 */
export const inLanguage = <T>(locale: Locale, run: () => T): T =>
  locale === 'en' && zodLanguage.getStore() === undefined ? run() : zodLanguage.run(locale, run);

const FIELD_ERROR_KEYS = ['errors', 'validation'] as const;
const isFieldErrors = (v: unknown): v is FieldErrors =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.values(v).every((list) => Array.isArray(list) && list.every((m) => typeof m === 'string'));

/**
 * The field texts of a 400's `errors`/`validation` in `locale` (field keys unchanged); a
 * `message` that listed them (`errorsMessage`) is listed again from the translated texts.
 */
function translateFieldErrors(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  const t = translator(locale);
  let out = body;
  for (const key of FIELD_ERROR_KEYS) {
    const errors = body[key];
    if (!isFieldErrors(errors)) continue;
    const worded: FieldErrors = Object.fromEntries(
      Object.entries(errors).map(([field, list]) => [field, list.map((m) => formMessage(m, t))]),
    );
    out = { ...out, [key]: worded };
    if (body.message === errorsMessage(errors)) out.message = errorsMessage(worded);
  }
  return out;
}

/**
 * Readiness lines with each `message` and `fix` worded in `locale` from its `text`/`fix_text`: the lines of a
 * READINESS refusal (`readiness`) and the readiness answers' `lines` (which have no `message` to localize).
 */
export function wordReadinessLines<T>(lines: readonly T[], locale: Locale): T[] {
  if (locale === 'en') return [...lines];
  const t = translator(locale);
  return lines.map((line) => {
    if (!line || typeof line !== 'object') return line;
    const l = line as Record<string, unknown>;
    const text = typeof l.message === 'string' ? ruleTextOf(l.text) : null;
    const fix = typeof l.fix === 'string' ? ruleTextOf(l.fix_text) : null;
    return {
      ...l,
      ...(text ? { message: renderText(t, text, locale) } : {}),
      ...(fix ? { fix: renderText(t, fix, locale) } : {}),
    } as T;
  });
}

function translateReadiness(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  return Array.isArray(body.readiness) ? { ...body, readiness: wordReadinessLines(body.readiness, locale) } : body;
}

/**
 * A body in `locale`, and the language its `message` is now in: `locale` when the
 * message was worded there, English when the catalogue does not know the text.
 * A `said()` message, then a refusal's `text` (message id and values), then an
 * English text the catalogue holds as is. Field errors follow `locale` too.
 */
export function translateBody(
  body: Record<string, unknown>,
  locale: Locale,
): { body: Record<string, unknown>; language: Locale } {
  if (locale === 'en') return translateMessage(body, locale);
  const fields = translateReadiness(translateFieldErrors(body, locale), locale);
  const out = translateMessage(fields, locale);
  // A message that only lists field errors is in `locale` once they are.
  return fields.message !== body.message ? { body: out.body, language: locale } : out;
}

function translateMessage(
  body: Record<string, unknown>,
  locale: Locale,
): { body: Record<string, unknown>; language: Locale } {
  const said = (body as { [SAID]?: Said })[SAID];
  if (said) return { body: { ...body, message: translator(locale)(said.id, said.values) }, language: locale };
  if (locale === 'en' || typeof body.message !== 'string') return { body, language: 'en' };
  const text = ruleTextOf(body.text);
  if (text) return { body: { ...body, message: renderText(translator(locale), text, locale) }, language: locale };
  let id: MessageId | null = null;
  for (const area of SERVER_TEXT_AREAS) id ??= idOfEnglish(body.message, area);
  return id ? { body: { ...body, message: translator(locale)(id) }, language: locale } : { body, language: 'en' };
}

/** `body` in the request's language with `Content-Language` naming it; a body without a `message` is unchanged. */
export function localize(req: Request, res: Response, body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.message !== 'string') return body;
  const out = translateBody(body, requestLocale(req));
  res.setHeader('Content-Language', out.language);
  return out.body;
}

// Areas whose catalogues hold texts services answer with as is (`errors` most; a few success and field texts the
// screens share: "Base saved", "User deleted", "Password changed", "The addresses do not match").
const SERVER_TEXT_AREAS = [
  'errors',
  'safety-reports',
  'trainings',
  'reports',
  'pilots',
  'bases',
  'users',
  'profile',
  'forms',
] as const;

/** The catalogue message a body's English `message` came from (a symbol key: JSON never shows it). */
const SAID = Symbol('said');
interface Said {
  id: MessageId;
  values?: MessageValues;
}

/**
 * `{ message }` in English from the catalogue, remembering the id and values so
 * `translateBody` answers in the caller's language (texts with placeholders,
 * which the English lookup cannot find). Spread it into an error or answer body.
 */
export function said(id: MessageId, values?: MessageValues): { message: string } {
  return { message: translator('en')(id, values), [SAID]: { id, values } } as { message: string };
}

/** The English text of a catalogue message a service throws as is; `translateBody` finds it by that text. */
export const english = (id: MessageId, values?: MessageValues): string => translator('en')(id, values);
