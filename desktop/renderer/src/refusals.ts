/**
 * Refusals in words: the codes of CONTRACT 5 (bookings), 7 (duty) and the
 * command outcomes as sentences a person reads, never the raw code. Pure.
 */
import type { CommandDoc } from '@ops/shared';

const SENTENCES: Record<string, string> = {
  CONFLICT_AIRCRAFT: 'The aircraft is already booked at that time.',
  CONFLICT_PILOT: 'The pilot already has a booking at that time.',
  CONFLICT_INSTRUCTOR: 'The instructor already has a booking at that time.',
  OUTSIDE_HOURS: 'That time is outside the operating hours of the base.',
  AIRCRAFT_BLOCKED: 'The aircraft is grounded or blocked by an open defect.',
  INSTRUCTOR_UNAVAILABLE: 'The instructor is not available then.',
  DOCUMENTS: "The pilot's documents (licence, medical or ratings) are missing or expired.",
  NOT_ALLOWED: 'You are not allowed to do this for that person or record.',
  PAST: 'A booking cannot start in the past.',
  HORIZON: 'That date is further ahead than bookings may be made.',
  DUTY_LIMIT: 'This would exceed the duty time limits.',
  FLIGHT_HOURS_LIMIT: 'This would exceed the flight hours limits.',
  FLIGHT_LOCKED: 'The flight is already dispatched or confirmed, so it can no longer be changed.',
  NOT_FOUND: 'The record no longer exists.',
  CONFLICT: 'Someone else changed this record first.',
  READINESS: 'The flight is not ready: a check the school blocks on failed (see the readiness lines).',
};

/** The human sentence for a code, or null for a code not known here. */
export const sentenceFor = (code: string | null | undefined): string | null =>
  code ? (SENTENCES[code] ?? null) : null;

const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$/;

/**
 * A refusal as one readable text: the server's message with any trailing raw
 * code taken off ("…(1 booking).CONFLICT_AIRCRAFT"), or the code's sentence
 * when the message is missing or is itself only a code.
 */
export function humanRefusal(message: string | null | undefined, code?: string | null): string {
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
  const sentence = sentenceFor(found);
  if (!text) return sentence ?? 'Refused by the server.';
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

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
export const offlineLine = (waiting: number): string =>
  waiting > 0 ? `Offline, ${waiting} change${waiting === 1 ? '' : 's'} waiting` : 'Offline, everything saved';
