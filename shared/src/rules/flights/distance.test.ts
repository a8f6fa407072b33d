import { describe, expect, it } from 'vitest';
import { flightDistanceNm } from './distance.ts';

const LECU = { lat: 40.3706, lon: -3.7851 };
const LELL = { lat: 41.5209, lon: 2.105 };
const EGLL = { lat: 51.4706, lon: -0.4619 };
const KJFK = { lat: 40.6398, lon: -73.7789 };

describe('flightDistanceNm (Part B 4.6.2)', () => {
  it('is the great-circle distance in nautical miles, to 0.1 NM', () => {
    // Madrid Cuatro Vientos to Sabadell: about 270 NM.
    const d = flightDistanceNm(LECU, LELL);
    expect(d).toBeGreaterThan(260);
    expect(d).toBeLessThan(280);
    expect(Math.round(d * 10)).toBe(d * 10);
    // London Heathrow to New York JFK: 2991 NM on a sphere of mean Earth radius (3,000 within 1%).
    expect(flightDistanceNm(EGLL, KJFK)).toBeGreaterThan(2960);
    expect(flightDistanceNm(EGLL, KJFK)).toBeLessThan(3010);
  });

  it('is symmetric, and 0 for a local flight', () => {
    expect(flightDistanceNm(LECU, LELL)).toBe(flightDistanceNm(LELL, LECU));
    expect(flightDistanceNm(LECU, LECU)).toBe(0);
  });

  it('is 0 when an airport is unknown', () => {
    expect(flightDistanceNm(null, LELL)).toBe(0);
    expect(flightDistanceNm(LECU, undefined)).toBe(0);
  });

  it('takes the short way across the antimeridian', () => {
    // 1 degree of longitude apart on the equator: 60 NM, not 21,540.
    expect(flightDistanceNm({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 })).toBeCloseTo(60, 0);
  });
});
