/**
 * Operating hours (spec Part A 2.3 and 4.2 item 4): save-time validation and resolution of the
 * hours of a base (or of the company scope) on a date. Pure: the server's save and schedule
 * checks and offline clients must agree on whether a slot is open.
 */
import { IANAZone } from 'luxon';
import type { MessageId, MessageValues, Translate } from '../../i18n/index.ts';

export interface HoursRow {
  /** Null is the company default scope. */
  base_id: string | null;
  /** 0 Monday .. 6 Sunday on a recurring row; null on a dated override. */
  weekday: number | null;
  /** 'YYYY-MM-DD' on a dated override; null on a recurring row. */
  override_date: string | null;
  /** True shuts the day; the minute fields then carry no meaning. */
  closed: boolean;
  start_minute: number;
  end_minute: number;
}

export interface HoursWindow {
  start_minute: number;
  end_minute: number;
}

export interface DayHours {
  closed: boolean;
  windows: HoursWindow[];
}

export interface TimedHoursWindow extends HoursWindow {
  /** Unix seconds. */
  start: number;
  /** Unix seconds. */
  end: number;
}

export interface DatedDayHours {
  date: string;
  closed: boolean;
  windows: TimedHoursWindow[];
}

export const MINUTES_PER_DAY = 1440;
export const MINUTE_GRID = 15;
/** Guard against a runaway loop from a mistyped range (ten years). */
export const MAX_RANGE_DAYS = 3660;

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const AROUND_THE_CLOCK: readonly HoursWindow[] = [{ start_minute: 0, end_minute: MINUTES_PER_DAY }];

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

/** Days since the epoch of a valid 'YYYY-MM-DD' calendar date, else null (rejects 2026-02-30). */
function epochDay(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === date ? ms / 86_400_000 : null;
}

function requireEpochDay(date: string): number {
  const day = epochDay(date);
  if (day === null) throw new RangeError(`Expected a valid YYYY-MM-DD date, got ${date}`);
  return day;
}

const isoDate = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** 0 Monday .. 6 Sunday (1970-01-01 was a Thursday, weekday 3). */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

export function isValidDate(date: string): boolean {
  return epochDay(date) !== null;
}

// ---------------------------------------------------------------------------
// Validation (the save rules of 4.2 item 4)
// ---------------------------------------------------------------------------

const inMinuteRange = (v: number): boolean => Number.isFinite(v) && v >= 0 && v <= MINUTES_PER_DAY;

/**
 * A row message: with `t` in the reader's language (the hours screen, the API's `rows` in the
 * caller's language); without it the English the rule has always answered (its tests).
 */
type Say = (id: MessageId, values: MessageValues, english: string) => string;
export const sayRows =
  (t?: Translate): Say =>
  (id, values, english) =>
    t ? t(id, values) : english;

/** Per-row problems; the row is usable for the overlap check only when this is empty. */
function rowMessages(row: HoursRow, n: number, say: Say): string[] {
  const out: string[] = [];
  const hasWeekday = row.weekday !== null && row.weekday !== undefined;
  const hasDate = row.override_date !== null && row.override_date !== undefined && row.override_date !== '';
  if (hasWeekday && hasDate)
    out.push(say('company.rowDayAndDate', { n }, `Row ${n}: give either a weekday or an override date, not both.`));
  if (!hasWeekday && !hasDate)
    out.push(say('company.rowNoDay', { n }, `Row ${n}: give a weekday or an override date.`));
  if (hasWeekday && !(Number.isInteger(row.weekday) && row.weekday! >= 0 && row.weekday! <= 6)) {
    out.push(
      say(
        'company.rowBadWeekday',
        { n },
        `Row ${n}: the weekday must be a whole number from 0 (Monday) to 6 (Sunday).`,
      ),
    );
  }
  if (hasDate && !isValidDate(row.override_date!)) {
    out.push(say('company.rowBadDate', { n }, `Row ${n}: the override date must be a real date written YYYY-MM-DD.`));
  }
  if (row.closed) return out; // minutes carry no meaning on a closed row
  const fields = [
    ['start', row.start_minute, 'company.rowStartRange', 'company.rowStartGrid'],
    ['end', row.end_minute, 'company.rowEndRange', 'company.rowEndGrid'],
  ] as const;
  for (const [label, v, range, grid] of fields) {
    if (!inMinuteRange(v))
      out.push(say(range, { n }, `Row ${n}: the ${label} time must be between 0 and 1440 minutes.`));
    else if (v % MINUTE_GRID !== 0)
      out.push(say(grid, { n }, `Row ${n}: the ${label} time must be on the 15-minute grid.`));
  }
  if (Number.isFinite(row.start_minute) && Number.isFinite(row.end_minute) && row.end_minute <= row.start_minute) {
    out.push(say('company.rowEndBeforeStart', { n }, `Row ${n}: the end time must be after the start time.`));
  }
  return out;
}

/**
 * Messages for the save rules; empty means the set may be saved. Overlap is checked per scope and
 * day (same weekday, or same override date). Windows that only touch (10:00-12:00 and 12:00-14:00)
 * do not overlap. A closed row next to windows on the same day is not rejected: the spec does not
 * list it, and resolution makes the day closed. With `t` the messages are in its language.
 */
export function validateHoursRows(rows: readonly HoursRow[], t?: Translate): string[] {
  const say = sayRows(t);
  const messages: string[] = [];
  const byDay = new Map<string, { n: number; row: HoursRow }[]>();
  rows.forEach((row, i) => {
    const n = i + 1;
    const own = rowMessages(row, n, say);
    messages.push(...own);
    if (own.length > 0 || row.closed) return;
    const day = row.weekday !== null ? `w${row.weekday}` : `d${row.override_date}`;
    const key = `${row.base_id ?? ''}|${day}`;
    const list = byDay.get(key) ?? [];
    list.push({ n, row });
    byDay.set(key, list);
  });
  for (const list of byDay.values()) {
    const sorted = [...list].sort((a, b) => a.row.start_minute - b.row.start_minute || a.n - b.n);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j].row.start_minute < sorted[i].row.end_minute; j++) {
        const [a, b] = sorted[i].n < sorted[j].n ? [sorted[i], sorted[j]] : [sorted[j], sorted[i]];
        messages.push(
          a.row.weekday !== null
            ? say(
                'company.rowsOverlapWeekday',
                { a: a.n, b: b.n, weekday: String(a.row.weekday) },
                `Rows ${a.n} and ${b.n} overlap on ${WEEKDAY_NAMES[a.row.weekday]}.`,
              )
            : say(
                'company.rowsOverlapDate',
                { a: a.n, b: b.n, date: a.row.override_date },
                `Rows ${a.n} and ${b.n} overlap on ${a.row.override_date}.`,
              ),
        );
      }
    }
  }
  return messages;
}

// ---------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------

/** The day's rows of one scope: any closed row shuts the day, else the windows sorted. */
function dayFromRows(rows: readonly HoursRow[]): DayHours {
  if (rows.some((r) => r.closed)) return { closed: true, windows: [] };
  const windows = rows
    .filter((r) => r.end_minute > r.start_minute) // a degenerate window opens nothing
    .map((r) => ({ start_minute: r.start_minute, end_minute: r.end_minute }))
    .sort((a, b) => a.start_minute - b.start_minute || a.end_minute - b.end_minute);
  return { closed: windows.length === 0, windows };
}

/**
 * Hours of `baseId` (null: the company scope) on `date`, in the order of 4.2 item 4:
 * (1) a dated override of the base, (2) a company dated override, (3) the weekly rows, where a base
 * with any weekly row owns its whole week (an undefined weekday is closed) and a base without one
 * follows the company week.
 *
 * Decision: "a company with no rows at all is open around the clock" is read as "a company scope
 * with no weekly rows has an open-all-day week". Otherwise adding a single dated closure (say
 * Christmas) to an unconfigured company, or customising one base, would shut every other day.
 */
export function resolveDay(rows: readonly HoursRow[], baseId: string | null, date: string): DayHours {
  const day = requireEpochDay(date);
  const weekday = weekdayOf(day);
  const baseRows = baseId === null ? [] : rows.filter((r) => r.base_id === baseId);
  const companyRows = rows.filter((r) => r.base_id === null);

  const baseOverride = baseRows.filter((r) => r.override_date === date);
  if (baseOverride.length > 0) return dayFromRows(baseOverride);
  const companyOverride = companyRows.filter((r) => r.override_date === date);
  if (companyOverride.length > 0) return dayFromRows(companyOverride);

  const baseWeek = baseRows.filter((r) => r.weekday !== null);
  const week = baseWeek.length > 0 ? baseWeek : companyRows.filter((r) => r.weekday !== null);
  if (week.length === 0) return { closed: false, windows: AROUND_THE_CLOCK.map((w) => ({ ...w })) };
  return dayFromRows(week.filter((r) => r.weekday === weekday));
}

/** Offset of `zone` at unix second `t`, in seconds. */
const offsetAt = (zone: IANAZone, t: number): number => zone.offset(t * 1000) * 60;

/**
 * Unix second at which the company wall clock reads `minute` on `day` (1440 is the next midnight).
 * On a day when the clock goes back a reading happens twice: a start takes the first occurrence
 * and an end the last, so a window keeps all the time the clock shows inside it. A reading skipped
 * when the clock goes forward maps to the moment of the jump (the first instant at or after it).
 */
function wallClockInstant(day: number, minute: number, zone: IANAZone, prefer: 'first' | 'last'): number {
  const wall = day * 86_400 + minute * 60; // the wall reading, counted as if it were UTC
  const offsets = [...new Set([offsetAt(zone, wall - 86_400), offsetAt(zone, wall), offsetAt(zone, wall + 86_400)])];
  const candidates = offsets.map((o) => wall - o);
  const valid = candidates.filter((t) => offsetAt(zone, t) === wall - t);
  if (valid.length > 0) return prefer === 'first' ? Math.min(...valid) : Math.max(...valid);
  // In a gap: binary search the first instant whose wall clock is at or past the reading.
  let lo = Math.min(...candidates);
  let hi = Math.max(...candidates);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (mid + offsetAt(zone, mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Hours for every date from `fromDate` to `toDate` inclusive (empty when `toDate` is earlier), with
 * each window's instants in `timeZone`. Minutes are wall clock, so a 0..1440 window spans 23 hours
 * on a spring-forward day and 25 on a fall-back day.
 */
export function resolveRange(
  rows: readonly HoursRow[],
  baseId: string | null,
  fromDate: string,
  toDate: string,
  timeZone: string,
): DatedDayHours[] {
  const from = requireEpochDay(fromDate);
  const to = requireEpochDay(toDate);
  if (!IANAZone.isValidZone(timeZone)) throw new RangeError(`Unknown time zone ${timeZone}`);
  if (to - from + 1 > MAX_RANGE_DAYS) throw new RangeError(`A range may cover at most ${MAX_RANGE_DAYS} days`);
  const zone = IANAZone.create(timeZone);
  const out: DatedDayHours[] = [];
  for (let day = from; day <= to; day++) {
    const date = isoDate(day);
    const { closed, windows } = resolveDay(rows, baseId, date);
    out.push({
      date,
      closed,
      windows: windows.map((w) => ({
        ...w,
        start: wallClockInstant(day, w.start_minute, zone, 'first'),
        end: wallClockInstant(day, w.end_minute, zone, 'last'),
      })),
    });
  }
  return out;
}
