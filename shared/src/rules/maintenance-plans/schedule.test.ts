import { describe, expect, it } from 'vitest';
import { nextInOrder, nextJobStart } from './schedule.ts';

const MADRID = 'Europe/Madrid';
/** 2025-01-31 10:00 in Madrid. */
const JAN_31 = 1738314000;

describe('nextJobStart', () => {
  it('takes the CRS expiration when given', () => {
    expect(nextJobStart('MONTH', JAN_31, 1740000000, MADRID)).toBe(1740000000);
  });

  it('counts the periodicity in calendar terms of the company zone', () => {
    // A month after 31 January is the last day of February, same wall-clock time.
    expect(nextJobStart('MONTH', JAN_31, null, MADRID)).toBe(1740733200);
    // Across the March DST change the wall-clock time stays 10:00.
    expect(nextJobStart('QUARTER', JAN_31, null, MADRID)).toBe(1746000000);
    expect(nextJobStart('DAY', JAN_31, null, MADRID)).toBe(JAN_31 + 86_400);
  });

  it('gives no date for NEVER or an unknown repeat', () => {
    expect(nextJobStart('NEVER', JAN_31, null, MADRID)).toBeNull();
    expect(nextJobStart('FORTNIGHT', JAN_31, null, MADRID)).toBeNull();
  });
});

describe('nextInOrder', () => {
  const plans = [
    { id: 'a', sort_order: 1 },
    { id: 'b', sort_order: 2 },
    { id: 'c', sort_order: 2 },
  ];
  it('follows sort order then id, wrapping to the first', () => {
    expect(nextInOrder(plans, null)?.id).toBe('a');
    expect(nextInOrder(plans, { id: 'b', sort_order: 2 })?.id).toBe('c');
    expect(nextInOrder(plans, { id: 'c', sort_order: 2 })?.id).toBe('a');
    // A deleted current keeps its place.
    expect(nextInOrder(plans, { id: 'x', sort_order: 1 })?.id).toBe('b');
    expect(nextInOrder([], null)).toBeNull();
  });
});
