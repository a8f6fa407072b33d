import { describe, expect, it } from 'vitest';
import {
  localHoursByMonth,
  localRoutes,
  localStatsFlightTypes,
  localStatsRules,
  localTotals,
  normaliseColor,
  type ReportFlight,
} from './local.ts';

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const f = (o: Partial<ReportFlight>): ReportFlight => ({
  status: 'LANDED',
  pic_id: 'P',
  sic_id: null,
  aircraft_id: 'A',
  flight_type_id: 'T',
  block_time: 3600,
  landings: 1,
  date: '2024-03-10',
  starts: at('2024-03-10T10:00:00Z'),
  onblocks: at('2024-03-10T11:00:00Z'),
  rules: 'VFR',
  departure_airport: 'LECU',
  landing_airport: 'LEMG',
  ...o,
});

describe('reports from flight rows (the offline logbook)', () => {
  const flights = [
    f({}),
    f({ pic_id: 'P', sic_id: 'P', block_time: 600, landings: 3 }), // both seats: once
    f({
      pic_id: 'Q',
      sic_id: 'P',
      rules: null,
      flight_type_id: null,
      date: '2024-02-01',
      starts: at('2024-02-01T10:00:00Z'),
    }),
    f({ status: 'DRAFT', block_time: 9999 }),
    f({ pic_id: 'Q', aircraft_id: 'B', departure_airport: 'ZZZZ' }),
  ];
  it('counts LANDED flights of the pilot once, PIC or SIC', () => {
    expect(localTotals(flights, { userId: 'P', aircraftId: null })).toEqual({ seconds: 7800, flights: 3, landings: 5 });
    expect(localTotals(flights, { userId: null, aircraftId: 'B' })).toEqual({ seconds: 3600, flights: 1, landings: 1 });
    expect(localTotals(flights, { userId: 'P', aircraftId: null }, { since: at('2024-03-01T00:00:00Z') }).flights).toBe(
      2,
    );
  });
  it('rules, types, months and routes in the server order', () => {
    expect(localStatsRules(flights, { userId: 'P', aircraftId: null }).rules.map((r) => r.rule)).toEqual([
      'VFR',
      'NONE',
    ]);
    const types = localStatsFlightTypes(
      flights,
      { userId: 'P', aircraftId: null },
      new Map([['T', { name: 'Solo', color: 'ABCDEF' }]]),
    );
    expect(types.types).toEqual([
      { id: 'T', name: 'Solo', color: '#abcdef', total: 4200 },
      { id: null, name: 'No flight type', color: '#9e9e9e', total: 3600 },
    ]);
    const months = localHoursByMonth(flights, { userId: 'P', aircraftId: null }, at('2024-03-15T00:00:00Z'), 'UTC', 1);
    expect(months.map((m) => [m.label, m.flights])).toEqual([
      ['2024-03', 2],
      ['2024-02', 1],
    ]);
    const coords = (c: string) => (c === 'ZZZZ' ? null : { icao: c, lat: 1, lon: 2 });
    expect(localRoutes(flights, { userId: null, aircraftId: 'B' }, coords).routes).toEqual([]);
    expect(localRoutes(flights, { userId: 'P', aircraftId: null }, coords).routes[0]).toMatchObject({
      from: 'LECU',
      to: 'LEMG',
      flights: 3,
    });
    expect(normaliseColor('#FfF')).toBe('#fff');
    expect(normaliseColor('red')).toBe('#9e9e9e');
  });
});
