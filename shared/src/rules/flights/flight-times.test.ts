import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  computeFlightTimes,
  FLIGHT_STATUSES,
  type FlightClockInput,
  findOverlaps,
  flightStatusOnRead,
  formatWallClock,
  STORED_FLIGHT_STATUSES,
  UNCONFIRMED_STATUSES,
} from './flight-times.ts';

const iso = (unix: number, zone: string) => DateTime.fromSeconds(unix, { zone }).toISO({ suppressMilliseconds: true });

describe('computeFlightTimes', () => {
  it('reads wall clock in UTC (Skyline flight zone)', () => {
    const r = computeFlightTimes({
      date: '2026-05-10',
      offblocks: '09:00',
      takeoff: '09:10',
      landing: '10:20',
      onblocks: '10:30',
      timeZone: 'UTC',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(iso(r.offblocks, 'UTC')).toBe('2026-05-10T09:00:00Z');
    expect(r.block_time).toBe(90 * 60);
    expect(r.flight_time).toBe(70 * 60);
  });

  it('reads wall clock in America/New_York (Harbor company zone)', () => {
    const r = computeFlightTimes({
      date: '2026-07-04',
      offblocks: '14:00',
      onblocks: '15:15',
      timeZone: 'America/New_York',
    });
    if (!r.ok) throw new Error('invalid');
    expect(iso(r.offblocks, 'UTC')).toBe('2026-07-04T18:00:00Z');
    expect(r.flight_time).toBe(r.block_time);
    expect(r.takeoff).toBeNull();
  });

  it('puts a time earlier than the previous one on the next day (across midnight)', () => {
    const r = computeFlightTimes({
      date: '2026-05-10',
      offblocks: '23:30',
      takeoff: '23:45',
      landing: '00:40',
      onblocks: '00:50',
      timeZone: 'UTC',
    });
    if (!r.ok) throw new Error('invalid');
    expect(iso(r.landing!, 'UTC')).toBe('2026-05-11T00:40:00Z');
    expect(r.block_time).toBe(80 * 60);
    expect(r.flight_time).toBe(55 * 60);
  });

  it('counts real elapsed time across a daylight-saving change', () => {
    // 2026-03-29 02:00 Europe/Madrid jumps to 03:00.
    const r = computeFlightTimes({
      date: '2026-03-29',
      offblocks: '01:30',
      onblocks: '03:30',
      timeZone: 'Europe/Madrid',
    });
    if (!r.ok) throw new Error('invalid');
    expect(r.block_time).toBe(3600);
  });

  it('rejects malformed times and dates with field errors', () => {
    const r = computeFlightTimes({
      date: '10/05/2026',
      offblocks: '24:00',
      takeoff: '9:5',
      landing: '',
      onblocks: '',
      timeZone: 'UTC',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['date', 'offblocks_time', 'onblocks_time', 'takeoff_time']);
  });

  it('requires takeoff and landing together', () => {
    const r = computeFlightTimes({
      date: '2026-05-10',
      offblocks: '09:00',
      takeoff: '09:10',
      onblocks: '10:00',
      timeZone: 'UTC',
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.landing_time).toMatch(/both/);
  });
});

describe('formatWallClock', () => {
  it('gives date and HH:MM in the zone', () => {
    expect(formatWallClock(Date.UTC(2026, 4, 10, 23, 30) / 1000, 'Europe/Madrid')).toEqual({
      date: '2026-05-11',
      time: '01:30',
    });
  });
});

describe('findOverlaps', () => {
  const f = (id: string, off: number, on: number, aircraft = 'A') => ({
    id,
    aircraft_id: aircraft,
    offblocks: off,
    onblocks: on,
  });
  it('finds overlapping flights of the same aircraft, ordered by off-blocks, capped', () => {
    const others = [f('c', 50, 150), f('b', 10, 60), f('x', 0, 1000, 'B'), f('t', 200, 300), f('touch', 100, 120)];
    const r = findOverlaps(f('me', 40, 100), others);
    expect(r.overlaps.map((o) => o.id)).toEqual(['b', 'c']);
    expect(r.total).toBe(2);
  });
  it('caps at the limit but reports the total', () => {
    const many = Array.from({ length: 30 }, (_, i) => f(`f${String(i).padStart(2, '0')}`, i, 1000 + i));
    const r = findOverlaps(f('me', 500, 600), many, 20);
    expect(r.overlaps).toHaveLength(20);
    expect(r.total).toBe(30);
    expect(r.overlaps[0].id).toBe('f00');
  });
  it('ignores itself and flights without times', () => {
    expect(
      findOverlaps(f('me', 0, 10), [f('me', 0, 10), { id: 'n', aircraft_id: 'A', offblocks: null, onblocks: null }])
        .total,
    ).toBe(0);
  });
});

describe('flightStatusOnRead', () => {
  it('is DELAYED only for SCHEDULED flights more than an hour late', () => {
    expect(flightStatusOnRead('SCHEDULED', 1000, 1000 + 3600)).toBe('SCHEDULED');
    expect(flightStatusOnRead('SCHEDULED', 1000, 1000 + 3601)).toBe('DELAYED');
    expect(flightStatusOnRead('DRAFT', 1000, 99999)).toBe('DRAFT');
  });
});

// ---------------------------------------------------------------------------
// Further cases: zones, DST, validation, overlap edges
// ---------------------------------------------------------------------------

const MADRID = 'Europe/Madrid';
const NEW_YORK = 'America/New_York';
const utc = (isoUtc: string): number => Date.parse(isoUtc) / 1000;
type ClockOnly = Omit<FlightClockInput, 'timeZone'>;
function times(input: ClockOnly, timeZone: string) {
  const r = computeFlightTimes({ ...input, timeZone });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const { ok: _ok, ...rest } = r;
  return rest;
}
function errors(input: ClockOnly, timeZone = 'UTC'): Record<string, string> {
  const r = computeFlightTimes({ ...input, timeZone });
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}

describe('computeFlightTimes: zones and midnight', () => {
  it('reads Europe/Madrid summer time (UTC+2) and returns every instant', () => {
    expect(
      times({ date: '2026-07-01', offblocks: '08:00', takeoff: '08:10', landing: '09:20', onblocks: '09:30' }, MADRID),
    ).toEqual({
      offblocks: utc('2026-07-01T06:00:00Z'),
      takeoff: utc('2026-07-01T06:10:00Z'),
      landing: utc('2026-07-01T07:20:00Z'),
      onblocks: utc('2026-07-01T07:30:00Z'),
      block_time: 5400,
      flight_time: 4200,
    });
  });

  it('reads Europe/Madrid winter time (UTC+1)', () => {
    expect(times({ date: '2026-01-15', offblocks: '08:00', onblocks: '09:00' }, MADRID).offblocks).toBe(
      utc('2026-01-15T07:00:00Z'),
    );
  });

  it('reads America/New_York winter time (UTC-5) and crosses midnight into the next UTC and local day', () => {
    const t = times(
      { date: '2026-01-15', offblocks: '22:00', takeoff: '22:15', landing: '23:50', onblocks: '00:05' },
      NEW_YORK,
    );
    expect(t.offblocks).toBe(utc('2026-01-16T03:00:00Z'));
    expect(t.onblocks).toBe(utc('2026-01-16T05:05:00Z'));
    expect(formatWallClock(t.onblocks, NEW_YORK)).toEqual({ date: '2026-01-16', time: '00:05' });
    expect(t.block_time).toBe(125 * 60);
    expect(t.flight_time).toBe(95 * 60);
  });

  it('crosses midnight between off-blocks and takeoff', () => {
    const t = times(
      { date: '2026-05-10', offblocks: '23:55', takeoff: '00:05', landing: '01:00', onblocks: '01:10' },
      MADRID,
    );
    expect(formatWallClock(t.takeoff!, MADRID)).toEqual({ date: '2026-05-11', time: '00:05' });
    expect(t.block_time).toBe(75 * 60);
    expect(t.flight_time).toBe(55 * 60);
  });

  it('keeps equal consecutive times on the same day (zero duration)', () => {
    const t = times(
      { date: '2026-05-10', offblocks: '10:00', takeoff: '10:00', landing: '10:30', onblocks: '10:30' },
      'UTC',
    );
    expect(t.block_time).toBe(1800);
    expect(t.flight_time).toBe(1800);
  });

  it('accepts surrounding spaces and treats blank takeoff and landing as missing', () => {
    const t = times(
      { date: '2026-05-10', offblocks: ' 10:00 ', takeoff: ' ', landing: null, onblocks: '11:00' },
      'UTC',
    );
    expect(t).toMatchObject({ takeoff: null, landing: null, block_time: 3600, flight_time: 3600 });
  });
});

describe('computeFlightTimes: daylight-saving days', () => {
  it('Madrid spring forward: 00:30 to 04:30 is three real hours', () => {
    const t = times({ date: '2026-03-29', offblocks: '00:30', onblocks: '04:30' }, MADRID);
    expect(t.offblocks).toBe(utc('2026-03-28T23:30:00Z'));
    expect(t.block_time).toBe(3 * 3600);
  });

  it('Madrid fall back: 01:30 to 03:30 is three real hours', () => {
    const t = times({ date: '2026-10-25', offblocks: '01:30', onblocks: '03:30' }, MADRID);
    expect(t.block_time).toBe(3 * 3600);
  });

  it('New York spring forward: 01:00 to 04:00 is two real hours', () => {
    expect(times({ date: '2026-03-08', offblocks: '01:00', onblocks: '04:00' }, NEW_YORK).block_time).toBe(2 * 3600);
  });

  it('rejects a time skipped by the spring jump', () => {
    const e = errors(
      { date: '2026-03-29', offblocks: '01:30', takeoff: '02:30', landing: '03:10', onblocks: '03:20' },
      MADRID,
    );
    expect(e).toEqual({
      takeoff_time: 'Takeoff time 02:30 does not exist on 2026-03-29 in Europe/Madrid (the clocks go forward).',
    });
  });

  it('takes the first occurrence of a repeated time', () => {
    const t = times({ date: '2026-10-25', offblocks: '02:10', onblocks: '02:50' }, MADRID);
    expect(t.offblocks).toBe(utc('2026-10-25T00:10:00Z')); // 02:10 CEST
    expect(t.block_time).toBe(40 * 60);
  });

  it('reads an earlier time after the clocks went back as the same night, not the next day', () => {
    // Off 02:40 CEST, the clocks go back at 03:00 CEST, on 02:10 CET: 30 minutes.
    const t = times({ date: '2026-10-25', offblocks: '02:40', onblocks: '02:10' }, MADRID);
    expect(t.onblocks).toBe(utc('2026-10-25T01:10:00Z'));
    expect(t.block_time).toBe(30 * 60);
  });

  it('moves a later time past a repeated-hour instant already used', () => {
    // Off 01:50 CEST, takeoff 02:50 CEST, landing 02:20 CET, on 02:30 CET.
    const t = times(
      { date: '2026-10-25', offblocks: '01:50', takeoff: '02:50', landing: '02:20', onblocks: '02:30' },
      MADRID,
    );
    expect(t.landing).toBe(utc('2026-10-25T01:20:00Z'));
    expect(t.onblocks).toBe(utc('2026-10-25T01:30:00Z'));
    expect(t.block_time).toBe(100 * 60);
    expect(t.flight_time).toBe(30 * 60);
  });
});

describe('computeFlightTimes: validation', () => {
  it('rejects hours 24 and above, minutes 60 and above, and loose formats', () => {
    for (const bad of ['24:00', '23:60', '9:05', '09:5', '0900', '09.00', 'ab:cd', '-1:00', '09:00:00']) {
      expect(errors({ date: '2026-05-10', offblocks: bad, onblocks: '23:59' }), bad).toEqual({
        offblocks_time: 'Off-blocks time must be HH:MM, hours 00 to 23 and minutes 00 to 59.',
      });
    }
    expect(computeFlightTimes({ date: '2026-05-10', offblocks: '00:00', onblocks: '23:59', timeZone: 'UTC' }).ok).toBe(
      true,
    );
  });

  it('requires off-blocks and on-blocks', () => {
    expect(errors({ date: '2026-05-10', offblocks: '', onblocks: '  ' })).toEqual({
      offblocks_time: 'Off-blocks time is required (HH:MM).',
      onblocks_time: 'On-blocks time is required (HH:MM).',
    });
  });

  it('asks for the missing one of takeoff and landing', () => {
    expect(errors({ date: '2026-05-10', offblocks: '09:00', landing: '09:50', onblocks: '10:00' })).toEqual({
      takeoff_time: 'Give both takeoff and landing times, or neither.',
    });
  });

  it('rejects impossible dates and unknown zones', () => {
    expect(errors({ date: '2026-02-30', offblocks: '09:00', onblocks: '10:00' })).toEqual({
      date: 'The date must be a real date written YYYY-MM-DD.',
    });
    expect(errors({ date: '2026-02-28', offblocks: '09:00', onblocks: '10:00' }, 'Mars/Olympus')).toEqual({
      time_zone: 'Unknown time zone Mars/Olympus.',
    });
  });

  it('rejects times out of order that would make a block over 24 hours', () => {
    // Takeoff typed before off-blocks pushes everything to the next day.
    expect(
      errors({ date: '2026-05-10', offblocks: '10:00', takeoff: '09:55', landing: '11:00', onblocks: '11:10' }),
    ).toEqual({
      onblocks_time: 'The times span more than 24 hours; check that they are in order.',
    });
    expect(times({ date: '2026-05-10', offblocks: '10:00', onblocks: '09:59' }, 'UTC').block_time).toBe(24 * 3600 - 60);
  });
});

describe('formatWallClock: more zones', () => {
  it('formats around the DST changes and rejects an unknown zone', () => {
    expect(formatWallClock(utc('2026-03-29T01:00:00Z'), MADRID)).toEqual({ date: '2026-03-29', time: '03:00' });
    expect(formatWallClock(utc('2026-10-25T01:30:00Z'), MADRID)).toEqual({ date: '2026-10-25', time: '02:30' });
    expect(formatWallClock(utc('2026-01-16T03:00:00Z'), NEW_YORK)).toEqual({ date: '2026-01-15', time: '22:00' });
    expect(() => formatWallClock(0, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('round-trips with computeFlightTimes', () => {
    const t = times({ date: '2026-07-04', offblocks: '23:40', onblocks: '01:15' }, NEW_YORK);
    expect(formatWallClock(t.offblocks, NEW_YORK)).toEqual({ date: '2026-07-04', time: '23:40' });
    expect(formatWallClock(t.onblocks, NEW_YORK)).toEqual({ date: '2026-07-05', time: '01:15' });
  });
});

describe('findOverlaps: edges', () => {
  const g = (id: string | null, off: number | null, on: number | null, aircraft: string | number | null = 'A') => ({
    id,
    aircraft_id: aircraft,
    offblocks: off,
    onblocks: on,
  });

  it('treats touching ends as no overlap on both sides, and containment as overlap', () => {
    const r = findOverlaps(g('me', 100, 200), [
      g('before', 0, 100),
      g('after', 200, 300),
      g('inside', 120, 130),
      g('around', 50, 250),
    ]);
    expect(r.overlaps.map((o) => o.id)).toEqual(['around', 'inside']);
  });

  it('checks a new flight without an id against every flight, and returns nothing for a flight without times or aircraft', () => {
    expect(findOverlaps(g(null, 0, 10), [g('a', 5, 15), g(null, 1, 2)]).total).toBe(2);
    expect(findOverlaps(g('me', null, 10), [g('a', 5, 15)]).total).toBe(0);
    expect(findOverlaps(g('me', 0, 10, null), [g('a', 5, 15, null)]).total).toBe(0);
  });

  it('matches numeric and text aircraft ids and breaks off-blocks ties by id', () => {
    const r = findOverlaps(g('me', 0, 100, 7), [g('b', 10, 20, '7'), g('a', 10, 30, 7), g('c', 5, 10, 8)]);
    expect(r.overlaps.map((o) => o.id)).toEqual(['a', 'b']);
  });

  it('defaults the limit to 20, keeps the other fields, and treats a negative limit as zero', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      ...g(`f${String(i).padStart(2, '0')}`, i, 1000),
      callsign: `C${i}`,
    }));
    const r = findOverlaps(g('me', 0, 1000), many);
    expect(r.overlaps).toHaveLength(20);
    expect(r.total).toBe(25);
    expect(r.overlaps[19].callsign).toBe('C19');
    expect(findOverlaps(g('me', 0, 1000), many, -1)).toEqual({ overlaps: [], total: 25 });
  });
});

describe('flightStatusOnRead: every status', () => {
  it('leaves every other status alone, and a SCHEDULED flight without a time', () => {
    for (const s of ['DRAFT', 'DISPATCHED', 'LANDED', 'CANCELED', 'DELETED', 'DELAYED'] as const) {
      expect(flightStatusOnRead(s, 0, 10 ** 9)).toBe(s);
    }
    expect(flightStatusOnRead('SCHEDULED', null, 10 ** 9)).toBe('SCHEDULED');
    expect(flightStatusOnRead('SCHEDULED', 1000, 500)).toBe('SCHEDULED');
  });

  it('lists the statuses, DELAYED never stored', () => {
    expect(FLIGHT_STATUSES).toEqual(['DRAFT', 'SCHEDULED', 'DELAYED', 'DISPATCHED', 'LANDED', 'CANCELED', 'DELETED']);
    expect(STORED_FLIGHT_STATUSES).not.toContain('DELAYED');
    expect(UNCONFIRMED_STATUSES).toEqual(['DRAFT', 'SCHEDULED', 'DELAYED', 'DISPATCHED']);
  });
});
