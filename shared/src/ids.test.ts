import { describe, expect, it } from 'vitest';
import { isUuid, uuidv7 } from './ids.ts';

const timeOf = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

// Times near now: the generator keeps the last millisecond it issued for the whole process (other test
// files in the same fork use it), so a time far ahead would date every later id of the fork.
describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID carrying the time', () => {
    const before = Date.now();
    const id = uuidv7();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('is strictly increasing within one process, even inside one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7(now));
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // 4,096 fit in one millisecond; the rest borrow the next ones.
    expect(timeOf(ids[ids.length - 1]) - now).toBeLessThanOrEqual(2);
  });
});
