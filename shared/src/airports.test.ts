import { describe, expect, it } from 'vitest';
import { getAirport, loadAirports, searchAirports } from './airports.ts';

describe('airport database', () => {
  it('ships thousands of airports with ICAO code, country and IANA zone', () => {
    const all = loadAirports();
    expect(all.length).toBeGreaterThan(7000);
    expect(all.every((a) => /^[A-Z]{2}[A-Z0-9]{2}$/.test(a.icao) && a.tz.includes('/') || a.tz === 'UTC')).toBe(true);
  });

  it('has the fixture airports with their zones', () => {
    expect(getAirport('LECU')).toMatchObject({ city: 'Madrid', country_iso: 'ES', tz: 'Europe/Madrid' });
    expect(getAirport('lell')).toMatchObject({ name: 'Sabadell Airport', tz: 'Europe/Madrid' });
    expect(getAirport('KFRG')).toMatchObject({ city: 'Farmingdale', country_iso: 'US', tz: 'America/New_York' });
    expect(getAirport('ZZZZ')).toBeNull();
  });

  it('searches ICAO prefixes first', () => {
    const r = searchAirports('LEC');
    expect(r.length).toBeGreaterThan(0);
    expect(r.every((a) => a.icao.startsWith('LEC'))).toBe(true);
  });

  it('falls back to name or city prefixes, accent-insensitive, at most 10', () => {
    const madrid = searchAirports('madrid');
    expect(madrid.map((a) => a.icao)).toEqual(expect.arrayContaining(['LEMD', 'LECU']));
    expect(madrid.length).toBeLessThanOrEqual(10);
    expect(searchAirports('tromsø').map((a) => a.icao)).toContain('ENTC');
    expect(searchAirports('a').length).toBe(10);
  });
});
