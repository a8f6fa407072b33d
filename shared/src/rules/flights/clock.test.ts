import { describe, expect, it } from 'vitest';
import { delayedFrom, flightZone, instantsFromClock, midnightIn, statusOnRead, wallClock } from './clock.ts';
import { DELAY_AFTER_SECONDS } from './flight-times.ts';

const MADRID = 'Europe/Madrid';

describe('flight clock', () => {
  it('logs in the flight zone when the company has one', () => {
    expect(flightZone({ company: { flightTimezone: 'UTC', timezone: MADRID } })).toBe('UTC');
    expect(flightZone({ company: { flightTimezone: null, timezone: MADRID } })).toBe(MADRID);
  });

  it('turns a wall clock into instants, the next day when a time is earlier', () => {
    const r = instantsFromClock(
      '2025-07-01',
      { offblocks: '23:30', takeoff: '23:40', landing: '00:20', onblocks: '00:30' },
      'UTC',
    );
    expect(r).toEqual({
      ok: true,
      at: {
        offblocks: 1751412600,
        takeoff: 1751413200,
        landing: 1751415600,
        onblocks: 1751416200,
        block_time: 3600,
        flight_time: 2400,
      },
    });
    expect(wallClock(1751416200, 'UTC')).toBe('00:30');
    expect(wallClock(null, 'UTC')).toBeNull();
  });

  it('saves a flight without times as a draft would be', () => {
    expect(
      instantsFromClock('2025-07-01', { offblocks: null, takeoff: null, landing: null, onblocks: null }, MADRID),
    ).toEqual({
      ok: true,
      at: { offblocks: null, takeoff: null, landing: null, onblocks: null, block_time: 0, flight_time: 0 },
    });
  });

  it('starts a day at midnight in the zone and reads DELAYED only after the delay', () => {
    expect(midnightIn('2025-07-01', MADRID)).toBe(1751320800);
    const off = 1751412600;
    expect(delayedFrom(off)).toBe(off + DELAY_AFTER_SECONDS + 1);
    expect(statusOnRead('SCHEDULED', off, off + DELAY_AFTER_SECONDS)).toBe('SCHEDULED');
    expect(statusOnRead('SCHEDULED', off, delayedFrom(off))).toBe('DELAYED');
  });
});
