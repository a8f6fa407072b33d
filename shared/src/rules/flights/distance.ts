/**
 * Part B 4.6.2 `distance` of GET /flights/view/{id}.json: the great-circle
 * distance between the departure and landing airports, in nautical miles,
 * rounded to 0.1 NM. 0 when either airport is unknown (not in the catalog or
 * not set) and for a local flight (same airport). Pure, so an offline client
 * shows the figure the server answers.
 */
import { greatCircleDistanceNm, type LatLon } from '../airports/night-time.ts';

export const DISTANCE_UNIT = 'NM' as const;

export function flightDistanceNm(departure: LatLon | null | undefined, landing: LatLon | null | undefined): number {
  if (!departure || !landing) return 0;
  return Math.round(greatCircleDistanceNm(departure, landing) * 10) / 10;
}
