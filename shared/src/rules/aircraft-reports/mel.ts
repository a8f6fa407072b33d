/**
 * MEL and CDL rules (Part B 2.2, 2.3, 3.2, 4.2, 8). Pure functions: the server and
 * offline clients must reach the same status from the same inputs.
 */
import { DateTime } from 'luxon';
import { allows } from '../../roles.ts';
import { aircraftReportGates } from './policy.ts';

export const MEL_CATEGORIES = ['A', 'B', 'C', 'D'] as const;
export type MelCategory = (typeof MEL_CATEGORIES)[number];

export const INTERVAL_TYPES = ['NEXT_FLIGHT', 'CALENDAR_DAYS', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES'] as const;
export type IntervalType = (typeof INTERVAL_TYPES)[number];

/** Interval types measured by aircraft use rather than by the clock (they have no `expires`). */
export const COUNTER_INTERVAL_TYPES = ['NEXT_FLIGHT', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES'] as const;

export const LIMITATION_CODES = [
  'NO_ETOPS',
  'NO_RVSM',
  'NO_RNP_AR',
  'NO_ICING',
  'NO_IFR',
  'NO_NIGHT',
  'DAY_VFR',
] as const;
export type LimitationCode = (typeof LIMITATION_CODES)[number];

export const REPORT_TYPES = ['DEFECT', 'INFO', 'MEL', 'CDL', 'MAINTENANCE_ACTION', 'SERVICING'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DISPATCH_CONDITIONS = ['NONE', 'GROUNDED', 'MEL', 'CDL', 'MONITOR'] as const;
export type DispatchCondition = (typeof DISPATCH_CONDITIONS)[number];

export const REPORT_STATUSES = ['OPEN', 'DEFERRED', 'CLOSED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const AIRCRAFT_STATUSES = ['FLYABLE', 'GROUNDED'] as const;
export type AircraftStatus = (typeof AIRCRAFT_STATUSES)[number];

export const MEL_STATUSES = ['OPEN', 'EXPIRING_SOON', 'EXPIRED', 'CLOSED'] as const;
export type MelStatus = (typeof MEL_STATUSES)[number];

/** Part B 8: an item is "expiring soon" within 3 days of its deadline. */
export const EXPIRING_SOON_SECONDS = 3 * 86400;

/** Part B 2.3 standard windows in consecutive calendar days. */
export const STANDARD_CALENDAR_DAYS = { B: 3, C: 10, D: 120 } as const;

const LEGACY_REPORT_TYPES: Readonly<Record<string, ReportType>> = { OBSERVATION: 'INFO', RESTRICTION: 'DEFECT' };

/** Part B 9.1: old clients may still post OBSERVATION or RESTRICTION; remap before validation. */
export function remapLegacyReportType(type: string): string {
  return LEGACY_REPORT_TYPES[type] ?? type;
}

export function isCounterInterval(type: IntervalType | null): boolean {
  return type !== null && (COUNTER_INTERVAL_TYPES as readonly string[]).includes(type);
}

// ---------------------------------------------------------------------------
// Interval defaults and validation
// ---------------------------------------------------------------------------

export interface MelInterval {
  interval_type: IntervalType;
  /** null only for NEXT_FLIGHT, whose count is implicitly one flight. */
  interval_value: number | null;
}

export type IntervalResult = { ok: true; interval: MelInterval | null } | { ok: false; reason: string };

const isPositiveInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * Interval of a new item from its category and what the client posted.
 *
 * Decisions:
 * - A category-less CDL item has no window: any posted interval is dropped (the spec computes
 *   nothing for it, and `expires` stays null).
 * - When no `interval_type` is posted the standard pair applies and a lone `interval_value` is
 *   ignored (the spec calls the value meaningful only together with a type).
 * - Category A may not use CALENDAR_DAYS: the spec allows only a flights, flight-days or cycles
 *   override for A, and A can never be extended; a calendar window would be a B in disguise.
 * - NEXT_FLIGHT drops any posted value (it is always one flight).
 */
export function defaultInterval(
  category: MelCategory | null,
  given?: { interval_type?: IntervalType | null; interval_value?: number | null },
): IntervalResult {
  if (category === null) return { ok: true, interval: null };
  const type = given?.interval_type ?? null;
  if (type === null) {
    if (category === 'A') return { ok: true, interval: { interval_type: 'NEXT_FLIGHT', interval_value: null } };
    return { ok: true, interval: { interval_type: 'CALENDAR_DAYS', interval_value: STANDARD_CALENDAR_DAYS[category] } };
  }
  if (!(INTERVAL_TYPES as readonly string[]).includes(type)) {
    return { ok: false, reason: `Unknown interval type ${String(type)}.` };
  }
  if (type === 'NEXT_FLIGHT') return { ok: true, interval: { interval_type: type, interval_value: null } };
  if (category === 'A' && type === 'CALENDAR_DAYS') {
    return {
      ok: false,
      reason: 'A category A item cannot use a calendar-days interval; use next flight, flights, flight days or cycles.',
    };
  }
  const value = given?.interval_value;
  if (!isPositiveInteger(value)) {
    return { ok: false, reason: `The interval value must be a whole number of at least 1 for ${type}.` };
  }
  return { ok: true, interval: { interval_type: type, interval_value: value } };
}

// ---------------------------------------------------------------------------
// Window computed once at creation
// ---------------------------------------------------------------------------

export interface MelWindowInput {
  /** Unix seconds when the item was raised. */
  raisedAt: number;
  /** Company IANA zone: day boundaries are company midnights. */
  timeZone: string;
  category: MelCategory | null;
  interval_type: IntervalType | null;
  interval_value: number | null;
  /** Aircraft counters when raised (LANDED flights and landings). */
  aircraftFlights: number;
  aircraftCycles: number;
}

export interface MelWindow {
  starts: number;
  expires: number | null;
  baseline_flights: number | null;
  baseline_cycles: number | null;
}

function zoned(unix: number, timeZone: string): DateTime {
  const dt = DateTime.fromSeconds(unix, { zone: timeZone });
  if (!dt.isValid) throw new RangeError(`Invalid time or time zone: ${unix} ${timeZone}`);
  return dt;
}

/**
 * Company midnight N calendar days after the day of `unix`: calendar arithmetic in the zone, so a
 * DST change inside the window does not shift the result by an hour, and a midnight skipped by DST
 * (e.g. America/Santiago) resolves to the first instant of that day.
 */
function midnightPlusDays(unix: number, days: number, timeZone: string): number {
  return zoned(unix, timeZone).plus({ days }).startOf('day').toUnixInteger();
}

export function computeMelWindow(input: MelWindowInput): MelWindow {
  const { raisedAt, timeZone, category, interval_type: type, interval_value: value } = input;
  // Company midnight at the start of the day after raising.
  const starts = midnightPlusDays(raisedAt, 1, timeZone);
  const window: MelWindow = { starts, expires: null, baseline_flights: null, baseline_cycles: null };
  if (category === null || type === null) return window; // category-less CDL: no window at all
  if (type === 'CALENDAR_DAYS') {
    if (!isPositiveInteger(value)) throw new RangeError('CALENDAR_DAYS needs a positive whole number of days');
    // starts + N days is 00:00 after the last day, i.e. the end of the last day.
    window.expires = midnightPlusDays(starts, value, timeZone);
  }
  if (type === 'FLIGHTS' || type === 'NEXT_FLIGHT') window.baseline_flights = input.aircraftFlights;
  // Decision: the spec notes nothing fills baseline_cycles although CYCLES is selectable;
  // we populate it from the aircraft's landings so CYCLES items can actually be tracked.
  if (type === 'CYCLES') window.baseline_cycles = input.aircraftCycles;
  return window;
}

// ---------------------------------------------------------------------------
// Deadline and derived status
// ---------------------------------------------------------------------------

/** The fields of a MelItem (plus its report's status) that the rules read. */
export interface MelItemState {
  category: MelCategory | null;
  interval_type: IntervalType | null;
  interval_value: number | null;
  starts: number | null;
  expires: number | null;
  baseline_flights: number | null;
  baseline_cycles: number | null;
  extended: boolean;
  extended_until: number | null;
  /** Status of the parent AircraftReport: the item is closed with its report. */
  report_status: ReportStatus;
}

export interface MelCounters {
  /** The aircraft's current LANDED flight count (same counter as baseline_flights). */
  flights: number;
  /** The aircraft's current cycles or landings (same counter as baseline_cycles). */
  cycles: number;
  /** Distinct days with a LANDED flight since `starts`. */
  flightDays: number;
}

export type CounterUnit = 'flights' | 'cycles' | 'flight_days';

export type MelDeadline =
  | { kind: 'time'; expires: number }
  | {
      kind: 'counter';
      remaining: number;
      used: number;
      limit: number;
      unit: CounterUnit;
      /** False when the baseline or the limit is missing (e.g. legacy CYCLES rows). */
      known: boolean;
    }
  /** No window: a category-less CDL item, or a row without interval data. */
  | { kind: 'none' };

/** The deadline in force: the extension replaces the original expiry. */
export function effectiveExpiry(item: MelItemState): number | null {
  if (item.extended && item.extended_until !== null) return item.extended_until;
  return item.expires;
}

function counterDeadline(
  limit: number | null,
  baseline: number | null,
  current: number,
  unit: CounterUnit,
): MelDeadline {
  if (!isPositiveInteger(limit) || baseline === null) {
    // Fail safe: without a baseline nobody can prove the window is still open, so it counts as used up.
    const l = isPositiveInteger(limit) ? limit : 0;
    return { kind: 'counter', remaining: 0, used: l, limit: l, unit, known: false };
  }
  const used = Math.max(0, current - baseline); // a counter reset must not produce negative use
  return { kind: 'counter', remaining: Math.max(0, limit - used), used, limit, unit, known: true };
}

export function melDeadline(item: MelItemState, counters: MelCounters): MelDeadline {
  if (item.category === null) return { kind: 'none' };
  switch (item.interval_type) {
    case 'CALENDAR_DAYS': {
      const expires = effectiveExpiry(item);
      return expires === null ? { kind: 'none' } : { kind: 'time', expires };
    }
    case 'NEXT_FLIGHT':
      return counterDeadline(1, item.baseline_flights, counters.flights, 'flights');
    case 'FLIGHTS':
      return counterDeadline(item.interval_value, item.baseline_flights, counters.flights, 'flights');
    case 'CYCLES':
      return counterDeadline(item.interval_value, item.baseline_cycles, counters.cycles, 'cycles');
    case 'FLIGHT_DAYS':
      // Counted since `starts` by the caller, so the baseline is implicitly zero.
      return counterDeadline(item.interval_value, 0, counters.flightDays, 'flight_days');
    default:
      return { kind: 'none' };
  }
}

/**
 * Derived status, never stored (Part B 3.2).
 * Time-based: EXPIRED from the effective expiry instant on; EXPIRING_SOON from 3 days before it
 * (exactly 3 days before counts). Counter-based: EXPIRED when the count is used up; EXPIRING_SOON
 * when exactly one unit remains — so a NEXT_FLIGHT item is EXPIRING_SOON from the start (it is due
 * before the next flight) and EXPIRED once a flight has been made.
 */
export function melStatus(item: MelItemState, now: number, counters: MelCounters): MelStatus {
  if (item.report_status === 'CLOSED') return 'CLOSED';
  const deadline = melDeadline(item, counters);
  if (deadline.kind === 'none') return 'OPEN';
  if (deadline.kind === 'time') {
    if (now >= deadline.expires) return 'EXPIRED';
    return now >= deadline.expires - EXPIRING_SOON_SECONDS ? 'EXPIRING_SOON' : 'OPEN';
  }
  if (deadline.remaining <= 0) return 'EXPIRED';
  return deadline.remaining === 1 ? 'EXPIRING_SOON' : 'OPEN';
}

// ---------------------------------------------------------------------------
// One-time extension
// ---------------------------------------------------------------------------

export type ExtensionCheck = { ok: true } | { ok: false; reason: string; code: 'forbidden' | 'rejected' };

const reject = (reason: string): ExtensionCheck => ({ ok: false, reason, code: 'rejected' });

/**
 * May this item be extended to `extended_until`? (Part B 4.2 item 7, 8; EASA ORO.MLR.105(f)).
 * `code: 'forbidden'` is a role refusal (the server answers 404); `rejected` is `result: false`.
 * `timeZone` is the company zone, needed to add the original interval in calendar days.
 * Decision: the new deadline must also be in the future, as an extension into the past is meaningless.
 */
export function checkExtension(
  item: MelItemState,
  opts: { extended_until: number | null | undefined; now: number; role: number; timeZone: string },
): ExtensionCheck {
  if (!allows(aircraftReportGates.melManage, opts.role)) {
    return { ok: false, reason: 'Your role is not allowed to extend MEL or CDL items.', code: 'forbidden' };
  }
  if (item.category === 'A') return reject('Category A items cannot be extended.');
  if (item.report_status === 'CLOSED') return reject('The item is closed.');
  if (item.extended) return reject('The item has already been extended once.');
  if (item.interval_type !== 'CALENDAR_DAYS' || item.expires === null || !isPositiveInteger(item.interval_value)) {
    return reject('Only items with a calendar-days deadline can be extended.');
  }
  const until = opts.extended_until;
  if (until === null || until === undefined || !Number.isFinite(until)) return reject('The new deadline is required.');
  if (until <= item.expires) return reject('The new deadline must be after the current expiry.');
  if (until <= opts.now) return reject('The new deadline must be in the future.');
  // Same wall-clock time N calendar days later, so a legacy expiry that is not a midnight is respected.
  const limit = zoned(item.expires, opts.timeZone).plus({ days: item.interval_value }).toUnixInteger();
  if (until > limit) {
    return reject(
      `The new deadline may be at most one original interval (${item.interval_value} days) after the current expiry.`,
    );
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------
// Dispatch block
// ---------------------------------------------------------------------------

export interface MelItemForBlock {
  /** Report type; defaults to MEL in the message. */
  type?: 'MEL' | 'CDL';
  ata_chapter: string | null;
  category: MelCategory | null;
  title: string;
  status: MelStatus;
}

/** Part B 4.2 item 8: blocked as soon as any item is EXPIRED; the reason names the first one. */
export function aircraftBlock(items: readonly MelItemForBlock[]): { blocked: boolean; blockReason: string | null } {
  const first = items.find((i) => i.status === 'EXPIRED');
  if (!first) return { blocked: false, blockReason: null };
  const ata = first.ata_chapter ? ` ${first.ata_chapter}` : '';
  const category = first.category ? ` (category ${first.category})` : '';
  return { blocked: true, blockReason: `${first.type ?? 'MEL'} item${ata}${category} expired: ${first.title}` };
}

// ---------------------------------------------------------------------------
// Report closure stamp
// ---------------------------------------------------------------------------

export interface ClosureState {
  status: ReportStatus;
  closed: number | null;
  closed_by: number | null;
}

/**
 * Part B 3.2: closure comes only from the posted status (posted `closed` fields are ignored by
 * not being inputs). Not posted: unchanged. CLOSED from OPEN or DEFERRED: stamped now by the
 * caller. CLOSED to CLOSED: the stamp is kept (filled in only if a legacy row has none).
 * OPEN or DEFERRED: the stamp is cleared.
 */
export function closureStamp(
  prev: ClosureState,
  postedStatus: ReportStatus | null | undefined,
  now: number,
  userId: number,
): ClosureState {
  if (postedStatus === null || postedStatus === undefined) return { ...prev };
  if (postedStatus !== 'CLOSED') return { status: postedStatus, closed: null, closed_by: null };
  if (prev.status === 'CLOSED') {
    return prev.closed === null ? { status: 'CLOSED', closed: now, closed_by: userId } : { ...prev };
  }
  return { status: 'CLOSED', closed: now, closed_by: userId };
}
