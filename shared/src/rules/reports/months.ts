import { DateTime } from 'luxon';

/** Part A 4.11: `flight_hours_by_month` looks back at most this many months (20 years); larger values are clamped. */
export const MAX_MONTHS_BACK = 240;

/** The `months` path value: a whole number, negative clamped to 0, beyond MAX_MONTHS_BACK clamped to it. */
export function clampMonths(months: number): number {
  if (!Number.isFinite(months)) return 0;
  return Math.min(MAX_MONTHS_BACK, Math.max(0, Math.trunc(months)));
}

export interface MonthBucket {
  /** Unix seconds of the first instant of the month in the flight zone. */
  timestamp: number;
  /** `YYYY-MM` in the flight zone. */
  label: string;
  seconds: number;
  flights: number;
  landings: number;
}

/**
 * The buckets of `flight_hours_by_month`: the current month of `now` in `zone`
 * and `months` months before it, newest first, all zero.
 */
export function emptyMonthBuckets(now: number, zone: string, months: number): MonthBucket[] {
  const start = DateTime.fromSeconds(now, { zone }).startOf('month');
  const out: MonthBucket[] = [];
  for (let i = 0; i <= clampMonths(months); i++) {
    const m = start.minus({ months: i });
    out.push({
      timestamp: Math.floor(m.toSeconds()),
      label: m.toFormat('yyyy-MM'),
      seconds: 0,
      flights: 0,
      landings: 0,
    });
  }
  return out;
}

/** The earliest flight `date` (`YYYY-MM-DD`, flight zone) the buckets cover. */
export function firstBucketDate(buckets: readonly MonthBucket[]): string {
  return `${buckets[buckets.length - 1]?.label ?? '0000-00'}-01`;
}

/** Fills zeroed buckets from per-month sums keyed by `YYYY-MM`; months outside the buckets are ignored. */
export function fillMonthBuckets(
  buckets: readonly MonthBucket[],
  rows: readonly { month: string; seconds: number; flights: number; landings: number }[],
): MonthBucket[] {
  const by = new Map(rows.map((r) => [r.month, r]));
  return buckets.map((b) => {
    const r = by.get(b.label);
    return r
      ? { ...b, seconds: Number(r.seconds), flights: Number(r.flights), landings: Number(r.landings) }
      : { ...b };
  });
}

/** Days before expiry when the logbook warns about a certificate. */
export const CERTIFICATE_WARNING_DAYS = 60;

export type CertificateState = 'expired' | 'expiring' | 'valid' | 'none';

/** A certificate's state on `today` (`YYYY-MM-DD`): expired after its expiration day, expiring within the warning window. */
export function certificateState(
  expiration: string | null | undefined,
  today: string,
  warnDays = CERTIFICATE_WARNING_DAYS,
): CertificateState {
  if (!expiration) return 'none';
  const exp = expiration.slice(0, 10);
  if (exp < today) return 'expired';
  const limit = DateTime.fromISO(today, { zone: 'UTC' }).plus({ days: warnDays }).toISODate() ?? today;
  return exp <= limit ? 'expiring' : 'valid';
}
