import { describe, expect, it } from 'vitest';
import { CredentialCache } from '../../../server/src/ops/credential-cache.ts';

/** The per-process credential cache keeps no expired row once newer ones come in (memory per idle stream, issue 34). */
describe('credential cache', () => {
  it('drops expired rows as new ones are set, keeping the live ones', () => {
    const cache = new CredentialCache<string>(500);
    for (let i = 0; i < 1000; i++) cache.set(`t${i}`, `row ${i}`, i);
    // At 1000 ms every row set before 500 ms has expired: they are gone without being asked for.
    cache.set('late', 'row late', 1000);
    expect(cache.size).toBe(500);
    expect(cache.get('t499', 1000)).toBeUndefined();
    expect(cache.get('t501', 1000)).toBe('row 501');
    expect(cache.get('late', 1000)).toBe('row late');
  });

  it('a row set again is renewed, not swept with its first time', () => {
    const cache = new CredentialCache<string>(500);
    cache.set('a', 'first', 0);
    cache.set('b', 'b', 100);
    cache.set('a', 'second', 400);
    cache.set('c', 'c', 700);
    expect(cache.get('b', 700)).toBeUndefined();
    expect(cache.get('a', 700)).toBe('second');
    expect(cache.size).toBe(2);
  });
});
