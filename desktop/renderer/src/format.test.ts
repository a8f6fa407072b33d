import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY,
  type DisplaySettings,
  displaySettingsOf,
  endOfDay,
  formatClock,
  formatDate,
  formatDateTime,
  formatDeadline,
  formatDuration,
  formatIsoDate,
  formatTime,
  hourOptions,
  isoDateIn,
  wallClock,
  withZone,
  zonedToUnix,
  zoneTag,
} from './format.ts';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const madrid: DisplaySettings = {
  dateFormat: 'DD-MM-YYYY',
  timeFormat: '24',
  durationFormat: 'time',
  companyZone: 'Europe/Madrid',
  flightZone: 'UTC',
};

describe('displaySettingsOf (company settings payload, Part A 2.2)', () => {
  it('reads formats, the company zone and the flight zone', () => {
    const s = displaySettingsOf({
      CompanyDetail: { timezone_id: 'Europe/Madrid', Timezone: { name: 'Europe/Madrid' } },
      CompanySetting: {
        date_format: 'MM-DD-YYYY',
        time_format: '12',
        duration_format: 'decimal',
        flight_timezone_id: 'UTC',
        FlightTimezone: { name: 'UTC' },
      },
    });
    expect(s).toEqual({
      dateFormat: 'MM-DD-YYYY',
      timeFormat: '12',
      durationFormat: 'decimal',
      companyZone: 'Europe/Madrid',
      flightZone: 'UTC',
    });
  });

  it('flight times use the company zone when no flight zone is set', () => {
    const s = displaySettingsOf({
      CompanyDetail: { timezone_id: 'America/New_York' },
      CompanySetting: { flight_timezone_id: null, time_format: 12 },
    });
    expect(s.flightZone).toBe('America/New_York');
    expect(s.timeFormat).toBe('12');
  });

  it('falls back to defaults for missing or invalid values', () => {
    expect(displaySettingsOf(null)).toEqual(DEFAULT_DISPLAY);
    const s = displaySettingsOf({
      CompanyDetail: { timezone_id: 'Mars/Olympus' },
      CompanySetting: { date_format: 'D/M/Y', duration_format: 'x' },
    });
    expect(s).toEqual(DEFAULT_DISPLAY);
  });
});

describe('dates and times', () => {
  it('formats a date in each date format', () => {
    const t = utc('2025-03-07T10:00:00');
    expect(formatDate(t, { ...madrid, dateFormat: 'YYYY-MM-DD' })).toBe('2025-03-07');
    expect(formatDate(t, { ...madrid, dateFormat: 'DD-MM-YYYY' })).toBe('07-03-2025');
    expect(formatDate(t, { ...madrid, dateFormat: 'MM-DD-YYYY' })).toBe('03-07-2025');
  });

  it('uses the zone for the calendar day', () => {
    const t = utc('2025-03-07T23:30:00');
    expect(formatDate(t, madrid)).toBe('08-03-2025');
    expect(formatDate(t, madrid, 'UTC')).toBe('07-03-2025');
    expect(formatDate(t, madrid, 'America/New_York')).toBe('07-03-2025');
  });

  it('follows daylight saving time (Madrid +01:00 in winter, +02:00 in summer)', () => {
    expect(formatTime(utc('2025-01-15T12:00:00'), madrid)).toBe('13:00');
    expect(formatTime(utc('2025-07-15T12:00:00'), madrid)).toBe('14:00');
    // 2025-03-30 01:00 UTC: clocks jump from 02:00 to 03:00 in Madrid.
    expect(formatTime(utc('2025-03-30T00:59:00'), madrid)).toBe('01:59');
    expect(formatTime(utc('2025-03-30T01:00:00'), madrid)).toBe('03:00');
  });

  it('12-hour clock: midnight is 12 AM, noon 12 PM', () => {
    const s12 = { ...madrid, timeFormat: '12' as const, companyZone: 'UTC' };
    expect(formatTime(utc('2025-01-01T00:05:00'), s12)).toBe('12:05 AM');
    expect(formatTime(utc('2025-01-01T12:00:00'), s12)).toBe('12:00 PM');
    expect(formatTime(utc('2025-01-01T23:59:00'), s12)).toBe('11:59 PM');
    expect(formatTime(utc('2025-01-01T09:30:00'), s12)).toBe('9:30 AM');
  });

  it('24-hour clock never shows 24:00', () => {
    expect(formatTime(utc('2025-01-01T00:00:00'), { ...madrid, companyZone: 'UTC' })).toBe('00:00');
  });

  it('formats date and time together', () => {
    expect(formatDateTime(utc('2025-07-15T12:34:00'), madrid)).toBe('15-07-2025 14:34');
    expect(formatDateTime(utc('2025-07-15T12:34:00'), madrid, madrid.flightZone)).toBe('15-07-2025 12:34');
  });

  it('leaves missing values empty', () => {
    expect(formatDate(null, madrid)).toBe('');
    expect(formatTime(undefined, madrid)).toBe('');
    expect(formatDateTime(Number.NaN, madrid)).toBe('');
    expect(formatClock(null, madrid)).toBe('');
    expect(formatDuration(null, madrid)).toBe('');
  });

  it('formats zone-less flight dates and HH:MM clock fields', () => {
    expect(formatIsoDate('2025-11-02', madrid)).toBe('02-11-2025');
    expect(formatIsoDate('2025-11-02', { dateFormat: 'MM-DD-YYYY' })).toBe('11-02-2025');
    expect(formatIsoDate('garbage', madrid)).toBe('garbage');
    expect(formatClock('07:05', madrid)).toBe('07:05');
    expect(formatClock('19:05', { timeFormat: '12' })).toBe('7:05 PM');
    expect(formatClock('00:00', { timeFormat: '12' })).toBe('12:00 AM');
  });
});

describe('MEL deadlines', () => {
  it('a company midnight reads as the end of the previous day', () => {
    // 2025-11-26 00:00 in Madrid (+01:00) is 2025-11-25 23:00 UTC.
    expect(formatDeadline(utc('2025-11-25T23:00:00'), madrid)).toBe('end of 25-11-2025');
  });

  it('another instant reads as date and time', () => {
    expect(formatDeadline(utc('2025-11-25T10:15:00'), madrid)).toBe('25-11-2025 11:15');
  });
});

describe('durations (decimal 1.5 or time 1:30)', () => {
  it('time format rounds to the nearest minute', () => {
    expect(formatDuration(5400, { durationFormat: 'time' })).toBe('1:30');
    expect(formatDuration(0, { durationFormat: 'time' })).toBe('0:00');
    expect(formatDuration(29, { durationFormat: 'time' })).toBe('0:00');
    expect(formatDuration(30, { durationFormat: 'time' })).toBe('0:01');
    expect(formatDuration(3599.9, { durationFormat: 'time' })).toBe('1:00');
    expect(formatDuration(36 * 3600 + 5 * 60, { durationFormat: 'time' })).toBe('36:05');
  });

  it('decimal format shows hours with one decimal', () => {
    expect(formatDuration(5400, { durationFormat: 'decimal' })).toBe('1.5');
    expect(formatDuration(3600, { durationFormat: 'decimal' })).toBe('1.0');
    expect(formatDuration(3600 + 17 * 60, { durationFormat: 'decimal' })).toBe('1.3');
    expect(formatDuration(-5400, { durationFormat: 'decimal' })).toBe('-1.5');
  });
});

describe('zone conversions for inputs', () => {
  it('wallClock and zonedToUnix are inverse, across DST', () => {
    for (const iso of [
      '2025-01-15T12:00:00',
      '2025-07-15T12:00:00',
      '2025-10-26T02:30:00',
      '2025-03-30T00:30:00',
      '2025-03-30T01:30:00',
    ]) {
      const t = utc(iso);
      expect(zonedToUnix(wallClock(t, 'Europe/Madrid'), 'Europe/Madrid')).toBe(t);
    }
  });

  it('a wall clock repeated when DST ends resolves to the later instant; one skipped when it starts lands past the gap', () => {
    expect(zonedToUnix({ year: 2025, month: 10, day: 26, hour: 2, minute: 30 }, 'Europe/Madrid')).toBe(
      utc('2025-10-26T01:30:00'),
    );
    expect(
      formatTime(zonedToUnix({ year: 2025, month: 3, day: 30, hour: 2, minute: 30 }, 'Europe/Madrid'), madrid),
    ).toBe('03:30');
  });

  it('endOfDay is the company midnight after the day', () => {
    expect(endOfDay('2025-11-25', 'Europe/Madrid')).toBe(utc('2025-11-25T23:00:00'));
    expect(endOfDay('2025-07-31', 'Europe/Madrid')).toBe(utc('2025-07-31T22:00:00'));
    expect(endOfDay('2025-12-31', 'UTC')).toBe(utc('2026-01-01T00:00:00'));
    expect(endOfDay('31-12-2025', 'UTC')).toBeNull();
  });

  it('isoDateIn gives the calendar day in the zone', () => {
    expect(isoDateIn(utc('2025-03-07T23:30:00'), 'Europe/Madrid')).toBe('2025-03-08');
    expect(isoDateIn(utc('2025-03-07T23:30:00'), 'UTC')).toBe('2025-03-07');
  });
});

describe('zone labels (issue 28 item 7)', () => {
  const both = { ...DEFAULT_DISPLAY, companyZone: 'Europe/Madrid', flightZone: 'UTC' };
  it('labels a time with its zone only when the company and flight zones differ', () => {
    expect(withZone('09:00–11:00', both.companyZone, both)).toBe('09:00–11:00 Europe/Madrid');
    expect(withZone('08:00–10:00', both.flightZone, both)).toBe('08:00–10:00 UTC');
    expect(zoneTag('America/New_York', { companyZone: 'America/New_York', flightZone: 'UTC' })).toBe(
      'America/New York',
    );
    const one = { ...both, flightZone: 'Europe/Madrid' };
    expect(withZone('09:00', one.companyZone, one)).toBe('09:00');
    expect(withZone('', both.companyZone, both)).toBe('');
  });
  it('the hour picker has 24 hours, labelled in the company format', () => {
    expect(
      hourOptions({ timeFormat: '24' })
        .map((o) => o.label)
        .slice(12, 14),
    ).toEqual(['12', '13']);
    expect(
      hourOptions({ timeFormat: '12' })
        .map((o) => o.label)
        .slice(0, 2),
    ).toEqual(['12 AM', '1 AM']);
    expect(hourOptions({ timeFormat: '12' })[13]).toEqual({ value: '13', label: '1 PM' });
  });
});
