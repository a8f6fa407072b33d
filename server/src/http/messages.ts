/**
 * The REST API's messages in the caller's language (issue 33): Accept-Language
 * when it names a supported language, else the user's `language`, else English.
 * Services throw English texts; the ones in the `errors` catalogue are translated
 * here on the way out. Codes and field names never change.
 */
import {
  idOfEnglish,
  type Locale,
  type MessageId,
  type MessageValues,
  pickLocale,
  translator,
} from '@ops/shared/i18n/index';
import type { Request } from 'express';

export function requestLocale(req: Request): Locale {
  const header = req.headers['accept-language'];
  return pickLocale(typeof header === 'string' ? header : null, req.actor?.language ?? null);
}

/** An error body with its `message` in `locale` when the catalogue knows the text; otherwise unchanged. */
export function translateBody(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  const said = (body as { [SAID]?: Said })[SAID];
  if (said) return { ...body, message: translator(locale)(said.id, said.values) };
  if (locale === 'en' || typeof body.message !== 'string') return body;
  const text = body.message;
  let id: MessageId | null = null;
  for (const area of SERVER_TEXT_AREAS) id ??= idOfEnglish(text, area);
  return id ? { ...body, message: translator(locale)(id) } : body;
}

// Issue 33 leftovers: areas whose catalogues also hold the texts their services answer with.
const SERVER_TEXT_AREAS = ['errors', 'safety-reports', 'trainings', 'reports', 'pilots'] as const;

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
