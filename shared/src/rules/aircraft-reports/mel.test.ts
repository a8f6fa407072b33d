import { describe, expect, it } from 'vitest';
import {
  AIRCRAFT_STATUSES,
  aircraftBlock,
  checkExtension,
  closureStamp,
  computeMelWindow,
  DISPATCH_CONDITIONS,
  defaultInterval,
  EXPIRING_SOON_SECONDS,
  INTERVAL_TYPES,
  isCounterInterval,
  LIMITATION_CODES,
  MEL_CATEGORIES,
  type MelCounters,
  type MelItemState,
  melDeadline,
  melStatus,
  REPORT_STATUSES,
  REPORT_TYPES,
  remapLegacyReportType,
  SEVERITIES,
} from './mel.ts';
import { canActOnMel, canBeReleaser } from './policy.ts';

/** Unix seconds of an ISO instant with explicit offset. */
const u = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad ISO ${iso}`);
  return ms / 1000;
};
const DAY = 86400;
const MADRID = 'Europe/Madrid';
const NEW_YORK = 'America/New_York';
const NO_USE: MelCounters = { flights: 100, cycles: 200, flightDays: 0 };

function item(over: Partial<MelItemState> = {}): MelItemState {
  return {
    category: 'B',
    interval_type: 'CALENDAR_DAYS',
    interval_value: 3,
    starts: u('2026-03-28T00:00:00+01:00'),
    expires: u('2026-03-31T00:00:00+02:00'),
    baseline_flights: null,
    baseline_cycles: null,
    extended: false,
    extended_until: null,
    report_status: 'DEFERRED',
    ...over,
  };
}

describe('enums', () => {
  it('lists the spec values', () => {
    expect(MEL_CATEGORIES).toEqual(['A', 'B', 'C', 'D']);
    expect(INTERVAL_TYPES).toEqual(['NEXT_FLIGHT', 'CALENDAR_DAYS', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES']);
    expect(LIMITATION_CODES).toEqual(['NO_ETOPS', 'NO_RVSM', 'NO_RNP_AR', 'NO_ICING', 'NO_IFR', 'NO_NIGHT', 'DAY_VFR']);
    expect(REPORT_TYPES).toEqual(['DEFECT', 'INFO', 'MEL', 'CDL', 'MAINTENANCE_ACTION', 'SERVICING']);
    expect(SEVERITIES).toEqual(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);
    expect(DISPATCH_CONDITIONS).toEqual(['NONE', 'GROUNDED', 'MEL', 'CDL', 'MONITOR']);
    expect(REPORT_STATUSES).toEqual(['OPEN', 'DEFERRED', 'CLOSED']);
    expect(AIRCRAFT_STATUSES).toEqual(['FLYABLE', 'GROUNDED']);
  });

  it('classifies counter intervals', () => {
    expect(isCounterInterval('CALENDAR_DAYS')).toBe(false);
    expect(isCounterInterval(null)).toBe(false);
    for (const t of ['NEXT_FLIGHT', 'FLIGHTS', 'FLIGHT_DAYS', 'CYCLES'] as const)
      expect(isCounterInterval(t)).toBe(true);
  });
});

describe('remapLegacyReportType', () => {
  it('maps the removed types and leaves others alone', () => {
    expect(remapLegacyReportType('OBSERVATION')).toBe('INFO');
    expect(remapLegacyReportType('RESTRICTION')).toBe('DEFECT');
    expect(remapLegacyReportType('MEL')).toBe('MEL');
    expect(remapLegacyReportType('whatever')).toBe('whatever');
  });
});

describe('defaultInterval', () => {
  it('gives the standard interval per category', () => {
    expect(defaultInterval('A')).toEqual({
      ok: true,
      interval: { interval_type: 'NEXT_FLIGHT', interval_value: null },
    });
    expect(defaultInterval('B')).toEqual({ ok: true, interval: { interval_type: 'CALENDAR_DAYS', interval_value: 3 } });
    expect(defaultInterval('C')).toEqual({
      ok: true,
      interval: { interval_type: 'CALENDAR_DAYS', interval_value: 10 },
    });
    expect(defaultInterval('D')).toEqual({
      ok: true,
      interval: { interval_type: 'CALENDAR_DAYS', interval_value: 120 },
    });
    expect(defaultInterval('B', { interval_type: null, interval_value: null })).toEqual(defaultInterval('B'));
  });

  it('has no interval for a category-less CDL item, even when one is posted', () => {
    expect(defaultInterval(null)).toEqual({ ok: true, interval: null });
    expect(defaultInterval(null, { interval_type: 'FLIGHTS', interval_value: 4 })).toEqual({
      ok: true,
      interval: null,
    });
  });

  it('ignores a value posted without a type', () => {
    expect(defaultInterval('C', { interval_value: 50 })).toEqual(defaultInterval('C'));
  });

  it('lets category A use flights, flight days or cycles', () => {
    for (const t of ['FLIGHTS', 'FLIGHT_DAYS', 'CYCLES'] as const) {
      expect(defaultInterval('A', { interval_type: t, interval_value: 4 })).toEqual({
        ok: true,
        interval: { interval_type: t, interval_value: 4 },
      });
    }
  });

  it('refuses CALENDAR_DAYS for category A', () => {
    const r = defaultInterval('A', { interval_type: 'CALENDAR_DAYS', interval_value: 2 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/category A/);
  });

  it('accepts a posted interval for B, C and D', () => {
    expect(defaultInterval('B', { interval_type: 'FLIGHTS', interval_value: 6 })).toEqual({
      ok: true,
      interval: { interval_type: 'FLIGHTS', interval_value: 6 },
    });
    expect(defaultInterval('D', { interval_type: 'CALENDAR_DAYS', interval_value: 30 })).toEqual({
      ok: true,
      interval: { interval_type: 'CALENDAR_DAYS', interval_value: 30 },
    });
  });

  it('drops the value of NEXT_FLIGHT', () => {
    expect(defaultInterval('B', { interval_type: 'NEXT_FLIGHT', interval_value: 7 })).toEqual({
      ok: true,
      interval: { interval_type: 'NEXT_FLIGHT', interval_value: null },
    });
  });

  it.each([undefined, null, 0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'requires a positive whole value (%s)',
    (v) => {
      for (const t of ['FLIGHTS', 'FLIGHT_DAYS', 'CYCLES', 'CALENDAR_DAYS'] as const) {
        const r = defaultInterval('C', { interval_type: t, interval_value: v });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.reason).toContain(t);
      }
    },
  );

  it('rejects an unknown type coming from an untyped client', () => {
    const r = defaultInterval('B', { interval_type: 'WEEKS' as unknown as 'FLIGHTS', interval_value: 1 });
    expect(r.ok).toBe(false);
  });
});

describe('computeMelWindow', () => {
  const base = { aircraftFlights: 120, aircraftCycles: 340 };

  it('starts at company midnight of the next day and ends after N days (Madrid, DST spring forward)', () => {
    const w = computeMelWindow({
      ...base,
      raisedAt: u('2026-03-27T15:30:00+01:00'),
      timeZone: MADRID,
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(w.starts).toBe(u('2026-03-28T00:00:00+01:00'));
    expect(w.expires).toBe(u('2026-03-31T00:00:00+02:00'));
    expect(w.expires! - w.starts).toBe(3 * DAY - 3600); // the lost hour is absorbed, not added
    expect(w.baseline_flights).toBeNull();
    expect(w.baseline_cycles).toBeNull();
  });

  it('keeps midnight across the autumn change in Madrid', () => {
    const w = computeMelWindow({
      ...base,
      raisedAt: u('2026-10-23T10:00:00+02:00'),
      timeZone: MADRID,
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(w.starts).toBe(u('2026-10-24T00:00:00+02:00'));
    expect(w.expires).toBe(u('2026-10-27T00:00:00+01:00'));
    expect(w.expires! - w.starts).toBe(3 * DAY + 3600);
  });

  it('handles America/New_York in spring and autumn', () => {
    const spring = computeMelWindow({
      ...base,
      raisedAt: u('2026-03-06T21:00:00-05:00'),
      timeZone: NEW_YORK,
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(spring.starts).toBe(u('2026-03-07T00:00:00-05:00'));
    expect(spring.expires).toBe(u('2026-03-10T00:00:00-04:00'));

    const autumn = computeMelWindow({
      ...base,
      raisedAt: u('2026-10-25T08:00:00-04:00'),
      timeZone: NEW_YORK,
      category: 'C',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 10,
    });
    expect(autumn.starts).toBe(u('2026-10-26T00:00:00-04:00'));
    expect(autumn.expires).toBe(u('2026-11-05T00:00:00-05:00'));
  });

  it('uses the local day, not the UTC day', () => {
    // 00:30 local on the 27th is still the 26th in UTC.
    const early = computeMelWindow({
      ...base,
      raisedAt: u('2026-03-27T00:30:00+01:00'),
      timeZone: MADRID,
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(early.starts).toBe(u('2026-03-28T00:00:00+01:00'));
    // 23:30 local: the window opens 30 minutes later.
    const late = computeMelWindow({
      ...base,
      raisedAt: u('2026-03-27T23:30:00+01:00'),
      timeZone: MADRID,
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(late.starts).toBe(u('2026-03-28T00:00:00+01:00'));
    // New York 21:00 local is already the next day in UTC.
    const ny = computeMelWindow({
      ...base,
      raisedAt: u('2026-06-10T21:00:00-04:00'),
      timeZone: NEW_YORK,
      category: 'C',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 10,
    });
    expect(ny.starts).toBe(u('2026-06-11T00:00:00-04:00'));
    expect(ny.expires).toBe(u('2026-06-21T00:00:00-04:00'));
  });

  it('computes category D over 120 days', () => {
    const w = computeMelWindow({
      ...base,
      raisedAt: u('2026-01-10T12:00:00+01:00'),
      timeZone: MADRID,
      category: 'D',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 120,
    });
    expect(w.starts).toBe(u('2026-01-11T00:00:00+01:00'));
    expect(w.expires).toBe(u('2026-05-11T00:00:00+02:00'));
  });

  it('resolves a midnight skipped by DST to the first instant of the day (America/Santiago)', () => {
    const w = computeMelWindow({
      ...base,
      raisedAt: u('2026-09-05T12:00:00-04:00'),
      timeZone: 'America/Santiago',
      category: 'B',
      interval_type: 'CALENDAR_DAYS',
      interval_value: 3,
    });
    expect(w.starts).toBe(u('2026-09-06T01:00:00-03:00'));
    expect(w.expires).toBe(u('2026-09-09T00:00:00-03:00'));
  });

  it('sets counter baselines and no expiry for counter intervals', () => {
    const common = { ...base, raisedAt: u('2026-05-01T10:00:00+02:00'), timeZone: MADRID };
    const next = computeMelWindow({ ...common, category: 'A', interval_type: 'NEXT_FLIGHT', interval_value: null });
    expect(next).toEqual({
      starts: u('2026-05-02T00:00:00+02:00'),
      expires: null,
      baseline_flights: 120,
      baseline_cycles: null,
    });
    const flights = computeMelWindow({ ...common, category: 'A', interval_type: 'FLIGHTS', interval_value: 5 });
    expect(flights).toMatchObject({ expires: null, baseline_flights: 120, baseline_cycles: null });
    const cycles = computeMelWindow({ ...common, category: 'B', interval_type: 'CYCLES', interval_value: 10 });
    expect(cycles).toMatchObject({ expires: null, baseline_flights: null, baseline_cycles: 340 });
    const days = computeMelWindow({ ...common, category: 'A', interval_type: 'FLIGHT_DAYS', interval_value: 2 });
    expect(days).toMatchObject({ expires: null, baseline_flights: null, baseline_cycles: null });
  });

  it('computes no window for a category-less CDL item', () => {
    const w = computeMelWindow({
      ...base,
      raisedAt: u('2026-05-01T10:00:00+02:00'),
      timeZone: MADRID,
      category: null,
      interval_type: null,
      interval_value: null,
    });
    expect(w).toEqual({
      starts: u('2026-05-02T00:00:00+02:00'),
      expires: null,
      baseline_flights: null,
      baseline_cycles: null,
    });
  });

  it('throws on an unknown zone or a bad calendar value', () => {
    const input = {
      ...base,
      raisedAt: u('2026-05-01T10:00:00+02:00'),
      category: 'B' as const,
      interval_type: 'CALENDAR_DAYS' as const,
      interval_value: 3,
    };
    expect(() => computeMelWindow({ ...input, timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => computeMelWindow({ ...input, timeZone: MADRID, interval_value: 0 })).toThrow(RangeError);
  });
});

describe('melDeadline', () => {
  it('is the expiry for calendar days, and the extension when extended', () => {
    expect(melDeadline(item(), NO_USE)).toEqual({ kind: 'time', expires: u('2026-03-31T00:00:00+02:00') });
    const ext = item({ extended: true, extended_until: u('2026-04-02T00:00:00+02:00') });
    expect(melDeadline(ext, NO_USE)).toEqual({ kind: 'time', expires: u('2026-04-02T00:00:00+02:00') });
  });

  it('counts flights since the baseline for NEXT_FLIGHT and FLIGHTS', () => {
    const next = item({
      category: 'A',
      interval_type: 'NEXT_FLIGHT',
      interval_value: null,
      expires: null,
      baseline_flights: 100,
    });
    expect(melDeadline(next, NO_USE)).toEqual({
      kind: 'counter',
      remaining: 1,
      used: 0,
      limit: 1,
      unit: 'flights',
      known: true,
    });
    const flights = item({ interval_type: 'FLIGHTS', interval_value: 5, expires: null, baseline_flights: 98 });
    expect(melDeadline(flights, NO_USE)).toEqual({
      kind: 'counter',
      remaining: 3,
      used: 2,
      limit: 5,
      unit: 'flights',
      known: true,
    });
  });

  it('counts cycles since the baseline', () => {
    const cycles = item({ interval_type: 'CYCLES', interval_value: 10, expires: null, baseline_cycles: 195 });
    expect(melDeadline(cycles, NO_USE)).toEqual({
      kind: 'counter',
      remaining: 5,
      used: 5,
      limit: 10,
      unit: 'cycles',
      known: true,
    });
  });

  it('counts flight days from the caller', () => {
    const days = item({ category: 'A', interval_type: 'FLIGHT_DAYS', interval_value: 3, expires: null });
    expect(melDeadline(days, { ...NO_USE, flightDays: 2 })).toEqual({
      kind: 'counter',
      remaining: 1,
      used: 2,
      limit: 3,
      unit: 'flight_days',
      known: true,
    });
  });

  it('never reports negative use or remaining', () => {
    const flights = item({ interval_type: 'FLIGHTS', interval_value: 2, expires: null, baseline_flights: 150 });
    expect(melDeadline(flights, NO_USE)).toMatchObject({ used: 0, remaining: 2 });
    expect(melDeadline(flights, { ...NO_USE, flights: 160 })).toMatchObject({ used: 10, remaining: 0 });
  });

  it('fails safe when a baseline is missing (legacy CYCLES rows)', () => {
    const legacy = item({ interval_type: 'CYCLES', interval_value: 10, expires: null, baseline_cycles: null });
    expect(melDeadline(legacy, NO_USE)).toEqual({
      kind: 'counter',
      remaining: 0,
      used: 10,
      limit: 10,
      unit: 'cycles',
      known: false,
    });
    expect(melStatus(legacy, 0, NO_USE)).toBe('EXPIRED');
  });

  it('has no deadline without category or interval', () => {
    expect(
      melDeadline(item({ category: null, interval_type: null, interval_value: null, expires: null }), NO_USE),
    ).toEqual({
      kind: 'none',
    });
    expect(melDeadline(item({ interval_type: null }), NO_USE)).toEqual({ kind: 'none' });
  });
});

describe('melStatus', () => {
  const expires = u('2026-03-31T00:00:00+02:00');

  it('is CLOSED when the report is closed, even past expiry', () => {
    expect(melStatus(item({ report_status: 'CLOSED' }), expires + DAY, NO_USE)).toBe('CLOSED');
  });

  it('is OPEN, EXPIRING_SOON, EXPIRED around the 3-day window', () => {
    const it3 = item();
    expect(EXPIRING_SOON_SECONDS).toBe(3 * DAY);
    expect(melStatus(it3, expires - 3 * DAY - 1, NO_USE)).toBe('OPEN'); // just over 3 days left
    expect(melStatus(it3, expires - 3 * DAY, NO_USE)).toBe('EXPIRING_SOON'); // exactly 3 days
    expect(melStatus(it3, expires - 1, NO_USE)).toBe('EXPIRING_SOON');
    expect(melStatus(it3, expires, NO_USE)).toBe('EXPIRED'); // at the expiry instant
    expect(melStatus(it3, expires + 10 * DAY, NO_USE)).toBe('EXPIRED');
  });

  it('a category C item is OPEN at its start', () => {
    const c = item({
      category: 'C',
      interval_value: 10,
      starts: u('2026-06-01T00:00:00+02:00'),
      expires: u('2026-06-11T00:00:00+02:00'),
    });
    expect(melStatus(c, u('2026-06-01T00:00:00+02:00'), NO_USE)).toBe('OPEN');
    expect(melStatus(c, u('2026-06-08T00:00:00+02:00'), NO_USE)).toBe('EXPIRING_SOON');
  });

  it('uses extended_until when extended', () => {
    const ext = item({ extended: true, extended_until: expires + 3 * DAY });
    expect(melStatus(ext, expires, NO_USE)).toBe('EXPIRING_SOON');
    expect(melStatus(ext, expires - 1, NO_USE)).toBe('OPEN');
    expect(melStatus(ext, expires + 3 * DAY, NO_USE)).toBe('EXPIRED');
  });

  it('NEXT_FLIGHT is due at once and expires after one flight', () => {
    const next = item({
      category: 'A',
      interval_type: 'NEXT_FLIGHT',
      interval_value: null,
      expires: null,
      baseline_flights: 100,
    });
    expect(melStatus(next, 0, { flights: 100, cycles: 0, flightDays: 0 })).toBe('EXPIRING_SOON');
    expect(melStatus(next, 0, { flights: 101, cycles: 0, flightDays: 1 })).toBe('EXPIRED');
  });

  it('FLIGHTS expires when the flights since baseline reach the value', () => {
    const f = item({
      category: 'A',
      interval_type: 'FLIGHTS',
      interval_value: 3,
      expires: null,
      baseline_flights: 100,
    });
    expect(melStatus(f, 0, { flights: 101, cycles: 0, flightDays: 0 })).toBe('OPEN');
    expect(melStatus(f, 0, { flights: 102, cycles: 0, flightDays: 0 })).toBe('EXPIRING_SOON');
    expect(melStatus(f, 0, { flights: 103, cycles: 0, flightDays: 0 })).toBe('EXPIRED');
    expect(melStatus(f, 0, { flights: 104, cycles: 0, flightDays: 0 })).toBe('EXPIRED');
  });

  it('CYCLES expires when the cycles since baseline reach the value', () => {
    const c = item({ interval_type: 'CYCLES', interval_value: 4, expires: null, baseline_cycles: 50 });
    expect(melStatus(c, 0, { flights: 0, cycles: 52, flightDays: 0 })).toBe('OPEN');
    expect(melStatus(c, 0, { flights: 0, cycles: 53, flightDays: 0 })).toBe('EXPIRING_SOON');
    expect(melStatus(c, 0, { flights: 0, cycles: 54, flightDays: 0 })).toBe('EXPIRED');
  });

  it('FLIGHT_DAYS expires when the flight days reach the value', () => {
    const d = item({ category: 'A', interval_type: 'FLIGHT_DAYS', interval_value: 2, expires: null });
    expect(melStatus(d, 0, { flights: 0, cycles: 0, flightDays: 0 })).toBe('OPEN');
    expect(melStatus(d, 0, { flights: 0, cycles: 0, flightDays: 1 })).toBe('EXPIRING_SOON');
    expect(melStatus(d, 0, { flights: 0, cycles: 0, flightDays: 2 })).toBe('EXPIRED');
  });

  it('counter items ignore the clock', () => {
    const f = item({ interval_type: 'FLIGHTS', interval_value: 5, expires: null, baseline_flights: 100 });
    expect(melStatus(f, expires + 1000 * DAY, NO_USE)).toBe('OPEN');
  });

  it('a category-less CDL item stays OPEN', () => {
    const cdl = item({ category: null, interval_type: null, interval_value: null, expires: null });
    expect(melStatus(cdl, expires + 1000 * DAY, NO_USE)).toBe('OPEN');
  });
});

describe('checkExtension', () => {
  const expires = u('2026-03-31T00:00:00+02:00');
  const now = u('2026-03-29T12:00:00+02:00');
  const ok = { now, role: 300, timeZone: MADRID };

  it('accepts up to one full original interval after the expiry, exactly at the limit included', () => {
    // B = 3 days: limit 2026-04-03T00:00 Madrid.
    expect(checkExtension(item(), { ...ok, extended_until: expires + DAY })).toEqual({ ok: true });
    expect(checkExtension(item(), { ...ok, extended_until: u('2026-04-03T00:00:00+02:00') })).toEqual({ ok: true });
    const over = checkExtension(item(), { ...ok, extended_until: u('2026-04-03T00:00:01+02:00') });
    expect(over).toMatchObject({ ok: false, code: 'rejected' });
    if (!over.ok) expect(over.reason).toMatch(/at most one original interval \(3 days\)/);
  });

  it('adds the interval in calendar days across a DST change', () => {
    // Raised 2026-10-20 category C: expires 2026-10-31T00:00+01:00; limit 10 days later, still midnight.
    const c = item({
      category: 'C',
      interval_value: 10,
      starts: u('2026-10-21T00:00:00+02:00'),
      expires: u('2026-10-31T00:00:00+01:00'),
    });
    const at = { ...ok, now: u('2026-10-25T12:00:00+01:00') };
    expect(checkExtension(c, { ...at, extended_until: u('2026-11-10T00:00:00+01:00') })).toEqual({ ok: true });
    expect(checkExtension(c, { ...at, extended_until: u('2026-11-10T00:00:01+01:00') }).ok).toBe(false);

    const spring = item({ starts: u('2026-03-26T00:00:00+01:00'), expires: u('2026-03-29T00:00:00+01:00') });
    const at2 = { ...ok, now: u('2026-03-27T12:00:00+01:00') };
    // 3 calendar days after 2026-03-29T00:00+01:00 is 2026-04-01T00:00+02:00 (71 hours later).
    expect(checkExtension(spring, { ...at2, extended_until: u('2026-04-01T00:00:00+02:00') })).toEqual({ ok: true });
    expect(checkExtension(spring, { ...at2, extended_until: u('2026-04-01T00:00:00+01:00') }).ok).toBe(false);
  });

  it('refuses category A', () => {
    const a = item({ category: 'A' });
    expect(checkExtension(a, { ...ok, extended_until: expires + DAY })).toEqual({
      ok: false,
      code: 'rejected',
      reason: 'Category A items cannot be extended.',
    });
  });

  it('refuses a closed item', () => {
    const r = checkExtension(item({ report_status: 'CLOSED' }), { ...ok, extended_until: expires + DAY });
    expect(r).toEqual({ ok: false, code: 'rejected', reason: 'The item is closed.' });
  });

  it('refuses a second extension', () => {
    const r = checkExtension(item({ extended: true, extended_until: expires + DAY }), {
      ...ok,
      extended_until: expires + 2 * DAY,
    });
    expect(r).toEqual({ ok: false, code: 'rejected', reason: 'The item has already been extended once.' });
  });

  it('refuses a missing date, a date not after the expiry, or in the past', () => {
    expect(checkExtension(item(), { ...ok, extended_until: undefined })).toMatchObject({
      ok: false,
      reason: 'The new deadline is required.',
    });
    expect(checkExtension(item(), { ...ok, extended_until: null })).toMatchObject({
      ok: false,
      reason: 'The new deadline is required.',
    });
    expect(checkExtension(item(), { ...ok, extended_until: Number.NaN })).toMatchObject({ ok: false });
    expect(checkExtension(item(), { ...ok, extended_until: expires })).toMatchObject({
      ok: false,
      reason: 'The new deadline must be after the current expiry.',
    });
    expect(checkExtension(item(), { ...ok, extended_until: expires - DAY })).toMatchObject({ ok: false });
    // Already expired two days ago: a date after the expiry but still in the past is refused.
    const late = { ...ok, now: expires + 2 * DAY };
    expect(checkExtension(item(), { ...late, extended_until: expires + DAY })).toMatchObject({
      ok: false,
      reason: 'The new deadline must be in the future.',
    });
    expect(checkExtension(item(), { ...late, extended_until: expires + 3 * DAY })).toEqual({ ok: true });
  });

  it('refuses counter-based and category-less items', () => {
    const counter = item({ interval_type: 'FLIGHTS', interval_value: 5, expires: null, baseline_flights: 1 });
    expect(checkExtension(counter, { ...ok, extended_until: expires + DAY })).toMatchObject({
      ok: false,
      reason: 'Only items with a calendar-days deadline can be extended.',
    });
    const cdl = item({ category: null, interval_type: null, interval_value: null, expires: null });
    expect(checkExtension(cdl, { ...ok, extended_until: expires + DAY }).ok).toBe(false);
  });

  it('lets managers and mechanics extend, refuses other roles as forbidden', () => {
    for (const role of [1, 100, 105, 110, 300]) {
      expect(checkExtension(item(), { ...ok, role, extended_until: expires + DAY })).toEqual({ ok: true });
    }
    for (const role of [120, 135, 150, 170, 190, 200, 250]) {
      expect(checkExtension(item(), { ...ok, role, extended_until: expires + DAY })).toMatchObject({
        ok: false,
        code: 'forbidden',
      });
    }
  });
});

describe('aircraftBlock', () => {
  it('is not blocked without expired items', () => {
    expect(aircraftBlock([])).toEqual({ blocked: false, blockReason: null });
    expect(
      aircraftBlock([
        { ata_chapter: '21-01', category: 'B', title: 'x', status: 'EXPIRING_SOON' },
        { ata_chapter: '22', category: 'C', title: 'y', status: 'OPEN' },
        { ata_chapter: '23', category: 'C', title: 'z', status: 'CLOSED' },
      ]),
    ).toEqual({ blocked: false, blockReason: null });
  });

  it('blocks as soon as one item is expired and names the first one', () => {
    expect(
      aircraftBlock([
        { ata_chapter: '33', category: 'C', title: 'Logo light', status: 'OPEN' },
        { ata_chapter: '21-01', category: 'B', title: 'Cabin pressure indicator', status: 'EXPIRED' },
        { ata_chapter: '34', category: 'A', title: 'Second', status: 'EXPIRED' },
      ]),
    ).toEqual({ blocked: true, blockReason: 'MEL item 21-01 (category B) expired: Cabin pressure indicator' });
  });

  it('words CDL items and missing fields sensibly', () => {
    expect(
      aircraftBlock([{ type: 'CDL', ata_chapter: '52-10', category: null, title: 'Door seal', status: 'EXPIRED' }])
        .blockReason,
    ).toBe('CDL item 52-10 expired: Door seal');
    expect(aircraftBlock([{ ata_chapter: null, category: 'C', title: 'Light', status: 'EXPIRED' }]).blockReason).toBe(
      'MEL item (category C) expired: Light',
    );
  });
});

describe('role gates', () => {
  const managers = [1, 100, 105, 110, 300];
  const others = [120, 135, 150, 170, 190, 200, 250];

  it('managers and mechanics may do everything', () => {
    for (const role of managers) {
      for (const action of ['raise', 'edit', 'extend', 'close'] as const) {
        expect(canActOnMel(action, role, { isAssignedPilot: false })).toBe(true);
      }
    }
  });

  it('the assigned pilot may only raise', () => {
    for (const role of [190, 200, 150]) {
      expect(canActOnMel('raise', role, { isAssignedPilot: true })).toBe(true);
      for (const action of ['edit', 'extend', 'close'] as const) {
        expect(canActOnMel(action, role, { isAssignedPilot: true })).toBe(false);
      }
    }
  });

  it('others may do nothing', () => {
    for (const role of others) {
      for (const action of ['raise', 'edit', 'extend', 'close'] as const) {
        expect(canActOnMel(action, role, { isAssignedPilot: false })).toBe(false);
      }
    }
  });

  it('releaser: managers, mechanics or the requester, never a student', () => {
    for (const role of managers) expect(canBeReleaser(role, false)).toBe(true);
    for (const role of [120, 150, 170, 190, 250]) {
      expect(canBeReleaser(role, false)).toBe(false);
      expect(canBeReleaser(role, true)).toBe(true);
    }
    expect(canBeReleaser(200, true)).toBe(false);
    expect(canBeReleaser(200, false)).toBe(false);
  });
});

describe('closureStamp', () => {
  const now = 1_780_000_000;
  const open = { status: 'OPEN' as const, closed: null, closed_by: null };
  const closed = { status: 'CLOSED' as const, closed: 1_770_000_000, closed_by: 9 };

  it('stamps when closing from OPEN or DEFERRED', () => {
    expect(closureStamp(open, 'CLOSED', now, 5)).toEqual({ status: 'CLOSED', closed: now, closed_by: 5 });
    expect(closureStamp({ ...open, status: 'DEFERRED' }, 'CLOSED', now, 5)).toEqual({
      status: 'CLOSED',
      closed: now,
      closed_by: 5,
    });
  });

  it('keeps the stamp on CLOSED to CLOSED', () => {
    expect(closureStamp(closed, 'CLOSED', now, 5)).toEqual(closed);
  });

  it('fills a missing stamp on a legacy closed row', () => {
    expect(closureStamp({ status: 'CLOSED', closed: null, closed_by: null }, 'CLOSED', now, 5)).toEqual({
      status: 'CLOSED',
      closed: now,
      closed_by: 5,
    });
  });

  it('clears the stamp on OPEN or DEFERRED', () => {
    expect(closureStamp(closed, 'OPEN', now, 5)).toEqual({ status: 'OPEN', closed: null, closed_by: null });
    expect(closureStamp(closed, 'DEFERRED', now, 5)).toEqual({ status: 'DEFERRED', closed: null, closed_by: null });
    expect(closureStamp(open, 'DEFERRED', now, 5)).toEqual({ status: 'DEFERRED', closed: null, closed_by: null });
  });

  it('leaves everything unchanged when no status is posted', () => {
    expect(closureStamp(closed, undefined, now, 5)).toEqual(closed);
    expect(closureStamp(open, null, now, 5)).toEqual(open);
  });
});
