import { describe, expect, it } from 'vitest';
import { type FlightDraftInput, latestFlightDate, validateFlightDraft } from './validation.ts';
import { translator } from '../../i18n/index.ts';

const today = '2026-06-15';
const good: FlightDraftInput = {
  date: '2026-06-10',
  aircraft_id: 'ac',
  departure_airport: 'LECU',
  landing_airport: 'LEVD',
  offblocks_time: '10:00',
  takeoff_time: '10:10',
  landing_time: '11:00',
  onblocks_time: '11:10',
  landings: 1,
  night_landings: 0,
  callsign: 'SKY101',
  remarks: 'Fine',
};
const check = (patch: Partial<FlightDraftInput>) => validateFlightDraft({ ...good, ...patch }, { today });

describe('validateFlightDraft', () => {
  it('accepts a complete flight, with or without take-off and landing times', () => {
    expect(check({})).toEqual({});
    expect(check({ takeoff_time: null, landing_time: null })).toEqual({});
  });

  it('an empty form names every required field, each with its own sentence', () => {
    const e = validateFlightDraft(
      {
        date: '',
        aircraft_id: null,
        departure_airport: '',
        landing_airport: null,
        offblocks_time: '',
        onblocks_time: null,
      },
      { today },
    );
    expect(Object.keys(e).sort()).toEqual(
      ['aircraft_id', 'date', 'departure_airport', 'landing_airport', 'offblocks_time', 'onblocks_time'].sort(),
    );
    expect(e.aircraft_id).toBe('Choose the aircraft.');
    expect(e.departure_airport).toMatch(/departure airport/);
  });

  it('dates: not before 1950, not more than 366 days ahead, a real calendar date', () => {
    expect(check({ date: '1900-01-01' }).date).toBe('The date cannot be before 1 January 1950.');
    expect(check({ date: '1950-01-01' }).date).toBeUndefined();
    expect(check({ date: '2999-12-31' }).date).toMatch(/366 days ahead \(after 2027-06-16\)/);
    expect(check({ date: latestFlightDate(today) }).date).toBeUndefined();
    expect(check({ date: '2026-02-30' }).date).toMatch(/real date/);
  });

  it('landings within 0..99, night landings not above landings', () => {
    expect(check({ landings: 999 }).landings).toBe('At most 99 landings on one flight.');
    expect(check({ landings: 99 }).landings).toBeUndefined();
    expect(check({ landings: -1 }).landings).toMatch(/0 or more/);
    expect(check({ landings: 2, night_landings: 3 }).night_landings).toMatch(/more than the landings/);
  });

  it('too long callsign and remarks are errors naming the length, never cut', () => {
    expect(check({ callsign: 'X'.repeat(21) }).callsign).toBe(
      'A callsign has at most 20 characters; this text has 21.',
    );
    expect(check({ callsign: 'X'.repeat(20) }).callsign).toBeUndefined();
    expect(check({ remarks: 'r'.repeat(2001) }).remarks).toBe(
      'Remarks have at most 2000 characters; this text has 2001.',
    );
  });

  it('airports are ICAO codes; on-blocks cannot equal off-blocks', () => {
    expect(check({ departure_airport: 'MADRID' }).departure_airport).toMatch(/ICAO code is 3 or 4/);
    expect(check({ onblocks_time: '10:00' }).onblocks_time).toBe('On-blocks must be later than off-blocks.');
  });
});

describe('the field sentences in the reader language (issue 33)', () => {
  const draft: FlightDraftInput = {
    date: '',
    aircraft_id: null,
    departure_airport: null,
    landing_airport: 'LECU',
    offblocks_time: '10:00',
    onblocks_time: '11:00',
    landings: 1000,
    callsign: 'X'.repeat(40),
  };
  it('are the same English sentences with the English translator, and Spanish with the Spanish one', () => {
    const today = '2025-06-01';
    expect(validateFlightDraft(draft, { today, t: translator('en') })).toEqual(validateFlightDraft(draft, { today }));
    const es = validateFlightDraft(draft, { today, t: translator('es') });
    expect(es.date).toBe('Elija la fecha del vuelo.');
    expect(es.aircraft_id).toBe('Elija la aeronave.');
    expect(es.departure_airport).toBe('Indique el aeródromo de salida (código OACI como LECU).');
    expect(es.callsign).toMatch(/^Un indicativo tiene como máximo \d+ caracteres; este texto tiene 40\.$/);
    expect(Object.keys(es).sort()).toEqual(Object.keys(validateFlightDraft(draft, { today })).sort());
  });
});
