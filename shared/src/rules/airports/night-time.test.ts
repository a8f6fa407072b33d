import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  greatCircleDistanceNm,
  greatCirclePoint,
  isNight,
  type LatLon,
  MAX_FLIGHT_SECONDS,
  type NightDefinition,
  nightSeconds,
  sunTimes,
} from './night-time.ts';

const u = (iso: string): number => Date.parse(iso) / 1000;
/** Unix seconds of a wall-clock time in a zone. */
const local = (iso: string, zone: string): number => DateTime.fromISO(iso, { zone }).toUnixInteger();
const MINUTES_2 = 120;

const LECU: LatLon = { lat: 40.37, lon: -3.785 };
const LEMD: LatLon = { lat: 40.4719, lon: -3.5626 };
const LEBL: LatLon = { lat: 41.2971, lon: 2.0785 };
const EGLL: LatLon = { lat: 51.47, lon: -0.4543 };
const KJFK: LatLon = { lat: 40.6413, lon: -73.7781 };
const NEW_YORK: LatLon = { lat: 40.7128, lon: -74.006 };
const YSSY: LatLon = { lat: -33.9461, lon: 151.1772 };
const RJAA: LatLon = { lat: 35.772, lon: 140.3929 };
const KLAX: LatLon = { lat: 33.9416, lon: -118.4085 };
const TROMSO: LatLon = { lat: 69.65, lon: 18.96 };
const ALTA: LatLon = { lat: 69.976, lon: 23.372 };

/** Independent check: midpoint rule every `step` seconds with the same position model. */
function bruteForce(
  dep: LatLon,
  arr: LatLon,
  departure: number,
  arrival: number,
  step: number,
  def: NightDefinition = 'official',
): number {
  let total = 0;
  for (let t = departure; t < arrival; t += step) {
    const dt = Math.min(step, arrival - t);
    const mid = t + dt / 2;
    const p = greatCirclePoint(dep, arr, (mid - departure) / (arrival - departure));
    if (isNight(new Date(mid * 1000), p.lat, p.lon, def)) total += dt;
  }
  return total;
}

describe('sunTimes', () => {
  it('matches published Madrid times at the June solstice (06:44 and 21:48 CEST)', () => {
    // timeanddate.com / USNO for Madrid, 21 June: sunrise 06:44, sunset 21:48. LECU is 0.08 degrees
    // west of the city centre, i.e. about 20 s later, well inside the tolerance.
    const s = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    expect(s.polar).toBeNull();
    expect(Math.abs(s.sunrise! - local('2026-06-21T06:44', 'Europe/Madrid'))).toBeLessThanOrEqual(MINUTES_2);
    expect(Math.abs(s.sunset! - local('2026-06-21T21:48', 'Europe/Madrid'))).toBeLessThanOrEqual(MINUTES_2);
  });

  it('matches published New York times at the December solstice (07:17 and 16:32 EST)', () => {
    // USNO for New York City, 21 December: sunrise 07:17, sunset 16:32.
    const s = sunTimes(NEW_YORK.lat, NEW_YORK.lon, '2026-12-21', 'America/New_York');
    expect(Math.abs(s.sunrise! - local('2026-12-21T07:17', 'America/New_York'))).toBeLessThanOrEqual(MINUTES_2);
    expect(Math.abs(s.sunset! - local('2026-12-21T16:32', 'America/New_York'))).toBeLessThanOrEqual(MINUTES_2);
  });

  it('flags polar day and polar night in Tromso', () => {
    expect(sunTimes(TROMSO.lat, TROMSO.lon, '2026-06-21', 'Europe/Oslo')).toEqual({
      sunrise: null,
      sunset: null,
      polar: 'day',
    });
    expect(sunTimes(TROMSO.lat, TROMSO.lon, '2026-12-21', 'Europe/Oslo')).toEqual({
      sunrise: null,
      sunset: null,
      polar: 'night',
    });
  });

  it('gives the sunset of the same solar day even after local midnight (Reykjavik, June)', () => {
    // Published: sunrise about 02:55, sunset about 00:04 the next morning.
    const s = sunTimes(64.1466, -21.9426, '2026-06-21', 'Atlantic/Reykjavik');
    expect(Math.abs(s.sunrise! - u('2026-06-21T02:55:00Z'))).toBeLessThanOrEqual(MINUTES_2);
    expect(Math.abs(s.sunset! - u('2026-06-22T00:04:00Z'))).toBeLessThanOrEqual(MINUTES_2);
    expect(s.sunset!).toBeGreaterThan(s.sunrise!);
  });

  it('keeps sunrise inside the local date across DST changes and far from UTC', () => {
    const cases: Array<[LatLon, string, string]> = [
      [LEMD, '2026-03-29', 'Europe/Madrid'],
      [LEMD, '2026-10-25', 'Europe/Madrid'],
      [KJFK, '2026-03-08', 'America/New_York'],
      [YSSY, '2026-06-21', 'Australia/Sydney'],
      [{ lat: 1.87, lon: -157.4 }, '2026-06-21', 'Pacific/Kiritimati'], // UTC+14
      [{ lat: 21.32, lon: -157.92 }, '2026-01-01', 'Pacific/Honolulu'],
    ];
    for (const [p, date, zone] of cases) {
      const s = sunTimes(p.lat, p.lon, date, zone);
      const start = DateTime.fromISO(date, { zone }).startOf('day').toUnixInteger();
      const end = DateTime.fromISO(date, { zone }).plus({ days: 1 }).startOf('day').toUnixInteger();
      expect(s.sunrise!).toBeGreaterThanOrEqual(start);
      expect(s.sunrise!).toBeLessThan(end);
      expect(s.sunset!).toBeGreaterThan(s.sunrise!);
    }
  });

  it('rejects bad dates and zones', () => {
    expect(() => sunTimes(40, -3, '2026-13-01', 'Europe/Madrid')).toThrow(RangeError);
    expect(() => sunTimes(40, -3, '21/06/2026', 'Europe/Madrid')).toThrow(RangeError);
    expect(() => sunTimes(40, -3, '2026-06-21', 'Nowhere/Land')).toThrow(RangeError);
  });
});

describe('isNight', () => {
  it('switches at the official sunrise and sunset to within seconds', () => {
    const s = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    const at = (unix: number) => isNight(new Date(unix * 1000), LECU.lat, LECU.lon);
    expect(at(s.sunset! - 3)).toBe(false);
    expect(at(s.sunset! + 3)).toBe(true);
    expect(at(s.sunrise! - 3)).toBe(true);
    expect(at(s.sunrise! + 3)).toBe(false);
  });

  it('civil night starts later than official night', () => {
    const s = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    const tenMinAfter = new Date((s.sunset! + 600) * 1000);
    expect(isNight(tenMinAfter, LECU.lat, LECU.lon, 'official')).toBe(true);
    expect(isNight(tenMinAfter, LECU.lat, LECU.lon, 'civil')).toBe(false);
    const twoHoursAfter = new Date((s.sunset! + 7200) * 1000);
    expect(isNight(twoHoursAfter, LECU.lat, LECU.lon, 'civil')).toBe(true);
  });
});

describe('nightSeconds', () => {
  it('is 0 for a day flight', () => {
    expect(
      nightSeconds({ dep: LEMD, arr: LEBL, departure: u('2026-06-21T10:00:00Z'), arrival: u('2026-06-21T11:15:00Z') }),
    ).toBe(0);
  });

  it('is the whole flight for a winter evening flight from Madrid (20:00-23:00 UTC)', () => {
    expect(
      nightSeconds({ dep: LEMD, arr: LEBL, departure: u('2026-01-15T20:00:00Z'), arrival: u('2026-01-15T23:00:00Z') }),
    ).toBe(3 * 3600);
  });

  it('is the whole flight for a full night crossing (JFK-LHR in December)', () => {
    const departure = u('2026-12-21T23:00:00Z');
    const arrival = u('2026-12-22T06:00:00Z');
    expect(nightSeconds({ dep: KJFK, arr: EGLL, departure, arrival })).toBe(7 * 3600);
  });

  it('counts from sunset on a local flight across sunset', () => {
    const s = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    const departure = u('2026-06-21T19:00:00Z');
    const arrival = u('2026-06-21T21:00:00Z');
    const n = nightSeconds({ dep: LECU, arr: LECU, departure, arrival });
    expect(Math.abs(n - (arrival - s.sunset!))).toBeLessThanOrEqual(2);
  });

  it('counts until sunrise on a local flight across sunrise', () => {
    const s = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    const departure = u('2026-06-21T04:00:00Z');
    const arrival = u('2026-06-21T06:00:00Z');
    const n = nightSeconds({ dep: LECU, arr: LECU, departure, arrival });
    expect(Math.abs(n - (s.sunrise! - departure))).toBeLessThanOrEqual(2);
  });

  it('follows the moving aircraft across sunset (Madrid to London)', () => {
    const departure = u('2026-06-21T19:00:00Z');
    const arrival = u('2026-06-21T21:15:00Z');
    const n = nightSeconds({ dep: LEMD, arr: EGLL, departure, arrival });
    // Sunset is 19:48Z in Madrid and 20:21Z in London: the moving answer lies between the two.
    const atMadrid = arrival - sunTimes(LEMD.lat, LEMD.lon, '2026-06-21', 'Europe/Madrid').sunset!;
    const atLondon = arrival - sunTimes(EGLL.lat, EGLL.lon, '2026-06-21', 'Europe/London').sunset!;
    expect(n).toBeLessThan(atMadrid);
    expect(n).toBeGreaterThan(atLondon);
    expect(Math.abs(n - bruteForce(LEMD, EGLL, departure, arrival, 2))).toBeLessThanOrEqual(3);
  });

  it('handles a 30-hour local flight over two nights', () => {
    const d21 = sunTimes(LECU.lat, LECU.lon, '2026-06-21', 'Europe/Madrid');
    const d22 = sunTimes(LECU.lat, LECU.lon, '2026-06-22', 'Europe/Madrid');
    const departure = u('2026-06-21T00:00:00Z');
    const arrival = u('2026-06-22T06:00:00Z');
    const expected = d21.sunrise! - departure + (d22.sunrise! - d21.sunset!);
    expect(Math.abs(nightSeconds({ dep: LECU, arr: LECU, departure, arrival }) - expected)).toBeLessThanOrEqual(4);
  });

  it('handles a 30-hour long-haul flight (Madrid to Sydney)', () => {
    const departure = u('2026-06-21T00:00:00Z');
    const arrival = departure + 30 * 3600;
    const n = nightSeconds({ dep: LEMD, arr: YSSY, departure, arrival });
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(30 * 3600);
    expect(Math.abs(n - bruteForce(LEMD, YSSY, departure, arrival, 10))).toBeLessThanOrEqual(30);
  });

  it('is 0 in polar day even at local midnight (Tromso to Alta in June)', () => {
    expect(
      nightSeconds({
        dep: TROMSO,
        arr: ALTA,
        departure: u('2026-06-21T21:30:00Z'),
        arrival: u('2026-06-22T00:30:00Z'),
      }),
    ).toBe(0);
  });

  it('is the whole flight in polar night, but civil twilight at noon is not civil night (Tromso, December)', () => {
    const flight = { dep: TROMSO, arr: ALTA, departure: u('2026-12-21T10:30:00Z'), arrival: u('2026-12-21T11:30:00Z') };
    expect(nightSeconds(flight)).toBe(3600);
    expect(nightSeconds({ ...flight, definition: 'civil' })).toBe(0);
  });

  it('civil night is shorter than official night across sunset', () => {
    const flight = { dep: LECU, arr: LECU, departure: u('2026-06-21T19:00:00Z'), arrival: u('2026-06-21T22:00:00Z') };
    const official = nightSeconds(flight);
    const civil = nightSeconds({ ...flight, definition: 'civil' });
    // Civil twilight lasts about half an hour at Madrid in June.
    expect(official - civil).toBeGreaterThan(25 * 60);
    expect(official - civil).toBeLessThan(40 * 60);
    expect(Math.abs(civil - bruteForce(LECU, LECU, flight.departure, flight.arrival, 2, 'civil'))).toBeLessThanOrEqual(
      2,
    );
  });

  it('handles short and odd-length flights', () => {
    expect(nightSeconds({ dep: LEMD, arr: LEBL, departure: 1_780_000_000, arrival: 1_780_000_000 })).toBe(0);
    const night = u('2026-01-15T22:00:00Z');
    expect(nightSeconds({ dep: LEMD, arr: LEBL, departure: night, arrival: night + 97 })).toBe(97);
  });

  it('rejects reversed, non-finite or absurdly long flights', () => {
    expect(() => nightSeconds({ dep: LEMD, arr: LEBL, departure: 100, arrival: 50 })).toThrow(RangeError);
    expect(() => nightSeconds({ dep: LEMD, arr: LEBL, departure: 0, arrival: Number.NaN })).toThrow(RangeError);
    expect(() => nightSeconds({ dep: { lat: Number.NaN, lon: 0 }, arr: LEBL, departure: 0, arrival: 1 })).toThrow(
      RangeError,
    );
    expect(() => nightSeconds({ dep: LEMD, arr: LEBL, departure: 0, arrival: MAX_FLIGHT_SECONDS + 1 })).toThrow(
      RangeError,
    );
  });
});

describe('great circle', () => {
  it('measures LEMD-EGLL at about 670 NM and JFK-LHR at about 2990 NM', () => {
    expect(greatCircleDistanceNm(LEMD, EGLL)).toBeGreaterThan(660);
    expect(greatCircleDistanceNm(LEMD, EGLL)).toBeLessThan(680);
    expect(greatCircleDistanceNm(KJFK, EGLL)).toBeGreaterThan(2975);
    expect(greatCircleDistanceNm(KJFK, EGLL)).toBeLessThan(3005);
  });

  it('is symmetric and zero for the same point', () => {
    expect(greatCircleDistanceNm(LEMD, LEMD)).toBe(0);
    expect(greatCircleDistanceNm(EGLL, LEMD)).toBeCloseTo(greatCircleDistanceNm(LEMD, EGLL), 9);
    // A quarter of the equator: 90 degrees of arc, 60 NM per degree on the mean sphere.
    expect(greatCircleDistanceNm({ lat: 0, lon: 0 }, { lat: 0, lon: 90 })).toBeCloseTo(90 * 60.04, 0);
  });

  it('interpolates endpoints and stays on the great circle', () => {
    expect(greatCirclePoint(LEMD, EGLL, 0).lat).toBeCloseTo(LEMD.lat, 9);
    expect(greatCirclePoint(LEMD, EGLL, 1).lon).toBeCloseTo(EGLL.lon, 9);
    const mid = greatCirclePoint(LEMD, EGLL, 0.5);
    const total = greatCircleDistanceNm(LEMD, EGLL);
    expect(greatCircleDistanceNm(LEMD, mid)).toBeCloseTo(total / 2, 3);
    expect(greatCircleDistanceNm(mid, EGLL)).toBeCloseTo(total / 2, 3);
    expect(greatCirclePoint(LEMD, LEMD, 0.7)).toEqual(LEMD);
  });

  it('crosses the antimeridian the short way (Tokyo to Los Angeles)', () => {
    const mid = greatCirclePoint(RJAA, KLAX, 0.5);
    expect(Math.abs(mid.lon)).toBeGreaterThan(165);
    expect(mid.lat).toBeGreaterThan(40); // the great circle bows north of both airports
  });
});
