/**
 * Pilot currency for GET /pilots/get_currency/{userId}/{d1}/{d2}/{d3}.json (spec Part A 4.8 item 7).
 *
 * The spec fixes only d1 (days, default 30, max 999). Decisions for the rest:
 * - d1: window in days for takeoffs and landings (default 30).
 * - d2: window in days for night landings (default 90).
 * - d3: window in days for flight (block) hours (default 90).
 * - Each is clamped: non-numeric or below 1 gives the default, above 999 gives 999, a fraction is
 *   truncated to whole days.
 * - The windows roll: a flight counts when its onblocks instant lies in [now - N * 86400, now].
 *   So the event day counts only as far as it falls within N * 24 hours, not as a whole calendar
 *   day (tools disagree here; we fix this one rule). Flights after `now` do not count.
 * - Requirements are a company setting; the default is 3 landings, 1 night landing, 0 hours
 *   (EASA FCL.060 and FAA 61.57 ask for 3 takeoffs and landings in 90 days; companies set their
 *   own d1 window and counts). A requirement of 0 is always met.
 */

export const CURRENCY_DEFAULT_DAYS = { landings: 30, night_landings: 90, hours: 90 } as const;
export const CURRENCY_MAX_DAYS = 999;

export interface CurrencyRequirements {
  landings: number;
  night_landings: number;
  /** Block hours (decimal) required within the hours window. */
  hours: number;
}

export const DEFAULT_CURRENCY_REQUIREMENTS: Readonly<CurrencyRequirements> = {
  landings: 3,
  night_landings: 1,
  hours: 0,
};

export interface CurrencyParams {
  landingsDays: number;
  nightLandingsDays: number;
  hoursDays: number;
}

export interface CurrencyFlight {
  /** Unix seconds. */
  onblocks: number;
  landings: number;
  night_landings?: number | null;
  /** Seconds. */
  block_time: number;
}

export interface CountWindow {
  days: number;
  count: number;
  required: number;
  current: boolean;
}

export interface HoursWindowResult {
  days: number;
  seconds: number;
  required_seconds: number;
  current: boolean;
}

export interface CurrencyResult {
  windows: { landings: CountWindow; night_landings: CountWindow; hours: HoursWindowResult };
  current: boolean;
}

type DaysParam = string | number | null | undefined;

/** One path segment to a whole number of days (see the module comment for the clamp). */
function parseDays(value: DaysParam, fallback: number): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isFinite(n)) return fallback;
  const days = Math.trunc(n);
  if (days < 1) return fallback;
  return Math.min(days, CURRENCY_MAX_DAYS);
}

export function parseCurrencyParams(d1?: DaysParam, d2?: DaysParam, d3?: DaysParam): CurrencyParams {
  return {
    landingsDays: parseDays(d1, CURRENCY_DEFAULT_DAYS.landings),
    nightLandingsDays: parseDays(d2, CURRENCY_DEFAULT_DAYS.night_landings),
    hoursDays: parseDays(d3, CURRENCY_DEFAULT_DAYS.hours),
  };
}

const nonNegative = (v: number | null | undefined): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;

/** Flights whose onblocks lies in the rolling window of `days` ending at `now` (both ends included). */
export function flightsInWindow<T extends { onblocks: number }>(flights: readonly T[], now: number, days: number): T[] {
  const from = now - days * 86_400;
  return flights.filter((f) => f.onblocks >= from && f.onblocks <= now);
}

export interface CurrencyInput {
  /** The pilot's LANDED flights (any range; the windows pick what counts). */
  flights: readonly CurrencyFlight[];
  /** Unix seconds. */
  now: number;
  params?: CurrencyParams;
  requirements?: Partial<CurrencyRequirements>;
}

export function checkCurrency(input: CurrencyInput): CurrencyResult {
  const params = input.params ?? parseCurrencyParams();
  const req = { ...DEFAULT_CURRENCY_REQUIREMENTS, ...input.requirements };
  const sum = (days: number, pick: (f: CurrencyFlight) => number): number =>
    flightsInWindow(input.flights, input.now, days).reduce((acc, f) => acc + pick(f), 0);

  const landingsRequired = Math.ceil(nonNegative(req.landings));
  const nightRequired = Math.ceil(nonNegative(req.night_landings));
  const requiredSeconds = Math.round(nonNegative(req.hours) * 3600);

  const landings = sum(params.landingsDays, (f) => Math.trunc(nonNegative(f.landings)));
  const night = sum(params.nightLandingsDays, (f) => Math.trunc(nonNegative(f.night_landings)));
  const seconds = Math.round(sum(params.hoursDays, (f) => nonNegative(f.block_time)));

  const windows = {
    landings: {
      days: params.landingsDays,
      count: landings,
      required: landingsRequired,
      current: landings >= landingsRequired,
    },
    night_landings: {
      days: params.nightLandingsDays,
      count: night,
      required: nightRequired,
      current: night >= nightRequired,
    },
    hours: { days: params.hoursDays, seconds, required_seconds: requiredSeconds, current: seconds >= requiredSeconds },
  };
  return { windows, current: windows.landings.current && windows.night_landings.current && windows.hours.current };
}
