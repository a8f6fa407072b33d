/**
 * Duty and flight-time limits (issue 30, CONTRACT 7): one pure rule used by the
 * server (GET /duty, bookings, dispatch, confirm), the booking board and the
 * crew's own duty screen offline, so every place counts the same seconds.
 */
import { DateTime } from 'luxon';
import type { RuleText } from '../readiness/text.ts';

/** Duty around a flight: 30 minutes before off-blocks to 15 minutes after on-blocks. */
export const DUTY_BEFORE_SECONDS = 30 * 60;
export const DUTY_AFTER_SECONDS = 15 * 60;
/** GET /duty answers at most this many days. */
export const MAX_RANGE_DAYS = 400;
/** The alert threshold: crew past this share of the yearly limit. */
export const NEAR_LIMIT_SHARE = 0.9;

export const DUTY_CODES = ['DUTY_LIMIT', 'FLIGHT_HOURS_LIMIT'] as const;
export type DutyCode = (typeof DUTY_CODES)[number];

export interface Span {
  start: number;
  end: number;
}

/** A flight as duty sees it: times in unix seconds, `flight_time` in seconds. */
export interface DutyFlight {
  offblocks: number;
  onblocks: number;
  flight_time: number;
  simulator: boolean;
}

/** Company settings, hours; null (or anything not positive) means no limit. */
export interface DutyLimits {
  max_duty_hours: number | null;
  max_flight_hours_year: number | null;
}

export const limitSeconds = (hours: number | null | undefined): number | null =>
  hours != null && Number.isFinite(hours) && hours > 0 ? Math.round(hours * 3600) : null;

/** Planned or flown duty of a flight or booking (the same margins for both, CONTRACT 7). */
export const dutySpanOf = (start: number, end: number): Span => ({
  start: start - DUTY_BEFORE_SECONDS,
  end: end + DUTY_AFTER_SECONDS,
});

/** The union of spans, sorted; touching spans join. Empty or reversed spans are dropped. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      if (s.end > last.end) last.end = s.end;
    } else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** Seconds of merged spans inside [from, to). */
export function secondsWithin(merged: readonly Span[], from: number, to: number): number {
  let total = 0;
  for (const s of merged) {
    if (s.end <= from) continue;
    if (s.start >= to) break;
    total += Math.min(s.end, to) - Math.max(s.start, from);
  }
  return total;
}

export interface CalendarDay {
  date: string;
  start: number;
  /** Next midnight: 23 or 25 hours later on DST days. */
  end: number;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A valid `YYYY-MM-DD` (a real date). */
export const isIsoDate = (s: string): boolean => ISO_DATE.test(s) && DateTime.fromISO(s, { zone: 'UTC' }).isValid;

/** Midnight starting `date` in `zone`. */
export const dayStart = (date: string, zone: string): number =>
  DateTime.fromISO(date, { zone }).startOf('day').toUnixInteger();

/** The calendar date of an instant in `zone`. */
export const dateOf = (at: number, zone: string): string => DateTime.fromSeconds(at, { zone }).toISODate() as string;

const dayCache = new Map<string, CalendarDay[]>();

/** `YYYY-MM-DD` of a UTC calendar day number (days since 1970-01-01). */
const isoOfDayNumber = (n: number): string => new Date(n * 86_400_000).toISOString().slice(0, 10);

/**
 * Calendar days from `from` to `to` inclusive in `zone`, with their real
 * length (DST). Each next midnight is the previous one plus 24 hours,
 * corrected by the zone's offset change (one offset lookup per day instead of
 * full date arithmetic), and the answers are cached: the board and the
 * booking checks ask for the same days again and again.
 */
export function calendarDays(from: string, to: string, zone: string): CalendarDay[] {
  const key = `${from}|${to}|${zone}`;
  const hit = dayCache.get(key);
  if (hit) return hit;
  const first = DateTime.fromISO(from, { zone }).startOf('day');
  const z = first.zone;
  const firstDay = Math.round(Date.parse(`${from}T00:00:00Z`) / 86_400_000);
  const count = daysInclusive(from, to);
  const out: CalendarDay[] = [];
  let start = first.toUnixInteger();
  for (let i = 0; i < count; i++) {
    const guess = start + 86_400;
    // Shift by the offset change between this midnight and the next (DST: -1 h or +1 h).
    const end = guess - (z.offset(guess * 1000) - z.offset(start * 1000)) * 60;
    out.push({ date: isoOfDayNumber(firstDay + i), start, end });
    start = end;
  }
  if (dayCache.size > 512) dayCache.clear();
  dayCache.set(key, out);
  return out;
}

/** Days between two ISO dates, inclusive (calendar arithmetic, no zone). */
export const daysInclusive = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** What is wrong with a `from`/`to` range, or null (the 400 of GET /duty). */
export function rangeProblem(from: string, to: string): { field: 'from' | 'to'; message: string } | null {
  if (!isIsoDate(from)) return { field: 'from', message: 'Must be a date YYYY-MM-DD' };
  if (!isIsoDate(to)) return { field: 'to', message: 'Must be a date YYYY-MM-DD' };
  const n = daysInclusive(from, to);
  if (n < 1) return { field: 'to', message: '`to` must not be before `from`' };
  if (n > MAX_RANGE_DAYS) return { field: 'to', message: `At most ${MAX_RANGE_DAYS} days` };
  return null;
}

/** The instants a report on [from, to] needs data for: the range, the calendar year of `to`, 12 months back and 28 days back. */
export function reportWindow(from: string, to: string, zone: string): { start: number; end: number } {
  const toDay = DateTime.fromISO(to, { zone }).startOf('day');
  const end = toDay.plus({ days: 1 }).startOf('day').toUnixInteger();
  const starts = [
    dayStart(from, zone),
    toDay.startOf('year').toUnixInteger(),
    toDay.plus({ days: 1 }).minus({ months: 12 }).startOf('day').toUnixInteger(),
    toDay.minus({ days: 27 }).toUnixInteger(),
  ];
  return { start: Math.min(...starts), end };
}

const boundsCache = new Map<
  string,
  { end: number; d7: number; d28: number; m12: number; yearStart: number; yearEnd: number }
>();

/** The instants of the rolling windows and the year ending with day `to` (cached: luxon arithmetic is the slow part). */
function boundsOf(to: string, zone: string) {
  const key = `${to}|${zone}`;
  const hit = boundsCache.get(key);
  if (hit) return hit;
  const toDay = DateTime.fromISO(to, { zone }).startOf('day');
  const b = {
    end: toDay.plus({ days: 1 }).startOf('day').toUnixInteger(),
    d7: toDay.minus({ days: 6 }).toUnixInteger(),
    d28: toDay.minus({ days: 27 }).toUnixInteger(),
    m12: toDay.plus({ days: 1 }).minus({ months: 12 }).startOf('day').toUnixInteger(),
    yearStart: toDay.startOf('year').toUnixInteger(),
    yearEnd: toDay.endOf('year').toUnixInteger() + 1,
  };
  if (boundsCache.size > 512) boundsCache.clear();
  boundsCache.set(key, b);
  return b;
}

export interface DutyDay {
  date: string;
  duty_seconds: number;
  flight_seconds: number;
  flights: number;
  limit_seconds: number | null;
  exceeded: boolean;
}

export interface DutyReport {
  days: DutyDay[];
  year: { flight_seconds: number; limit_seconds: number | null };
  rolling: {
    duty_7d_seconds: number;
    duty_28d_seconds: number;
    flight_28d_seconds: number;
    flight_12m_seconds: number;
  };
}

export interface DutyInput {
  /** DUTY base schedule entries and anything else counted as duty as it is (not flights). */
  entries: readonly Span[];
  /** LANDED flights on which the person is PIC, SIC or supervisor. */
  flights: readonly DutyFlight[];
  zone: string;
  limits: DutyLimits;
}

/** Flight seconds (simulators left out) of flights whose off-blocks fall in [from, to). */
export function flightSecondsWithin(
  flights: readonly DutyFlight[],
  from: number,
  to: number,
): { seconds: number; count: number } {
  let seconds = 0;
  let count = 0;
  for (const f of flights) {
    if (f.offblocks < from || f.offblocks >= to) continue;
    count++;
    if (!f.simulator) seconds += f.flight_time;
  }
  return { seconds, count };
}

/** All duty of a person: entries plus each flight's span, merged. */
export const dutySpans = (entries: readonly Span[], flights: readonly DutyFlight[]): Span[] =>
  mergeSpans([...entries, ...flights.map((f) => dutySpanOf(f.offblocks, f.onblocks))]);

/**
 * The answer of GET /duty/{userId}.json: the days of [from, to] with duty or
 * flights, the calendar year of `to`, and rolling windows ending with day `to`.
 * The input must cover `reportWindow(from, to)`.
 */
export function dutyReport(input: DutyInput, from: string, to: string, opts: { allDays?: boolean } = {}): DutyReport {
  const { zone } = input;
  const merged = dutySpans(input.entries, input.flights);
  const dayLimit = limitSeconds(input.limits.max_duty_hours);
  const byOffblocks = [...input.flights].sort((a, b) => a.offblocks - b.offblocks);
  const days: DutyDay[] = [];
  let fi = 0;
  for (const d of calendarDays(from, to, zone)) {
    const duty = secondsWithin(merged, d.start, d.end);
    let seconds = 0;
    let count = 0;
    while (fi < byOffblocks.length && byOffblocks[fi].offblocks < d.start) fi++;
    for (let i = fi; i < byOffblocks.length && byOffblocks[i].offblocks < d.end; i++) {
      count++;
      if (!byOffblocks[i].simulator) seconds += byOffblocks[i].flight_time;
    }
    if (!opts.allDays && duty === 0 && count === 0) continue;
    days.push({
      date: d.date,
      duty_seconds: duty,
      flight_seconds: seconds,
      flights: count,
      limit_seconds: dayLimit,
      exceeded: dayLimit !== null && duty > dayLimit,
    });
  }
  const { end, d7, d28, m12, yearStart, yearEnd } = boundsOf(to, zone);
  return {
    days,
    year: {
      flight_seconds: flightSecondsWithin(input.flights, yearStart, yearEnd).seconds,
      limit_seconds: limitSeconds(input.limits.max_flight_hours_year),
    },
    rolling: {
      duty_7d_seconds: secondsWithin(merged, d7, end),
      duty_28d_seconds: secondsWithin(merged, d28, end),
      flight_28d_seconds: flightSecondsWithin(input.flights, d28, end).seconds,
      flight_12m_seconds: flightSecondsWithin(input.flights, m12, end).seconds,
    },
  };
}

/** Hours and minutes, `9:05`, for messages. */
export function hhmm(seconds: number): string {
  const m = Math.round(seconds / 60);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

export interface DutyCheckInput {
  /** Who, for the message: "Ivan Instructor". */
  name: string;
  /** The planned booking or flight: its own span (the duty margins are added here). */
  planned: Span;
  /** Flight seconds the plan adds to the year (0 for a simulator). */
  plannedFlightSeconds: number;
  /** The person's other duty around the plan: entries, other bookings' planned duty, flown duty (spans with margins already). */
  duty: readonly Span[];
  /** Flight seconds already flown in the calendar year of the plan's start. */
  yearFlightSeconds: number;
  zone: string;
  limits: DutyLimits;
}

export interface DutyRefusal {
  code: DutyCode;
  message: string;
  /** `message` as a message id and values, for readers of other languages (issue 33). */
  text: RuleText;
  /** The numbers, for screens. */
  date: string;
  seconds: number;
  limit_seconds: number;
}

/**
 * Would this booking or flight take the person past a limit? Duty of each
 * calendar day the plan touches (with its 30/15-minute margins, united with
 * the rest of their duty) against `max_duty_hours`, then the year's flight
 * time plus the plan's against `max_flight_hours_year`. Null when it fits;
 * reaching a limit exactly is allowed.
 */
export function checkDuty(i: DutyCheckInput): DutyRefusal | null {
  const dayLimit = limitSeconds(i.limits.max_duty_hours);
  const span = dutySpanOf(i.planned.start, i.planned.end);
  if (dayLimit !== null) {
    const merged = mergeSpans([...i.duty, span]);
    for (const d of calendarDays(dateOf(span.start, i.zone), dateOf(span.end - 1, i.zone), i.zone)) {
      const seconds = secondsWithin(merged, d.start, d.end);
      if (seconds > dayLimit) {
        return {
          code: 'DUTY_LIMIT',
          message: `${i.name} would be on duty ${hhmm(seconds)} hours on ${d.date}, over the daily limit of ${hhmm(dayLimit)} hours.`,
          text: {
            id: 'duty.refusalDutyLimit',
            values: { name: i.name, hours: hhmm(seconds), date: d.date, limit: hhmm(dayLimit) },
          },
          date: d.date,
          seconds,
          limit_seconds: dayLimit,
        };
      }
    }
  }
  const yearLimit = limitSeconds(i.limits.max_flight_hours_year);
  if (yearLimit !== null && i.plannedFlightSeconds > 0) {
    const seconds = i.yearFlightSeconds + i.plannedFlightSeconds;
    if (seconds > yearLimit) {
      const year = dateOf(i.planned.start, i.zone).slice(0, 4);
      return {
        code: 'FLIGHT_HOURS_LIMIT',
        message: `${i.name} would reach ${hhmm(seconds)} flight hours in ${year}, over the yearly limit of ${hhmm(yearLimit)} hours.`,
        text: {
          id: 'duty.refusalFlightHours',
          values: { name: i.name, hours: hhmm(seconds), year, limit: hhmm(yearLimit) },
        },
        date: dateOf(i.planned.start, i.zone),
        seconds,
        limit_seconds: yearLimit,
      };
    }
  }
  return null;
}

/**
 * After a flight is confirmed: which limits the person now exceeds on the
 * flight's day(s) and year (a confirm is never refused; this becomes a warning).
 */
export function exceededAfter(i: {
  name: string;
  flown: Span;
  duty: readonly Span[];
  yearFlightSeconds: number;
  zone: string;
  limits: DutyLimits;
}): DutyRefusal[] {
  const out: DutyRefusal[] = [];
  const dayLimit = limitSeconds(i.limits.max_duty_hours);
  const span = dutySpanOf(i.flown.start, i.flown.end);
  if (dayLimit !== null) {
    const merged = mergeSpans([...i.duty, span]);
    for (const d of calendarDays(dateOf(span.start, i.zone), dateOf(span.end - 1, i.zone), i.zone)) {
      const seconds = secondsWithin(merged, d.start, d.end);
      if (seconds > dayLimit) {
        out.push({
          code: 'DUTY_LIMIT',
          message: `${i.name} was on duty ${hhmm(seconds)} hours on ${d.date}, over the daily limit of ${hhmm(dayLimit)} hours.`,
          text: {
            id: 'duty.exceededDutyLimit',
            values: { name: i.name, hours: hhmm(seconds), date: d.date, limit: hhmm(dayLimit) },
          },
          date: d.date,
          seconds,
          limit_seconds: dayLimit,
        });
        break;
      }
    }
  }
  const yearLimit = limitSeconds(i.limits.max_flight_hours_year);
  if (yearLimit !== null && i.yearFlightSeconds > yearLimit) {
    const year = dateOf(i.flown.start, i.zone).slice(0, 4);
    out.push({
      code: 'FLIGHT_HOURS_LIMIT',
      message: `${i.name} has flown ${hhmm(i.yearFlightSeconds)} hours in ${year}, over the yearly limit of ${hhmm(yearLimit)} hours.`,
      text: {
        id: 'duty.exceededFlightHours',
        values: { name: i.name, hours: hhmm(i.yearFlightSeconds), year, limit: hhmm(yearLimit) },
      },
      date: dateOf(i.flown.start, i.zone),
      seconds: i.yearFlightSeconds,
      limit_seconds: yearLimit,
    });
  }
  return out;
}

/** Share of the yearly limit used (0 when there is no limit), for the board and the alerts. */
export const yearShare = (flightSeconds: number, limits: DutyLimits): number => {
  const l = limitSeconds(limits.max_flight_hours_year);
  return l ? flightSeconds / l : 0;
};

/** Colour class of a figure against its limit: over, near (>= 90 %), fine. */
export function levelOf(seconds: number, limit: number | null): 'over' | 'near' | 'ok' {
  if (limit === null) return 'ok';
  if (seconds > limit) return 'over';
  return seconds >= limit * NEAR_LIMIT_SHARE ? 'near' : 'ok';
}
