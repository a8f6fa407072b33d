/**
 * Flight clock rules: wall-clock entry to unix instants (CONTRACT 4, POST /flights/edit.json),
 * the overlap check of confirm (Part B 3.1, 4.6 item 4) and the computed DELAYED status (Part B
 * 3.1). Pure: an offline client shows the same block time and conflicts the server will decide.
 * The server uses this module through server/src/areas/flights/clock.ts and overlap.ts.
 */
import { DateTime, IANAZone } from 'luxon';

export const FLIGHT_STATUSES = [
  'DRAFT',
  'SCHEDULED',
  'DELAYED',
  'DISPATCHED',
  'LANDED',
  'CANCELED',
  'DELETED',
] as const;
export type FlightStatus = (typeof FLIGHT_STATUSES)[number];
/** Stored statuses: DELAYED is computed on read only (Part B 3.1). */
export const STORED_FLIGHT_STATUSES = FLIGHT_STATUSES.filter((s) => s !== 'DELAYED');
export const UNCONFIRMED_STATUSES: readonly FlightStatus[] = ['DRAFT', 'SCHEDULED', 'DELAYED', 'DISPATCHED'];

/** A SCHEDULED flight more than this past its scheduled off-blocks reads as DELAYED. */
export const DELAY_AFTER_SECONDS = 3600;
/** Conflicts listed by confirm (Part B 4.6 item 4). */
export const DEFAULT_OVERLAP_LIMIT = 20;
/** Longer than this means the times were entered out of order (each step back adds a day). */
export const MAX_BLOCK_SECONDS = 24 * 3600;

// ---------------------------------------------------------------------------
// Wall clock to instants
// ---------------------------------------------------------------------------

export interface FlightClockInput {
  /** 'YYYY-MM-DD', the off-blocks date in the flight time zone. */
  date: string;
  /** 'HH:MM' wall clock in `timeZone`. */
  offblocks: string;
  /** Optional: empty, null or absent when not recorded; give both or neither. */
  takeoff?: string | null;
  landing?: string | null;
  onblocks: string;
  /** IANA zone: the company flight zone, else the company zone (Part A 4.2 item 1). */
  timeZone: string;
}

export interface FlightTimes {
  /** Unix seconds. */
  offblocks: number;
  takeoff: number | null;
  landing: number | null;
  onblocks: number;
  /** Seconds. */
  block_time: number;
  /** landing - takeoff, or block_time when either is missing. */
  flight_time: number;
}

/** Errors are keyed by request field (`date`, `offblocks_time`...), ready for the response `errors`. */
export type FlightTimesResult = ({ ok: true } & FlightTimes) | { ok: false; errors: Record<string, string> };

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of a strict 'HH:MM' (00..23, 00..59), else null. */
export function parseClock(value: string): number | null {
  const m = CLOCK.exec(value);
  return m === null ? null : Number(m[1]) * 60 + Number(m[2]);
}

/** Days since the epoch of a valid 'YYYY-MM-DD' date, else null (rejects 2026-02-30). */
function epochDay(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === date ? ms / 86_400_000 : null;
}

/**
 * Every instant at which the zone's clock reads `minute` on `day`, ascending: one normally, two
 * in the hour repeated when clocks go back, none in the hour skipped when they go forward.
 */
function wallClockInstants(day: number, minute: number, zone: IANAZone): number[] {
  const wall = day * 86_400 + minute * 60; // the reading, counted as if it were UTC
  const offsetAt = (t: number): number => zone.offset(t * 1000) * 60;
  const offsets = new Set([offsetAt(wall - 86_400), offsetAt(wall), offsetAt(wall + 86_400)]);
  return [...offsets]
    .map((o) => wall - o)
    .filter((t) => offsetAt(t) === wall - t)
    .sort((a, b) => a - b);
}

const isBlank = (v: string | null | undefined): boolean => v === null || v === undefined || v.trim() === '';

const FIELDS = [
  ['offblocks', 'offblocks_time', 'Off-blocks', true],
  ['takeoff', 'takeoff_time', 'Takeoff', false],
  ['landing', 'landing_time', 'Landing', false],
  ['onblocks', 'onblocks_time', 'On-blocks', true],
] as const;

/**
 * Unix instants of a flight entered as wall-clock times in `input.timeZone`. Each time that reads earlier
 * than the one before it is on the next day, so off 23:30, on 00:40 is 70 minutes across midnight.
 *
 * Decisions:
 * - Takeoff and landing go together: one without the other is an error on the missing one.
 * - A time skipped by a spring-forward change does not exist: an error, not a silent shift.
 * - A time shown twice when clocks go back takes the first occurrence not before the previous
 *   time; one that reads earlier but recurs later that night (off 02:40 CEST, on 02:10 CET) is
 *   that later occurrence, not the next day.
 * - A block over 24 hours is rejected: it only arises from times entered out of order.
 */
export function computeFlightTimes(input: FlightClockInput): FlightTimesResult {
  const zone = input.timeZone;
  const errors: Record<string, string> = {};
  if (!IANAZone.isValidZone(zone)) errors.time_zone = `Unknown time zone ${zone}.`;
  const day = typeof input.date === 'string' ? epochDay(input.date) : null;
  if (day === null) errors.date = 'The date must be a real date written YYYY-MM-DD.';

  const present: Array<{ key: string; label: string; text: string; minute: number }> = [];
  for (const [field, key, label, required] of FIELDS) {
    const value = input[field];
    if (isBlank(value)) {
      if (required) errors[key] = `${label} time is required (HH:MM).`;
      continue;
    }
    const text = value!.trim();
    const minute = parseClock(text);
    if (minute === null) errors[key] = `${label} time must be HH:MM, hours 00 to 23 and minutes 00 to 59.`;
    else present.push({ key, label, text, minute });
  }
  if (isBlank(input.takeoff) !== isBlank(input.landing) && !errors.takeoff_time && !errors.landing_time) {
    errors[isBlank(input.takeoff) ? 'takeoff_time' : 'landing_time'] =
      'Give both takeoff and landing times, or neither.';
  }
  if (Object.keys(errors).length > 0 || day === null) return { ok: false, errors };

  const tz = IANAZone.create(zone);
  const at: Record<string, number> = {};
  let dayOffset = 0;
  let prev: { minute: number; instant: number } | null = null;
  for (const entry of present) {
    const after: number = prev?.instant ?? Number.NEGATIVE_INFINITY;
    let candidates: number[] = wallClockInstants(day + dayOffset, entry.minute, tz);
    let later: number[] = candidates.filter((t) => t >= after);
    if (prev !== null && entry.minute < prev.minute) {
      // Reads earlier: a later occurrence the same night (repeated hour), else the next day.
      later = candidates.filter((t) => t > after);
      if (later.length === 0) {
        dayOffset++;
        candidates = wallClockInstants(day + dayOffset, entry.minute, tz);
        later = candidates;
      }
    }
    if (candidates.length === 0) {
      const on = new Date((day + dayOffset) * 86_400_000).toISOString().slice(0, 10);
      return {
        ok: false,
        errors: {
          [entry.key]: `${entry.label} time ${entry.text} does not exist on ${on} in ${zone} (the clocks go forward).`,
        },
      };
    }
    const instant: number = later.length > 0 ? later[0] : candidates[candidates.length - 1];
    at[entry.key] = instant;
    prev = { minute: entry.minute, instant };
  }

  const offblocks = at.offblocks_time;
  const onblocks = at.onblocks_time;
  const takeoff = at.takeoff_time ?? null;
  const landing = at.landing_time ?? null;
  const block_time = onblocks - offblocks;
  if (block_time > MAX_BLOCK_SECONDS) {
    return { ok: false, errors: { onblocks_time: 'The times span more than 24 hours; check that they are in order.' } };
  }
  const flight_time = takeoff !== null && landing !== null ? landing - takeoff : block_time;
  return { ok: true, offblocks, takeoff, landing, onblocks, block_time, flight_time };
}

/** A unix instant as the flight's date and 'HH:MM' in a zone (for reading flights back). */
export function formatWallClock(unix: number, zone: string): { date: string; time: string } {
  const dt = DateTime.fromSeconds(unix, { zone });
  if (!dt.isValid) throw new RangeError(`Invalid time or time zone: ${unix} ${zone}`);
  return { date: dt.toFormat('yyyy-MM-dd'), time: dt.toFormat('HH:mm') };
}

// ---------------------------------------------------------------------------
// Overlap (confirm) and status on read
// ---------------------------------------------------------------------------

type Id = string | number;

export interface TimedFlight {
  /** Absent or null for a flight not yet saved. */
  id?: Id | null;
  aircraft_id: Id | null;
  /** Unix seconds; null while the flight has no times (it can then overlap nothing). */
  offblocks: number | null;
  onblocks: number | null;
}

const idText = (id: Id | null | undefined): string | null => (id === null || id === undefined ? null : String(id));

/**
 * Flights of the same aircraft whose block overlaps the candidate's, strictly
 * (a.offblocks < b.onblocks && b.offblocks < a.onblocks: a flight ending as the next starts is no
 * conflict). The candidate itself (same id) and flights without times are skipped. Ordered by
 * off-blocks, then id as the database does; at most `limit`, with the total count.
 */
export function findOverlaps<T extends TimedFlight>(
  candidate: TimedFlight,
  others: readonly T[],
  limit: number = DEFAULT_OVERLAP_LIMIT,
): { overlaps: T[]; total: number } {
  const { offblocks: off, onblocks: on } = candidate;
  const aircraft = idText(candidate.aircraft_id);
  if (off === null || on === null || aircraft === null) return { overlaps: [], total: 0 };
  const self = idText(candidate.id);
  const all = others
    .filter(
      (o) =>
        idText(o.aircraft_id) === aircraft &&
        (self === null || idText(o.id) !== self) &&
        o.offblocks !== null &&
        o.onblocks !== null &&
        off < o.onblocks &&
        o.offblocks < on,
    )
    .sort((a, b) => {
      const [x, y] = [idText(a.id) ?? '', idText(b.id) ?? ''];
      return a.offblocks! - b.offblocks! || (x < y ? -1 : x > y ? 1 : 0);
    });
  return { overlaps: all.slice(0, Math.max(0, Math.floor(limit))), total: all.length };
}

/**
 * DELAYED is computed on read, never stored: a SCHEDULED flight more than one hour past its
 * scheduled off-blocks (strictly: exactly one hour late is still SCHEDULED).
 */
export function flightStatusOnRead<S extends string>(
  status: S,
  scheduledOffblocks: number | null,
  now: number,
): S | 'DELAYED' {
  if (status === 'SCHEDULED' && scheduledOffblocks !== null && now > scheduledOffblocks + DELAY_AFTER_SECONDS)
    return 'DELAYED';
  return status;
}
