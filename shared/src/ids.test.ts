import { describe, expect, it } from 'vitest';
import { isUuid, uuidv7 } from './ids.ts';

describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID carrying the time', () => {
    const id = uuidv7(Date.UTC(2026, 10, 22));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 22));
  });

  it('is strictly increasing within one process, even inside one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7(1_800_000_000_000));
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
