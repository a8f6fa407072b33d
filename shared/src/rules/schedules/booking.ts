/**
 * Scheduling (issue 20, CONTRACT 5): the pure rules of a booking, shared by the
 * server (which decides under the company's write lock) and offline clients
 * (which show the same answer before the server confirms it).
 */
import type { Translate } from '../../i18n/index.ts';
import type { DatedDayHours } from '../company/operating-hours.ts';
import type { RuleText, TextPart } from '../readiness/text.ts';
import { isSelfBooker, mayBook } from './policy.ts';

export const BOOKING_CODES = [
  'CONFLICT_AIRCRAFT',
  'CONFLICT_PILOT',
  'CONFLICT_INSTRUCTOR',
  'OUTSIDE_HOURS',
  'AIRCRAFT_BLOCKED',
  'INSTRUCTOR_UNAVAILABLE',
  'DOCUMENTS',
  'NOT_ALLOWED',
  'FLIGHT_LOCKED',
  // CONTRACT 5: a start in the past, or beyond the company's booking horizon (rules/schedules/sanity.ts).
  'PAST',
  'HORIZON',
  // CONTRACT 7: duty and flight-time limits (shared/src/rules/duty).
  'DUTY_LIMIT',
  'FLIGHT_HOURS_LIMIT',
  // Issue 31: a readiness check the company blocks on (shared/src/rules/readiness).
  'READINESS',
] as const;
export type BookingCode = (typeof BOOKING_CODES)[number];

/** Stored booking states. A cancelled booking keeps its row (and its CANCELED flight) for history. */
export const BOOKING_STATUSES = ['BOOKED', 'CANCELED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The longest booking (a week-long cross-country rental); also bounds the overlap search. */
export const MAX_BOOKING_SECONDS = 7 * 86_400;
/** Bookings start and end on the 5-minute grid. */
export const BOOKING_GRID_SECONDS = 300;

/** Classifications that put a person in an instructor's seat (Part B 2.6). */
export const INSTRUCTOR_CLASSIFICATIONS: readonly string[] = ['fi', 'cri', 'iri', 'fifi', 'sfi', 'tri', 'exa', 'sup'];

export interface BookingSpan {
  start: number;
  end: number;
}

export interface BookingLike extends BookingSpan {
  id: string;
  aircraft_id: string;
  pilot_id: string;
  instructor_id: string | null;
}

/** Half-open intervals: a booking ending exactly when another starts does not conflict (CONTRACT 5). */
export const spansOverlap = (a: BookingSpan, b: BookingSpan): boolean => a.start < b.end && b.start < a.end;

export interface ConflictResult<B extends BookingLike> {
  code: 'CONFLICT_AIRCRAFT' | 'CONFLICT_PILOT' | 'CONFLICT_INSTRUCTOR';
  message: string;
  text: RuleText;
  conflicts: B[];
}

/**
 * Rule 1: the first resource clash, checked aircraft, then pilot, then
 * instructor (a person is one resource whatever seat: a pilot who is also
 * instructing elsewhere clashes). Returns every booking competing for that
 * resource, by start; null when the candidate fits.
 */
export function findConflict<B extends BookingLike>(
  candidate: BookingLike,
  existing: readonly B[],
): ConflictResult<B> | null {
  const live = existing
    .filter((b) => b.id !== candidate.id && spansOverlap(b, candidate))
    .sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : 1));
  const people = (b: BookingLike) => [b.pilot_id, b.instructor_id].filter((x): x is string => !!x);
  const aircraft = live.filter((b) => b.aircraft_id === candidate.aircraft_id);
  if (aircraft.length)
    return {
      code: 'CONFLICT_AIRCRAFT',
      message: `The aircraft is already booked at that time (${aircraft.length} booking${aircraft.length > 1 ? 's' : ''}).`,
      text: { id: 'schedules.rConflictAircraft', values: { count: aircraft.length } },
      conflicts: aircraft,
    };
  const pilot = live.filter((b) => people(b).includes(candidate.pilot_id));
  if (pilot.length)
    return {
      code: 'CONFLICT_PILOT',
      message: 'The pilot already has a booking at that time.',
      text: { id: 'refusals.CONFLICT_PILOT' },
      conflicts: pilot,
    };
  if (candidate.instructor_id) {
    const instructor = live.filter((b) => people(b).includes(candidate.instructor_id as string));
    if (instructor.length)
      return {
        code: 'CONFLICT_INSTRUCTOR',
        message: 'The instructor already has a booking at that time.',
        text: { id: 'refusals.CONFLICT_INSTRUCTOR' },
        conflicts: instructor,
      };
  }
  return null;
}

/** Sanity of a span before any rule: positive, on the grid, not longer than a week. Null when fine. */
export function spanProblem(span: BookingSpan): string | null {
  if (!(span.end > span.start)) return 'The booking must end after it starts.';
  if (span.end - span.start > MAX_BOOKING_SECONDS) return 'A booking may last at most 7 days.';
  if (span.start % BOOKING_GRID_SECONDS !== 0 || span.end % BOOKING_GRID_SECONDS !== 0)
    return 'Bookings start and end on a 5-minute mark.';
  return null;
}

/**
 * Rule 2 (hours): the whole span lies inside open windows of the resolved days.
 * Windows that touch (one ends when the next starts, across midnight too) join.
 */
export function insideHours(days: readonly DatedDayHours[], span: BookingSpan): boolean {
  const windows = days
    .flatMap((d) => d.windows.map((w) => ({ start: w.start, end: w.end })))
    .sort((a, b) => a.start - b.start);
  let reach = span.start;
  for (const w of windows) {
    if (w.start > reach) break;
    if (w.end > reach) reach = w.end;
    if (reach >= span.end) return true;
  }
  return reach >= span.end;
}

export interface SelfBookingInput {
  role: number;
  actorId: string;
  pilotId: string;
  selfSchedule: boolean;
  typeBookable: boolean;
}

export interface RuleRefusal {
  code: BookingCode;
  /** English, as the API has always said it. */
  message: string;
  /** `message` as a message id and values, for a reader of another language (issue 33). */
  text: RuleText | null;
}

/** A refusal whose sentence is one catalogue message without values: the English text comes from the catalogue id. */
const fixed = (code: BookingCode, message: string, id: TextPart['id']): RuleRefusal => ({
  code,
  message,
  text: { id },
});

/** Rule 2 (who): a self-booker needs `self_schedule`, books only themself, only bookable flight types. */
export function selfBookingRefusal(i: SelfBookingInput): RuleRefusal | null {
  if (!mayBook(i.role)) return fixed('NOT_ALLOWED', 'Your role cannot book aircraft.', 'schedules.rRoleCannotBook');
  if (!isSelfBooker(i.role)) return null;
  if (!i.selfSchedule)
    return fixed(
      'NOT_ALLOWED',
      'Self-booking is not enabled in your company; ask the office to book for you.',
      'schedules.rSelfOff',
    );
  if (i.pilotId !== i.actorId)
    return fixed('NOT_ALLOWED', 'You can only book yourself as the pilot.', 'schedules.rOnlyYourself');
  if (!i.typeBookable) return fixed('NOT_ALLOWED', 'This flight type cannot be self-booked.', 'schedules.rTypeNotSelf');
  return null;
}

export interface DocumentsInput {
  selfBooking: boolean;
  requirePicDocs: boolean;
  allowNoDocs: boolean;
  blockWithoutDocs: boolean;
  /** PIC certificate types required by the flight type and missing or invalid at the booking time. */
  missing: readonly string[];
}

export type DocumentsDecision =
  | { ok: true; warning: string | null }
  | { ok: false; code: 'DOCUMENTS'; message: string; text: RuleText };

/**
 * Rule 2 (documents), with the spec's compliance note (Part B 4.5): a
 * self-booking is refused when `require_pic_docs` is on unless
 * `schedule_self_allow_nodocs` lets it through with a warning; staff bookings
 * are governed by `require_pic_docs` with `block_pic_without_docs`, which also
 * always blocks self-bookings.
 */
export function documentsDecision(i: DocumentsInput): DocumentsDecision {
  if (!i.requirePicDocs || i.missing.length === 0) return { ok: true, warning: null };
  const what = `The PIC lacks valid required certificates: ${i.missing.join(', ')}.`;
  const text: RuleText = { id: 'schedules.rDocuments', values: { types: i.missing.join(', ') } };
  if (i.blockWithoutDocs) return { ok: false, code: 'DOCUMENTS', message: what, text };
  if (i.selfBooking && !i.allowNoDocs) return { ok: false, code: 'DOCUMENTS', message: what, text };
  return { ok: true, warning: what };
}

export interface DutyEntry {
  start: number | null;
  end: number | null;
  type: string;
}

/** Rule 3: an instructor is unavailable when a dated OFF or REST entry overlaps the span. */
export function instructorUnavailable(entries: readonly DutyEntry[], span: BookingSpan): DutyEntry | null {
  return (
    entries.find(
      (e) =>
        (e.type === 'OFF' || e.type === 'REST') &&
        e.start !== null &&
        e.end !== null &&
        spansOverlap({ start: e.start, end: e.end }, span),
    ) ?? null
  );
}

export interface TimedMelItem {
  label: string;
  /** `label` as a message (melItemText), so a refusal naming the item reads in any language. */
  labelText?: TextPart;
  /** Status at the booking's start. */
  expiredAtStart: boolean;
  /** Time deadline (unix), null for counters or none. */
  expires: number | null;
}

/** Rule 3: an item expired at the start, or an open item expiring before the end, blocks the aircraft. */
export function aircraftBlockedFor(items: readonly TimedMelItem[], span: BookingSpan): TimedMelItem | null {
  return items.find((i) => i.expiredAtStart) ?? items.find((i) => i.expires !== null && i.expires < span.end) ?? null;
}

/** The words of an AIRCRAFT_BLOCKED refusal (server and offline device say the same). */
export function aircraftBlockedMessage(registration: string, item: TimedMelItem, t?: Translate): string {
  // `t`: the reader's language (the device, with a label made with the same `t`); else the server's English.
  if (t)
    return t('schedules.melBlocked', {
      registration,
      label: item.label,
      when: item.expiredAtStart ? 'start' : 'end',
    });
  return `${registration} cannot be booked: ${item.label} ${item.expiredAtStart ? 'is expired at the start' : 'expires before the end'}.`;
}

/** `aircraftBlockedMessage` as a message id and values (issue 33); an item without `labelText` is named as written. */
export function aircraftBlockedText(registration: string, item: TimedMelItem): RuleText {
  return {
    id: 'schedules.melBlocked',
    values: { registration, when: item.expiredAtStart ? 'start' : 'end' },
    lists: { label: [item.labelText ?? { id: 'refusals.asIs', values: { text: item.label } }] },
  };
}

/** `melItemLabel` as a message id and values. */
export const melItemText = (i: Parameters<typeof melItemLabel>[0]): TextPart => ({
  id: 'schedules.melLabel',
  values: { type: i.type, ata: i.ata_chapter || 'none', category: i.category || 'none', title: i.title },
});

/** The label of an open MEL/CDL item in a refusal (type, ATA chapter, category, title). */
export function melItemLabel(
  i: {
    type: string;
    ata_chapter: string | null;
    category: string | null;
    title: string;
  },
  t?: Translate,
): string {
  if (t)
    return t('schedules.melLabel', {
      type: i.type,
      ata: i.ata_chapter || 'none',
      category: i.category || 'none',
      title: i.title,
    });
  return `${i.type} item${i.ata_chapter ? ` ${i.ata_chapter}` : ''}${i.category ? ` (category ${i.category})` : ''}: ${i.title}`;
}

/**
 * Availability with rule 3: from which instant on (at or after `from`) the
 * aircraft cannot be booked, as `aircraftBlockedFor` decides, and by which
 * item. A span ending at or before `at` still fits; null when nothing blocks.
 * `items` carry their status at `from`.
 */
export function blockedFrom(items: readonly TimedMelItem[], from: number): { at: number; item: TimedMelItem } | null {
  const expired = items.find((i) => i.expiredAtStart);
  if (expired) return { at: from, item: expired };
  let first: TimedMelItem | null = null;
  for (const i of items) if (i.expires !== null && (first === null || i.expires < (first.expires as number))) first = i;
  return first ? { at: Math.max(from, first.expires as number), item: first } : null;
}

export interface FlightTypeSeats {
  pic_flight_time: string;
  sic_flight_time: string;
  supervisor_flight_time: string;
}

/**
 * Rule 4 (seats): the instructor takes the type's instructor seat: PIC when
 * the PIC time is instructional (fi, exa...; the pilot then sits SIC),
 * otherwise the supervisor seat when the type has one. A type without an
 * instructor seat puts only the pilot on the flight.
 */
export function seatsFor(
  type: FlightTypeSeats,
  pilotId: string,
  instructorId: string | null,
): { pic_id: string; sic_id: string | null; supervisor_id: string | null } {
  if (instructorId && INSTRUCTOR_CLASSIFICATIONS.includes(type.pic_flight_time))
    return { pic_id: instructorId, sic_id: pilotId, supervisor_id: null };
  if (instructorId && type.supervisor_flight_time && type.supervisor_flight_time !== 'none')
    return { pic_id: pilotId, sic_id: null, supervisor_id: instructorId };
  return { pic_id: pilotId, sic_id: null, supervisor_id: null };
}

/** Free windows: the open windows minus busy spans, dropping pieces shorter than `minSeconds`. */
export function freeWindows(open: readonly BookingSpan[], busy: readonly BookingSpan[], minSeconds = 0): BookingSpan[] {
  const sorted = [...busy].sort((a, b) => a.start - b.start);
  const out: BookingSpan[] = [];
  for (const w of open) {
    let cursor = w.start;
    for (const b of sorted) {
      if (b.end <= cursor || b.start >= w.end) continue;
      if (b.start > cursor) out.push({ start: cursor, end: b.start });
      cursor = Math.max(cursor, b.end);
      if (cursor >= w.end) break;
    }
    if (cursor < w.end) out.push({ start: cursor, end: w.end });
  }
  return out.filter((f) => f.end - f.start >= minSeconds && f.end > f.start);
}
