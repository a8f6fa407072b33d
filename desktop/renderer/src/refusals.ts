/**
 * Refusals in words: the codes of CONTRACT 5 (bookings), 7 (duty) and the
 * command outcomes as sentences a person reads, never the raw code. Pure.
 */
import type { CommandDoc } from '@ops/shared';
import { type MessageId, type Translate, translator } from '@ops/shared/i18n/index';
import { renderText, ruleTextOf } from '@ops/shared/rules/readiness/text';

// The code→sentence mapping; the sentences are catalogue messages (shared/src/i18n/refusals).
const SENTENCES: Record<string, MessageId> = {
  CONFLICT_AIRCRAFT: 'refusals.CONFLICT_AIRCRAFT',
  CONFLICT_PILOT: 'refusals.CONFLICT_PILOT',
  CONFLICT_INSTRUCTOR: 'refusals.CONFLICT_INSTRUCTOR',
  OUTSIDE_HOURS: 'refusals.OUTSIDE_HOURS',
  AIRCRAFT_BLOCKED: 'refusals.AIRCRAFT_BLOCKED',
  INSTRUCTOR_UNAVAILABLE: 'refusals.INSTRUCTOR_UNAVAILABLE',
  DOCUMENTS: 'refusals.DOCUMENTS',
  NOT_ALLOWED: 'refusals.NOT_ALLOWED',
  PAST: 'refusals.PAST',
  HORIZON: 'refusals.HORIZON',
  DUTY_LIMIT: 'refusals.DUTY_LIMIT',
  FLIGHT_HOURS_LIMIT: 'refusals.FLIGHT_HOURS_LIMIT',
  FLIGHT_LOCKED: 'refusals.FLIGHT_LOCKED',
  NOT_FOUND: 'refusals.NOT_FOUND',
  CONFLICT: 'refusals.CONFLICT',
  READINESS: 'refusals.READINESS',
};

/** English unless a screen passes its `t` (useT): the functions stay pure. */
const english = translator('en');

/** The human sentence for a code, or null for a code not known here. */
export const sentenceFor = (code: string | null | undefined, t: Translate = english): string | null => {
  const id = code ? SENTENCES[code] : undefined;
  return id ? t(id) : null;
};

const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$/;

/**
 * A refusal as one readable text: the server's message with any trailing raw
 * code taken off ("…(1 booking).CONFLICT_AIRCRAFT"), or the code's sentence
 * when the message is missing or is itself only a code.
 */
export function humanRefusal(message: string | null | undefined, code?: string | null, t: Translate = english): string {
  let text = (message ?? '').trim();
  let found = code ?? null;
  const tail = /[.:\s]\s*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*$/.exec(text);
  if (tail) {
    found = found ?? tail[1];
    text = text
      .slice(0, tail.index + 1)
      .replace(/[:\s]+$/, '')
      .trim();
  }
  if (CODE.test(text)) {
    found = found ?? text;
    text = '';
  }
  const sentence = sentenceFor(found, t);
  if (!text) return sentence ?? t('refusals.refused');
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

/** A refusal's sentence as the server sent it (shared with the server, which words its `message` from it). */
export { ruleTextOf };

/**
 * A server refusal in the reader's language (issue 33): its `text` rendered
 * with `t` when it carries one this app knows (a newer server's ids fall back),
 * else the English message made readable (`humanRefusal`).
 */
export function refusalSentence(
  r: { message: string | null | undefined; code?: string | null; text?: unknown },
  t: Translate = english,
  locale = 'en',
): string {
  const text = ruleTextOf(r.text);
  return text ? renderText(t, text, locale) : humanRefusal(r.message, r.code, t);
}

/** A rejected command's reason in the reader's language: its `details.text` when the server sent one. */
export const commandRefusal = (
  cmd: Pick<CommandDoc, 'reason' | 'details'>,
  t: Translate = english,
  locale = 'en',
): string => refusalSentence({ message: cmd.reason, code: codeOf(cmd), text: cmd.details?.text }, t, locale);

/** The refusal code a rejected command carries in `details.code`, if any. */
export function codeOf(cmd: Pick<CommandDoc, 'details'>): string | null {
  const d = cmd.details;
  return d && typeof d === 'object' && typeof (d as { code?: unknown }).code === 'string'
    ? String((d as { code: string }).code)
    : null;
}

/**
 * Rejected commands that a later accepted command of the same kind has
 * superseded: the next successful sync of that kind of action retires the
 * older refusal, so its banner goes away by itself.
 */
export function supersededRejections(
  commands: readonly Pick<CommandDoc, 'id' | 'name' | 'status' | 'client_time'>[],
): Set<string> {
  const lastAccepted = new Map<string, number>();
  for (const c of commands)
    if (c.status === 'accepted') lastAccepted.set(c.name, Math.max(lastAccepted.get(c.name) ?? 0, c.client_time));
  const out = new Set<string>();
  for (const c of commands)
    if (c.status === 'rejected' && (lastAccepted.get(c.name) ?? 0) > c.client_time) out.add(c.id);
  return out;
}

/** The status bar's quiet offline line. */
export const offlineLine = (waiting: number, t: Translate = english): string =>
  waiting > 0 ? t('refusals.offlineWaiting', { count: waiting }) : t('refusals.offlineSaved');
