import { describe, expect, it } from 'vitest';
import { divRound, fromCents, hoursToSeconds, includedTax, netFor, taxBasisPoints, taxOf, toCents } from './money.ts';

describe('billing money', () => {
  it('rounds half away from zero', () => {
    expect([
      divRound(5, 10),
      divRound(-5, 10),
      divRound(4, 10),
      divRound(-4, 10),
      divRound(15, 10),
      divRound(-15, 10),
      divRound(0, 7),
    ]).toEqual([1, -1, 0, 0, 2, -2, 0]);
  });
  it('reads amounts with at most two decimals, exactly', () => {
    expect([toCents(0.1), toCents('0.10'), toCents(12), toCents('-3.5'), toCents(-0.01)]).toEqual([
      10, 10, 1200, -350, -1,
    ]);
    expect([toCents(0.001), toCents('1.234'), toCents('abc'), toCents(Number.NaN), toCents(1e-7), toCents('')]).toEqual(
      [null, null, null, null, null, null],
    );
    expect(fromCents(toCents(0.1)! * 3)).toBe(0.3);
  });
  it('converts hours with two decimals to seconds', () => {
    expect([hoursToSeconds(1), hoursToSeconds('2.5'), hoursToSeconds(0.01), hoursToSeconds(1.005)]).toEqual([
      3600,
      9000,
      36,
      null,
    ]);
  });
  it('charges rate x time and tax, each rounded to the cent', () => {
    // 1 h 14 min at 135.00/h = 166.50; 21 % of it = 34.965 → 34.97.
    expect(netFor(13500, 74 * 60)).toBe(16650);
    expect(taxOf(16650, taxBasisPoints(21))).toBe(3497);
    // 100 s at 0.99/h = 0.0275 → 0.03; half a cent goes away from zero, also negative.
    expect(netFor(99, 100)).toBe(3);
    expect(taxOf(-50, 1000)).toBe(-5);
    expect(taxBasisPoints(7.5)).toBe(750);
    expect(includedTax(12100, 2100)).toBe(2100);
  });
});
