import { describe, expect, it } from 'vitest';
import { getAirport, loadAirports, searchAirports } from './airports.ts';

describe('airport database', () => {
  it('ships tens of thousands of airports, each with an ICAO code, a country and an IANA zone', () => {
    const all = loadAirports();
    expect(all.length).toBeGreaterThan(15000);
    expect(new Set(all.map((a) => a.icao)).size).toBe(all.length);
    const valid = (tz: string) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    };
    const bad = all.filter(
      (a) =>
        !/^[A-Z]{2}[A-Z0-9]{2}$/.test(a.icao) ||
        !/^[A-Z]{2}$/.test(a.country_iso ?? '') ||
        !a.country_name ||
        !a.name ||
        Math.abs(a.lat) > 90 ||
        Math.abs(a.lon) > 180,
    );
    expect(bad).toEqual([]);
    expect([...new Set(all.map((a) => a.tz))].filter((tz) => !valid(tz))).toEqual([]);
    expect(all.map((a) => a.icao)).toEqual(all.map((a) => a.icao).sort());
  });

  it('has the fixture airports, small fields included, with their zones', () => {
    expect(getAirport('LECU')).toEqual({
      icao: 'LECU',
      name: 'Madrid-Cuatro Vientos Airport',
      city: 'Madrid',
      country_iso: 'ES',
      country_name: 'Spain',
      lat: 40.3707,
      lon: -3.78514,
      tz: 'Europe/Madrid',
    });
    expect(getAirport(' lell ')).toMatchObject({
      icao: 'LELL',
      city: 'Sabadell',
      country_iso: 'ES',
      tz: 'Europe/Madrid',
    });
    expect(getAirport('KFRG')).toMatchObject({
      name: 'Republic Airport',
      country_iso: 'US',
      country_name: 'United States',
      tz: 'America/New_York',
    });
    for (const [icao, tz] of [
      ['LEMD', 'Europe/Madrid'],
      ['LEBL', 'Europe/Madrid'],
      ['KJFK', 'America/New_York'],
      ['EGLL', 'Europe/London'],
      ['ENTC', 'Europe/Oslo'],
    ]) {
      expect(getAirport(icao)?.tz, icao).toBe(tz);
    }
    expect(getAirport('ZZZZ')).toBeNull();
  });

  it('uses current ICAO codes and leaves out FAA local identifiers', () => {
    // OurAirports keeps Lima under its old ident SPIM; its gps_code is the current SPJC.
    expect(getAirport('SPJC')).toMatchObject({ city: 'Lima', tz: 'America/Lima' });
    expect(getAirport('SPIM')).toBeNull();
    // US private strips whose ident is an FAA local id (state + digits) are not ICAO codes.
    expect(loadAirports().filter((a) => a.country_iso === 'US' && !/^(K[A-Z0-9]{3}|P[A-Z]{3})$/.test(a.icao))).toEqual(
      [],
    );
  });

  it('searches ICAO prefixes first, case-insensitively, at most 10 by default', () => {
    const r = searchAirports('LEC');
    expect(r.length).toBeGreaterThan(0);
    expect(r.length).toBeLessThanOrEqual(10);
    expect(r.every((a) => a.icao.startsWith('LEC'))).toBe(true);
    expect(r.map((a) => a.icao)).toContain('LECU');
    expect(searchAirports('lecu').map((a) => a.icao)).toEqual(['LECU']);
    expect(searchAirports('K')).toHaveLength(10);
    expect(searchAirports('K', 3)).toHaveLength(3);
  });

  it('falls back to city, name and word prefixes, case- and accent-insensitive, at most limit', () => {
    const madrid = searchAirports('madrid');
    expect(madrid.map((a) => a.icao)).toEqual(expect.arrayContaining(['LEMD', 'LECU']));
    expect(madrid.length).toBeLessThanOrEqual(10);
    // City prefixes rank before name and word prefixes.
    expect(madrid[0].city).toBe('Madrid');
    expect(searchAirports('MADRID', 2)).toHaveLength(2);
    expect(searchAirports('tromsø').map((a) => a.icao)).toContain('ENTC');
    expect(searchAirports('tromso').map((a) => a.icao)).toContain('ENTC');
    expect(searchAirports('barajas').map((a) => a.icao)).toEqual(['LEMD']);
    expect(searchAirports('farmingdale').map((a) => a.icao)).toContain('KFRG');
    expect(searchAirports('a')).toHaveLength(10);
    expect(searchAirports('')).toEqual([]);
    expect(searchAirports('zzzzzz')).toEqual([]);
  });
});
