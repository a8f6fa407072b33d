/**
 * Sun times and night flight time (Part A 4.10). Pure: the server's airport endpoints and offline
 * clients use the same code. Night follows the spec: official sunset to official sunrise (sun centre
 * 0.833 degrees below the horizon). EASA/FAA logging use civil twilight instead, so the definition
 * lives in `isNight` and is selectable.
 */
import { DateTime } from 'luxon';
import { getPosition, getTimes } from 'suncalc';

export interface LatLon {
  lat: number;
  lon: number;
}

export type NightDefinition = 'official' | 'civil';

/** Geometric altitude of the sun centre (degrees) below which it is night. */
export const NIGHT_ALTITUDE_DEG: Readonly<Record<NightDefinition, number>> = { official: -0.833, civil: -6 };

/**
 * suncalc's getPosition returns the apparent altitude: geometric plus refraction, and below the
 * horizon it adds the constant refraction of altitude 0 (Meeus 16.4 as suncalc writes it). Its
 * getTimes solves on geometric altitude, so we compare like with like by adding this constant to the
 * (negative) thresholds; otherwise night would start about 3 minutes after the published sunset.
 */
const HORIZON_REFRACTION_DEG = (0.0002967 / Math.tan(0.00312536 / 0.08901179)) * (180 / Math.PI);

/** The single definition of night used everywhere. */
export function isNight(date: Date, lat: number, lon: number, definition: NightDefinition = 'official'): boolean {
  return getPosition(date, lat, lon).altitude < NIGHT_ALTITUDE_DEG[definition] + HORIZON_REFRACTION_DEG;
}

export interface SunTimes {
  sunrise: number | null;
  sunset: number | null;
  /** 'day' when the sun never sets that day, 'night' when it never rises, else null. */
  polar: 'day' | 'night' | null;
}

/**
 * Official sunrise and sunset (unix seconds) for the local calendar date `date` in `timeZone`.
 * suncalc answers per solar day (noon to noon around a UTC date), so we ask for the neighbouring days
 * too and keep the solar day whose noon is nearest local midday. Events belong to the day of their
 * solar noon, as in published tables: in Reykjavik in June the sunset falls just after local midnight.
 */
export function sunTimes(lat: number, lon: number, date: string, timeZone: string): SunTimes {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`Expected a YYYY-MM-DD date, got ${date}`);
  const day = DateTime.fromISO(date, { zone: timeZone });
  if (!day.isValid) throw new RangeError(`Invalid date or time zone: ${date} ${timeZone}`);
  const start = day.startOf('day').toMillis();
  const midday = (start + day.plus({ days: 1 }).startOf('day').toMillis()) / 2;

  let best = getTimes(new Date(midday), lat, lon);
  for (const offset of [-1, 1]) {
    const candidate = getTimes(new Date(midday + offset * 86_400_000), lat, lon);
    if (Math.abs(candidate.solarNoon.getTime() - midday) < Math.abs(best.solarNoon.getTime() - midday))
      best = candidate;
  }
  const toUnix = (d: Date | null): number | null => (d === null ? null : Math.round(d.getTime() / 1000));
  return {
    sunrise: toUnix(best.sunrise),
    sunset: toUnix(best.sunset),
    polar: best.alwaysUp ? 'day' : best.alwaysDown ? 'night' : null,
  };
}

// ---------------------------------------------------------------------------
// Great-circle geometry
// ---------------------------------------------------------------------------

const RAD = Math.PI / 180;
/** Mean Earth radius (6371.0088 km) in nautical miles. */
const EARTH_RADIUS_NM = 6371.0088 / 1.852;

/** Haversine distance in nautical miles. */
export function greatCircleDistanceNm(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Vec = [number, number, number];
const toVec = (p: LatLon): Vec => {
  const lat = p.lat * RAD;
  const lon = p.lon * RAD;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
};

/**
 * Point at `fraction` (0..1) of the great circle from a to b (spherical linear interpolation), so
 * routes across the antimeridian or near the poles stay on the short way round.
 */
export function greatCirclePoint(a: LatLon, b: LatLon, fraction: number): LatLon {
  const va = toVec(a);
  const vb = toVec(b);
  const dot = Math.min(1, Math.max(-1, va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2]));
  const omega = Math.acos(dot);
  if (omega < 1e-12) return { ...a }; // same airport: a local flight stays put
  // Antipodes: no unique great circle; switch halfway rather than divide by zero.
  if (Math.sin(omega) < 1e-12) return fraction < 0.5 ? { ...a } : { ...b };
  const ka = Math.sin((1 - fraction) * omega) / Math.sin(omega);
  const kb = Math.sin(fraction * omega) / Math.sin(omega);
  const [x, y, z] = [0, 1, 2].map((i) => ka * va[i] + kb * vb[i]);
  return { lat: Math.atan2(z, Math.hypot(x, y)) / RAD, lon: Math.atan2(y, x) / RAD };
}

// ---------------------------------------------------------------------------
// Night seconds along a flight
// ---------------------------------------------------------------------------

/** Sampling step; transitions inside a step are then found by bisection to the second. */
const STEP_SECONDS = 60;
/** Guard against absurd inputs (e.g. a year-long "flight" from a typo); longer spans throw. */
export const MAX_FLIGHT_SECONDS = 7 * 86400;

export interface NightFlightInput {
  dep: LatLon;
  arr: LatLon;
  /** Unix seconds (takeoff or off-blocks, as the caller logs). */
  departure: number;
  arrival: number;
  definition?: NightDefinition;
}

/**
 * Seconds of night between departure and arrival. The aircraft is assumed to move at constant speed
 * along the great circle between the airports (climb, routing and winds ignored), and night is
 * tested at its position at each instant. Sampled every 60 s with each day/night change located by
 * bisection to 1 s, so the result is exact to about a second per transition; a shorter-than-60-s
 * night (grazing sun at high latitude) could be missed, which is negligible for logging.
 */
export function nightSeconds(input: NightFlightInput): number {
  const { dep, arr, departure, arrival, definition = 'official' } = input;
  if (![departure, arrival, dep.lat, dep.lon, arr.lat, arr.lon].every(Number.isFinite)) {
    throw new RangeError('Coordinates and times must be finite numbers');
  }
  const duration = arrival - departure;
  if (duration < 0) throw new RangeError('Arrival is before departure');
  if (duration > MAX_FLIGHT_SECONDS) throw new RangeError(`Flight longer than ${MAX_FLIGHT_SECONDS} seconds`);
  if (duration === 0) return 0;

  const nightAt = (t: number): boolean => {
    const p = greatCirclePoint(dep, arr, (t - departure) / duration);
    return isNight(new Date(t * 1000), p.lat, p.lon, definition);
  };

  let total = 0;
  let t0 = departure;
  let n0 = nightAt(t0);
  while (t0 < arrival) {
    const t1 = Math.min(arrival, t0 + STEP_SECONDS);
    const n1 = nightAt(t1);
    if (n0 === n1) {
      if (n0) total += t1 - t0;
    } else {
      // One change inside the step: find it, then count the night side.
      let lo = t0;
      let hi = t1;
      while (hi - lo > 0.5) {
        const mid = (lo + hi) / 2;
        if (nightAt(mid) === n0) lo = mid;
        else hi = mid;
      }
      const change = (lo + hi) / 2;
      total += n0 ? change - t0 : t1 - change;
    }
    t0 = t1;
    n0 = n1;
  }
  return Math.round(total);
}
