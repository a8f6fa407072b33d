import { describe, expect, it } from 'vitest';
import { clampMonths, emptyMonthBuckets, fillMonthBuckets, firstBucketDate, MAX_MONTHS_BACK } from './months.ts';
import { isEmptyPathValue, reportScope } from './scope.ts';
import {
  closestReport,
  historicalDate,
  isWeatherIcao,
  METAR_WINDOW_SECONDS,
  TAF_WINDOW_SECONDS,
  tafSource,
} from './weather.ts';

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('month buckets', () => {
  it('clamps months to 0..MAX', () => {
    expect(clampMonths(-3)).toBe(0);
    expect(clampMonths(2.7)).toBe(2);
    expect(clampMonths(1e9)).toBe(MAX_MONTHS_BACK);
    expect(clampMonths(Number.NaN)).toBe(0);
  });
  it('current month and N before it, newest first, in the zone', () => {
    const b = emptyMonthBuckets(at('2024-03-01T02:00:00Z'), 'America/New_York', 2);
    expect(b.map((x) => x.label)).toEqual(['2024-02', '2024-01', '2023-12']);
    expect(b[0]!.timestamp).toBe(at('2024-02-01T05:00:00Z'));
    expect(firstBucketDate(b)).toBe('2023-12-01');
    expect(emptyMonthBuckets(at('2024-03-01T02:00:00Z'), 'UTC', 0).map((x) => x.label)).toEqual(['2024-03']);
  });
  it('fills sums and ignores months outside', () => {
    const b = emptyMonthBuckets(at('2024-03-15T00:00:00Z'), 'UTC', 1);
    const f = fillMonthBuckets(b, [
      { month: '2024-02', seconds: 60, flights: 1, landings: 2 },
      { month: '2023-01', seconds: 99, flights: 9, landings: 9 },
    ]);
    expect(f.map((x) => [x.label, x.seconds, x.flights, x.landings])).toEqual([
      ['2024-03', 0, 0, 0],
      ['2024-02', 60, 1, 2],
    ]);
  });
});

describe('report scope', () => {
  const staff = { id: 'me', role: 150 };
  const student = { id: 'me', role: 200 };
  it('empty path values', () => {
    for (const v of [undefined, '', 'null', '-', '0']) expect(isEmptyPathValue(v)).toBe(true);
    expect(isEmptyPathValue('abc')).toBe(false);
  });
  it('defaults to the caller, keeps the requested user for staff, aircraft only with a null user', () => {
    expect(reportScope(staff, undefined)).toEqual({ userId: 'me', aircraftId: null });
    expect(reportScope(staff, 'u2')).toEqual({ userId: 'u2', aircraftId: null });
    expect(reportScope(staff, 'null', 'a1')).toEqual({ userId: null, aircraftId: 'a1' });
    expect(reportScope(staff, 'u2', 'a1')).toEqual({ userId: 'u2', aircraftId: 'a1' });
  });
  it('above 170: always the caller', () => {
    expect(reportScope(student, 'u2')).toEqual({ userId: 'me', aircraftId: null });
    expect(reportScope(student, 'null', 'a1')).toEqual({ userId: 'me', aircraftId: 'a1' });
    expect(reportScope({ id: 'me', role: 170 }, 'u2').userId).toBe('u2');
  });
});

describe('weather rules', () => {
  it('ICAO pattern', () => {
    expect(isWeatherIcao('LEMD')).toBe(true);
    expect(isWeatherIcao('LE1D')).toBe(true);
    for (const v of ['', 'LEM', 'L1MD', 'LEMDX', 'lemd', null]) expect(isWeatherIcao(v)).toBe(false);
  });
  it('a future or absent date is current', () => {
    expect(historicalDate(null, 1000)).toBeNull();
    expect(historicalDate(2000, 1000)).toBeNull();
    expect(historicalDate(0, 1000)).toBeNull();
    expect(historicalDate(500, 1000)).toBe(500);
  });
  it('closest within the window, ties to the earlier', () => {
    const rs = [{ time: 1000 }, { time: 2000 }, { time: 3000 }];
    expect(closestReport(rs, 1600, METAR_WINDOW_SECONDS)).toEqual({ time: 2000 });
    expect(closestReport(rs, 2500, METAR_WINDOW_SECONDS)).toEqual({ time: 2000 });
    expect(closestReport(rs, 3000 + METAR_WINDOW_SECONDS, METAR_WINDOW_SECONDS)).toEqual({ time: 3000 });
    expect(closestReport(rs, 3001 + METAR_WINDOW_SECONDS, METAR_WINDOW_SECONDS)).toBeNull();
    expect(closestReport([], 1, TAF_WINDOW_SECONDS)).toBeNull();
  });
  it('TAF source by age', () => {
    const now = 100 * 86400;
    expect(tafSource(now - 86400, now)).toBe('provider');
    expect(tafSource(now - 10 * 86400, now)).toBe('archive');
    expect(tafSource(now - 31 * 86400, now)).toBe('none');
  });
});

describe('certificate state', () => {
  it('expired, expiring within 60 days, valid, none', async () => {
    const { certificateState } = await import('./months.ts');
    expect(certificateState('2024-05-31', '2024-06-01')).toBe('expired');
    expect(certificateState('2024-06-01', '2024-06-01')).toBe('expiring');
    expect(certificateState('2024-07-31', '2024-06-01')).toBe('expiring');
    expect(certificateState('2024-08-01', '2024-06-01')).toBe('valid');
    expect(certificateState(null, '2024-06-01')).toBe('none');
  });
});
