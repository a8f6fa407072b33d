/** Weather rules of Part A 4.11 (METAR and TAF), shared by the server and offline clients. */

/** A valid ICAO location indicator for the weather reports. */
export const ICAO_PATTERN = /^[A-Z]{2}[A-Z0-9]{2}$/;

export const isWeatherIcao = (code: string | null | undefined): code is string => !!code && ICAO_PATTERN.test(code);

/** Part A 8: a historical METAR matches within ±45 minutes, a TAF within ±6 hours. */
export const METAR_WINDOW_SECONDS = 45 * 60;
export const TAF_WINDOW_SECONDS = 6 * 3600;
/** Historical TAF is answered only for the last 30 days. */
export const TAF_HISTORY_SECONDS = 30 * 86400;
/** The aviation weather data provider keeps TAFs this long (its API `hours` limit); older ones come from the archive. */
export const PROVIDER_TAF_HOURS = 7 * 24;

/** The single entry of a weather answer when nothing matches. */
export const NIL = 'NIL';

/**
 * A path date for a weather report: unix seconds in the past select a
 * historical report; absent, unparseable, or in the future means current.
 */
export function historicalDate(date: number | null | undefined, now: number): number | null {
  if (date === null || date === undefined || !Number.isFinite(date) || date <= 0) return null;
  return date >= now ? null : Math.trunc(date);
}

/** The report closest in time to `at` within ±`window` seconds (ties: the earlier); null when none. */
export function closestReport<T extends { time: number }>(reports: readonly T[], at: number, window: number): T | null {
  let best: T | null = null;
  for (const r of reports) {
    const d = Math.abs(r.time - at);
    if (d > window) continue;
    if (!best || d < Math.abs(best.time - at) || (d === Math.abs(best.time - at) && r.time < best.time)) best = r;
  }
  return best;
}

export type TafSource = 'provider' | 'archive' | 'none';

/** Where a historical TAF for `at` comes from: the provider within its window, the archive beyond it, none past 30 days. */
export function tafSource(at: number, now: number): TafSource {
  if (now - at > TAF_HISTORY_SECONDS) return 'none';
  if (now - at <= PROVIDER_TAF_HOURS * 3600 - TAF_WINDOW_SECONDS) return 'provider';
  return 'archive';
}
