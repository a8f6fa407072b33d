import { describe, expect, it } from 'vitest';
import {
  CURRENCY_DEFAULT_DAYS,
  type CurrencyFlight,
  checkCurrency,
  DEFAULT_CURRENCY_REQUIREMENTS,
  flightsInWindow,
  parseCurrencyParams,
} from './currency.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z') / 1000;
const DAY = 86_400;
const HOUR = 3600;

const f = (daysAgo: number, landings = 1, night_landings = 0, block_time = HOUR): CurrencyFlight => ({
  onblocks: NOW - daysAgo * DAY,
  landings,
  night_landings,
  block_time,
});

describe('parseCurrencyParams', () => {
  it('applies the defaults: 30 days for landings, 90 for night landings and hours', () => {
    expect(CURRENCY_DEFAULT_DAYS).toEqual({ landings: 30, night_landings: 90, hours: 90 });
    expect(parseCurrencyParams()).toEqual({ landingsDays: 30, nightLandingsDays: 90, hoursDays: 90 });
  });

  it('reads numbers and numeric path segments', () => {
    expect(parseCurrencyParams('60', 45, ' 120 ')).toEqual({ landingsDays: 60, nightLandingsDays: 45, hoursDays: 120 });
  });

  it('falls back to the default for non-numeric, empty or null values', () => {
    expect(parseCurrencyParams('abc', '', null)).toEqual({ landingsDays: 30, nightLandingsDays: 90, hoursDays: 90 });
    expect(parseCurrencyParams('30days', 'null', 'Infinity')).toEqual({
      landingsDays: 30,
      nightLandingsDays: 90,
      hoursDays: 90,
    });
  });

  it('falls back to the default below 1', () => {
    expect(parseCurrencyParams('0', -5, '0.5')).toEqual({ landingsDays: 30, nightLandingsDays: 90, hoursDays: 90 });
  });

  it('clamps above 999 to 999', () => {
    expect(parseCurrencyParams('1000', 5000, '1e6')).toEqual({
      landingsDays: 999,
      nightLandingsDays: 999,
      hoursDays: 999,
    });
    expect(parseCurrencyParams(999, 1, 1)).toEqual({ landingsDays: 999, nightLandingsDays: 1, hoursDays: 1 });
  });

  it('truncates fractions to whole days', () => {
    expect(parseCurrencyParams('12.9', 7.2, '1.99')).toEqual({ landingsDays: 12, nightLandingsDays: 7, hoursDays: 1 });
  });
});

describe('flightsInWindow', () => {
  it('is rolling: includes exactly N*24h ago and now, excludes one second older and the future', () => {
    const flights = [
      { onblocks: NOW - 30 * DAY },
      { onblocks: NOW - 30 * DAY - 1 },
      { onblocks: NOW },
      { onblocks: NOW + 1 },
    ];
    expect(flightsInWindow(flights, NOW, 30)).toEqual([{ onblocks: NOW - 30 * DAY }, { onblocks: NOW }]);
  });

  it('does not count the whole calendar day of the window start', () => {
    // Earlier on the same calendar day as NOW - 30 days, but more than 30*24h ago.
    expect(flightsInWindow([{ onblocks: NOW - 30 * DAY - 6 * HOUR }], NOW, 30)).toEqual([]);
  });
});

describe('checkCurrency', () => {
  it('uses the default requirements: 3 landings, 1 night landing, no hours', () => {
    expect(DEFAULT_CURRENCY_REQUIREMENTS).toEqual({ landings: 3, night_landings: 1, hours: 0 });
    const result = checkCurrency({ flights: [f(1, 2, 1), f(10, 1)], now: NOW });
    expect(result).toEqual({
      windows: {
        landings: { days: 30, count: 3, required: 3, current: true },
        night_landings: { days: 90, count: 1, required: 1, current: true },
        hours: { days: 90, seconds: 2 * HOUR, required_seconds: 0, current: true },
      },
      current: true,
    });
  });

  it('is not current with too few landings in the window', () => {
    const result = checkCurrency({ flights: [f(1, 2, 1), f(31, 5)], now: NOW });
    expect(result.windows.landings).toEqual({ days: 30, count: 2, required: 3, current: false });
    expect(result.current).toBe(false);
  });

  it('counts a flight on the window edge and not one second before it', () => {
    const edge = checkCurrency({ flights: [f(30, 3, 1)], now: NOW });
    expect(edge.windows.landings.count).toBe(3);
    const before = checkCurrency({ flights: [{ ...f(30, 3, 1), onblocks: NOW - 30 * DAY - 1 }], now: NOW });
    expect(before.windows.landings.count).toBe(0);
    expect(before.windows.night_landings.count).toBe(1); // still inside the 90-day window
  });

  it('ignores flights after now', () => {
    expect(checkCurrency({ flights: [f(-1, 3, 1)], now: NOW }).windows.landings.count).toBe(0);
  });

  it('uses its own window for night landings', () => {
    const params = parseCurrencyParams(30, 10, 90);
    const result = checkCurrency({ flights: [f(5, 3, 0), f(20, 1, 1)], now: NOW, params });
    expect(result.windows.night_landings).toEqual({ days: 10, count: 0, required: 1, current: false });
    expect(result.windows.landings.count).toBe(4);
    expect(result.current).toBe(false);
  });

  it('treats missing night landings as zero', () => {
    const flights: CurrencyFlight[] = [
      { onblocks: NOW - DAY, landings: 3, block_time: HOUR },
      { ...f(2), night_landings: null },
    ];
    expect(checkCurrency({ flights, now: NOW }).windows.night_landings.count).toBe(0);
  });

  it('checks the hours window against a company requirement', () => {
    const requirements = { hours: 2.5 };
    const flights = [f(5, 3, 1, HOUR), f(60, 0, 0, HOUR), f(100, 0, 0, 5 * HOUR)];
    const result = checkCurrency({ flights, now: NOW, requirements });
    expect(result.windows.hours).toEqual({ days: 90, seconds: 2 * HOUR, required_seconds: 9000, current: false });
    expect(result.current).toBe(false);
    const wider = checkCurrency({ flights, now: NOW, requirements, params: parseCurrencyParams(30, 90, 120) });
    expect(wider.windows.hours).toEqual({ days: 120, seconds: 7 * HOUR, required_seconds: 9000, current: true });
    expect(wider.current).toBe(true);
  });

  it('merges partial company requirements over the defaults; zero is always met', () => {
    const result = checkCurrency({ flights: [], now: NOW, requirements: { landings: 0, night_landings: 0 } });
    expect(result.windows.landings).toEqual({ days: 30, count: 0, required: 0, current: true });
    expect(result.windows.night_landings.required).toBe(0);
    expect(result.current).toBe(true);
  });

  it('is not current with no flights under the default requirements', () => {
    const result = checkCurrency({ flights: [], now: NOW });
    expect(result.current).toBe(false);
    expect(result.windows.landings.current).toBe(false);
    expect(result.windows.night_landings.current).toBe(false);
    expect(result.windows.hours.current).toBe(true);
  });

  it('ignores negative or invalid counts and durations', () => {
    const result = checkCurrency({ flights: [f(1, -3, Number.NaN, -HOUR), f(2, 3, 1, HOUR)], now: NOW });
    expect(result.windows.landings.count).toBe(3);
    expect(result.windows.night_landings.count).toBe(1);
    expect(result.windows.hours.seconds).toBe(HOUR);
  });

  it('supports the long EASA window of 90 days for landings', () => {
    const result = checkCurrency({ flights: [f(80, 1, 1), f(85, 2)], now: NOW, params: parseCurrencyParams(90) });
    expect(result.windows.landings).toEqual({ days: 90, count: 3, required: 3, current: true });
    expect(result.current).toBe(true);
  });
});
