import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { computeFlightTimes, findOverlaps, flightStatusOnRead, formatWallClock } from './flight-times.ts';

const iso = (unix: number, zone: string) => DateTime.fromSeconds(unix, { zone }).toISO({ suppressMilliseconds: true });

describe('computeFlightTimes', () => {
  it('reads wall clock in UTC (Skyline flight zone)', () => {
    const r = computeFlightTimes({ date: '2026-05-10', offblocks: '09:00', takeoff: '09:10', landing: '10:20', onblocks: '10:30' }, 'UTC');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(iso(r.times.offblocks, 'UTC')).toBe('2026-05-10T09:00:00Z');
    expect(r.times.block_time).toBe(90 * 60);
    expect(r.times.flight_time).toBe(70 * 60);
  });

  it('reads wall clock in America/New_York (Harbor company zone)', () => {
    const r = computeFlightTimes({ date: '2026-07-04', offblocks: '14:00', onblocks: '15:15' }, 'America/New_York');
    if (!r.ok) throw new Error('invalid');
    expect(iso(r.times.offblocks, 'UTC')).toBe('2026-07-04T18:00:00Z');
    expect(r.times.flight_time).toBe(r.times.block_time);
    expect(r.times.takeoff).toBeNull();
  });

  it('puts a time earlier than the previous one on the next day (across midnight)', () => {
    const r = computeFlightTimes({ date: '2026-05-10', offblocks: '23:30', takeoff: '23:45', landing: '00:40', onblocks: '00:50' }, 'UTC');
    if (!r.ok) throw new Error('invalid');
    expect(iso(r.times.landing!, 'UTC')).toBe('2026-05-11T00:40:00Z');
    expect(r.times.block_time).toBe(80 * 60);
    expect(r.times.flight_time).toBe(55 * 60);
  });

  it('counts real elapsed time across a daylight-saving change', () => {
    // 2026-03-29 02:00 Europe/Madrid jumps to 03:00.
    const r = computeFlightTimes({ date: '2026-03-29', offblocks: '01:30', onblocks: '03:30' }, 'Europe/Madrid');
    if (!r.ok) throw new Error('invalid');
    expect(r.times.block_time).toBe(3600);
  });

  it('rejects malformed times and dates with field errors', () => {
    const r = computeFlightTimes({ date: '10/05/2026', offblocks: '24:00', takeoff: '9:5', landing: '', onblocks: '' }, 'UTC');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['date', 'offblocks_time', 'onblocks_time', 'takeoff_time']);
  });

  it('requires takeoff and landing together', () => {
    const r = computeFlightTimes({ date: '2026-05-10', offblocks: '09:00', takeoff: '09:10', onblocks: '10:00' }, 'UTC');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.landing_time).toMatch(/both/);
  });
});

describe('formatWallClock', () => {
  it('gives date and HH:MM in the zone', () => {
    expect(formatWallClock(Date.UTC(2026, 4, 10, 23, 30) / 1000, 'Europe/Madrid')).toEqual({ date: '2026-05-11', time: '01:30' });
  });
});

describe('findOverlaps', () => {
  const f = (id: string, off: number, on: number, aircraft = 'A') => ({ id, aircraft_id: aircraft, offblocks: off, onblocks: on });
  it('finds overlapping flights of the same aircraft, ordered by off-blocks, capped', () => {
    const others = [f('c', 50, 150), f('b', 10, 60), f('x', 0, 1000, 'B'), f('t', 200, 300), f('touch', 100, 120)];
    const r = findOverlaps(f('me', 40, 100), others);
    expect(r.conflicts.map((o) => o.id)).toEqual(['b', 'c']);
    expect(r.total).toBe(2);
  });
  it('caps at the limit but reports the total', () => {
    const many = Array.from({ length: 30 }, (_, i) => f(`f${String(i).padStart(2, '0')}`, i, 1000 + i));
    const r = findOverlaps(f('me', 500, 600), many, 20);
    expect(r.conflicts).toHaveLength(20);
    expect(r.total).toBe(30);
    expect(r.conflicts[0].id).toBe('f00');
  });
  it('ignores itself and flights without times', () => {
    expect(findOverlaps(f('me', 0, 10), [f('me', 0, 10), { id: 'n', aircraft_id: 'A', offblocks: null, onblocks: null }]).total).toBe(0);
  });
});

describe('flightStatusOnRead', () => {
  it('is DELAYED only for SCHEDULED flights more than an hour late', () => {
    expect(flightStatusOnRead('SCHEDULED', 1000, 1000 + 3600)).toBe('SCHEDULED');
    expect(flightStatusOnRead('SCHEDULED', 1000, 1000 + 3601)).toBe('DELAYED');
    expect(flightStatusOnRead('DRAFT', 1000, 99999)).toBe('DRAFT');
  });
});
