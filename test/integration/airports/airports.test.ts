import { getAirport } from '@ops/shared/airports';
import { nightSeconds, sunTimes } from '@ops/shared/rules/airports/night-time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;

describe.each(DIALECTS)('airports on %s', (dialect) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    token = await s.login('pilot@skyline.test');
  });
  afterAll(() => s?.close());

  describe('GET /airports/search.json (public)', () => {
    it('answers without credentials: ICAO prefix first, rows {Airport, Country, Timezone}', async () => {
      const r = await s.api('GET', '/airports/search.json?q=LEC');
      expect(r.status).toBe(200);
      expect(r.body.airports.length).toBeGreaterThan(0);
      expect(r.body.airports.length).toBeLessThanOrEqual(10);
      expect(r.body.airports.every((a: any) => a.Airport.id.startsWith('LEC'))).toBe(true);
      const lecu = r.body.airports.find((a: any) => a.Airport.id === 'LECU');
      expect(lecu).toEqual({
        Airport: { id: 'LECU', name: 'Madrid-Cuatro Vientos Airport', city: 'Madrid', lat: 40.3707, lon: -3.78514 },
        Country: { id: 'ES', name: 'Spain' },
        Timezone: { id: 'Europe/Madrid', name: 'Europe/Madrid' },
      });
      // Lower case ICAO and a presented token work the same.
      const lower = await s.api('GET', '/airports/search.json?q=lecu', { token });
      expect(lower.body.airports.map((a: any) => a.Airport.id)).toEqual(['LECU']);
    });

    it('falls back to a name or city prefix; at most 10; empty query answers nothing', async () => {
      const madrid = await s.api('GET', '/airports/search.json?q=madrid');
      const codes = madrid.body.airports.map((a: any) => a.Airport.id);
      expect(codes).toEqual(expect.arrayContaining(['LEMD', 'LECU']));
      const many = await s.api('GET', '/airports/search.json?q=a');
      expect(many.body.airports).toHaveLength(10);
      const city = await s.api('GET', '/airports/search.json?q=Farmingdale');
      expect(city.body.airports.map((a: any) => a.Airport.id)).toContain('KFRG');
      expect((await s.api('GET', '/airports/search.json')).body.airports).toEqual([]);
      expect((await s.api('GET', '/airports/search.json?q=zzzzzz')).body.airports).toEqual([]);
      expect((await s.api('GET', `/airports/search.json?q=${'x'.repeat(101)}`)).status).toBe(400);
    });
  });

  describe('GET /airports/view (public)', () => {
    it('gives the airport, its zone and the official sunrise and sunset of a date in the airport zone', async () => {
      const r = await s.api('GET', '/airports/view/LECU/2024-06-21.json');
      expect(r.status).toBe(200);
      const a = r.body.airport;
      expect(a.Airport).toMatchObject({
        id: 'LECU',
        name: 'Madrid-Cuatro Vientos Airport',
        lat: 40.3707,
        lon: -3.78514,
      });
      expect(a.Country).toEqual({ id: 'ES', name: 'Spain' });
      expect(a.Timezone).toMatchObject({ id: 'Europe/Madrid', offset: '+02:00', offset_hours: 2 });
      const sun = sunTimes(40.3707, -3.78514, '2024-06-21', 'Europe/Madrid');
      expect(a.Sun).toMatchObject({
        date: '2024-06-21',
        sunrise: sun.sunrise,
        sunset: sun.sunset,
        polar: null,
        definition: 'official',
      });
      // Madrid midsummer: sunrise about 06:45 and sunset about 21:48 local time.
      expect(a.Sun.sunrise_time).toMatch(/^06:4\d$/);
      expect(a.Sun.sunset_time).toMatch(/^21:4\d$/);
      expect(a.Sun.daylight).toBe(sun.sunset! - sun.sunrise!);
      // Winter at the same place: later sunrise, shorter day, offset +01:00.
      const winter = await s.api('GET', '/airports/view/LECU/2024-12-21.json');
      expect(winter.body.airport.Timezone.offset).toBe('+01:00');
      expect(winter.body.airport.Sun.daylight).toBeLessThan(a.Sun.daylight - 5 * 3600);
    });

    it('reads a unix date as the local date at the airport; no date means today', async () => {
      // 2024-06-21 02:00 UTC is still the 20th in New York.
      const r = await s.api('GET', `/airports/view/kfrg/${utc('2024-06-21T02:00:00')}.json`);
      expect(r.body.airport.Sun.date).toBe('2024-06-20');
      expect(r.body.airport.Timezone.id).toBe('America/New_York');
      const today = await s.api('GET', '/airports/view/KFRG.json');
      expect(today.status).toBe(200);
      expect(today.body.airport.Sun.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it('polar day and night are flagged', async () => {
      const tromso = await s.api('GET', '/airports/view/ENTC/2024-06-21.json');
      expect(tromso.body.airport.Sun).toMatchObject({ polar: 'day', sunrise: null, sunset: null, daylight: 86400 });
      const winter = await s.api('GET', '/airports/view/ENTC/2024-12-21.json');
      expect(winter.body.airport.Sun).toMatchObject({ polar: 'night', daylight: 0 });
    });

    it('an unknown airport is 404; a bad code or date 400', async () => {
      expect((await s.api('GET', '/airports/view/ZZZZ.json')).status).toBe(404);
      expect((await s.api('GET', '/airports/view/L$CU.json')).status).toBe(400);
      expect((await s.api('GET', '/airports/view/LECU/2024-02-30.json')).status).toBe(400);
      expect((await s.api('GET', '/airports/view/LECU/tomorrow.json')).status).toBe(400);
    });
  });

  describe('GET /airports/night_time', () => {
    it('needs credentials (only search and view are public)', async () => {
      expect((await s.api('GET', '/airports/night_time/LECU/LELL/1718000000/1718003600.json')).status).toBe(401);
    });

    it('is 0 in daylight, all of it at night, and the part after sunset across it', async () => {
      const ask = (dep: string, arr: string, d: string | number, a: string | number) =>
        s.api('GET', `/airports/night_time/${dep}/${arr}/${d}/${a}.json`, { token });
      const day = await ask('LECU', 'LELL', utc('2024-06-10T10:00:00'), utc('2024-06-10T11:00:00'));
      expect(day.body).toEqual({ seconds: 0 });
      const night = await ask('LECU', 'LECU', utc('2024-06-10T23:00:00'), utc('2024-06-11T01:00:00'));
      expect(night.body.seconds).toBe(7200);
      const across = await ask('LECU', 'LELL', utc('2024-06-10T19:10:00'), utc('2024-06-10T20:40:00'));
      const expected = nightSeconds({
        dep: getAirport('LECU')!,
        arr: getAirport('LELL')!,
        departure: utc('2024-06-10T19:10:00'),
        arrival: utc('2024-06-10T20:40:00'),
      });
      expect(across.body.seconds).toBe(expected);
      expect(across.body.seconds).toBeGreaterThan(0);
      expect(across.body.seconds).toBeLessThan(5400);
      // Date-time strings work like unix seconds (no offset: UTC).
      const strings = await ask('LECU', 'LELL', '2024-06-10T19:10:00Z', '2024-06-10 20:40:00');
      expect(strings.body.seconds).toBe(expected);
    });

    it('refuses unknown airports (404), bad times and arrival before departure (400)', async () => {
      const ask = (p: string) => s.api('GET', `/airports/night_time/${p}.json`, { token });
      expect((await ask('LECU/ZZZZ/1718000000/1718003600')).status).toBe(404);
      expect((await ask('LECU/LELL/soon/1718003600')).status).toBe(400);
      const backwards = await ask('LECU/LELL/1718003600/1718000000');
      expect(backwards.status).toBe(400);
      expect(backwards.body.errors.aTime).toBeDefined();
      expect((await ask(`LECU/LELL/1718000000/${1718000000 + 8 * 86400}`)).status).toBe(400);
    });
  });
});
