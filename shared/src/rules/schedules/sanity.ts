/**
 * Booking sanity (issue 28 item 4, CONTRACT 5): who can sit in the pilot's
 * seat, when a booking may start (not in the past, not beyond the company's
 * horizon) and whether it lies inside the saved operating hours. Pure, so the
 * server's REST path, its re-decision of offline `schedule.book` commands and
 * the device give the same code and the same sentence. Each check is its own
 * function: the booking rule calls them one by one, next to the others
 * (aircraft blocked, duty, readiness).
 */
import { DateTime } from 'luxon';
import type { Translate } from '../../i18n/index.ts';
import { type HoursRow, resolveRange } from '../company/operating-hours.ts';
import type { RuleText } from '../readiness/text.ts';
import { type BookingSpan, insideHours } from './booking.ts';

/** CONTRACT 5: the default booking horizon when the company sets none. */
export const DEFAULT_BOOKING_HORIZON_DAYS = 365;

export interface SanityRefusal {
  code: 'NOT_ALLOWED' | 'PAST' | 'HORIZON' | 'OUTSIDE_HOURS';
  message: string;
  /** `message` as a message id and values, for a reader of another language (issue 33). */
  text: RuleText;
}

/** The person named as pilot, as the rule needs them (`User.pilot`, `active`). */
export interface PilotCandidate {
  name: string;
  pilot: boolean;
  active: boolean;
}

/**
 * The pilot's seat: only an active user whose `pilot` flag is on (the fixed
 * mechanic, auditor and root have it off). Null when they may be booked.
 */
export function pilotRefusal(p: PilotCandidate, t?: Translate): SanityRefusal | null {
  if (p.active && p.pilot) return null;
  const id = !p.active ? 'schedules.sInactive' : 'schedules.sNotPilot';
  // A blank name reads "This person" in the reader's language: a nested message, not an English value.
  const name = p.name.trim();
  const text: RuleText = name
    ? { id, values: { who: name } }
    : { id, lists: { who: [{ id: 'schedules.sThisPerson' }] } };
  // `t`: the reader's language (the device); without it, the server's English, unchanged.
  if (t) {
    const who = name || t('schedules.sThisPerson');
    return { code: 'NOT_ALLOWED', message: t(id, { who }), text };
  }
  const who = name || 'This person';
  if (!p.active)
    return { code: 'NOT_ALLOWED', message: `${who}'s account is inactive, so they cannot be booked as pilot.`, text };
  return { code: 'NOT_ALLOWED', message: `${who} is not a pilot and cannot be booked as pilot.`, text };
}

const stamp = (t: number, zone: string): string => DateTime.fromSeconds(t, { zone }).toFormat('yyyy-MM-dd HH:mm');

export interface TimeInput {
  span: BookingSpan;
  now: number;
  zone: string;
  /** The company's setting (CompanySetting.booking_horizon_days); absent or null: the default. */
  horizonDays?: number | null;
  /**
   * The start the booking already had (a change of an existing booking): a
   * booking under way may still be changed (remarks, instructor, end) as long
   * as its start stays where it was.
   */
  keptStart?: number | null;
  /** The reader's language (the device); without it, the server's English. */
  t?: Translate;
}

/**
 * When: `PAST` for a start before now, `HORIZON` for one further ahead than
 * the horizon (default 365 days). The sentence names the time in the company
 * zone. Null when the start is acceptable.
 */
export function timeRefusal(i: TimeInput): SanityRefusal | null {
  const { span, now, zone } = i;
  if (span.start < now && span.start !== i.keptStart) {
    const text: RuleText = { id: 'schedules.sPast', values: { when: stamp(span.start, zone), zone } };
    return {
      code: 'PAST',
      message: i.t
        ? i.t(text.id, text.values)
        : `The booking would start in the past (${stamp(span.start, zone)} ${zone}); pick a time from now on.`,
      text,
    };
  }
  const days = i.horizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS;
  const last = now + days * 86_400;
  if (span.start > last) {
    const text: RuleText = {
      id: 'schedules.sHorizon',
      values: { days: String(days), last: stamp(last, zone).slice(0, 10), date: stamp(span.start, zone).slice(0, 10) },
    };
    return {
      code: 'HORIZON',
      message: i.t
        ? i.t(text.id, text.values)
        : `Bookings can be made at most ${days} days ahead (until ${stamp(last, zone).slice(0, 10)}); ${stamp(span.start, zone).slice(0, 10)} is too far.`,
      text,
    };
  }
  return null;
}

export interface HoursInput {
  rows: readonly HoursRow[];
  baseId: string | null;
  span: BookingSpan;
  zone: string;
  /** The reader's language (the device); without it, the server's English. */
  t?: Translate;
}

/**
 * Operating hours: the whole span inside the resolved open windows of the
 * booking's base (company zone); windows that touch join. A closed day is
 * named as such, otherwise the day's open hours are given.
 */
export function hoursRefusal(i: HoursInput): SanityRefusal | null {
  const { span, zone } = i;
  const from = DateTime.fromSeconds(span.start, { zone }).toISODate() as string;
  const to = DateTime.fromSeconds(Math.max(span.start, span.end - 1), { zone }).toISODate() as string;
  const days = resolveRange(i.rows, i.baseId, from, to, zone);
  if (insideHours(days, span)) return null;
  const closed = days.find((d) => d.closed);
  if (closed) {
    // Noon UTC of that date (milliseconds, so the text stays JSON): its weekday is the same in every zone the device may be in.
    const text: RuleText = {
      id: 'schedules.sClosed',
      values: { day: Date.parse(`${closed.date}T12:00:00Z`), date: closed.date },
    };
    if (i.t) return { code: 'OUTSIDE_HOURS', message: i.t(text.id, text.values), text };
    const weekday = DateTime.fromISO(closed.date, { zone }).setLocale('en').toFormat('cccc');
    return { code: 'OUTSIDE_HOURS', message: `The base is closed on ${weekday} ${closed.date}.`, text };
  }
  const open = days[0].windows.map(
    (w) => `${stamp(w.start, zone).slice(11)}–${w.end_minute >= 1440 ? '24:00' : stamp(w.end, zone).slice(11)}`,
  );
  const end = stamp(span.end, zone);
  const range = `${stamp(span.start, zone)}–${end.slice(0, 10) === from ? end.slice(11) : end}`;
  const text: RuleText = { id: 'schedules.sOutside', values: { range, windows: open.join(', '), zone } };
  if (i.t) return { code: 'OUTSIDE_HOURS', message: i.t(text.id, text.values), text };
  return {
    code: 'OUTSIDE_HOURS',
    message: `${stamp(span.start, zone)}–${end.slice(0, 10) === from ? end.slice(11) : end} is outside the operating hours of the base (open ${open.join(', ')} ${zone}).`,
    text,
  };
}
