/**
 * The REST API's messages in the caller's language (issue 33): Accept-Language
 * when it names a supported language, else the user's `language`, else English.
 * Services throw English texts; the ones in the `errors` catalogue are translated
 * here on the way out. Codes and field names never change.
 */
import { idOfEnglish, type Locale, pickLocale, translator } from '@ops/shared/i18n/index';
import type { Request } from 'express';

export function requestLocale(req: Request): Locale {
  const header = req.headers['accept-language'];
  return pickLocale(typeof header === 'string' ? header : null, req.actor?.language ?? null);
}

/** An error body with its `message` in `locale` when the catalogue knows the text; otherwise unchanged. */
export function translateBody(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  if (locale === 'en' || typeof body.message !== 'string') return body;
  const id = idOfEnglish(body.message, 'errors');
  return id ? { ...body, message: translator(locale)(id) } : body;
}
