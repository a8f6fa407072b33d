import { describe, expect, it } from 'vitest';
import { accountExpired, calendarDateIn } from './account-expiry.ts';

const at = (iso: string) => Date.parse(iso);

describe('account expiry in the company calendar', () => {
  it('reads the date in the zone, not in UTC', () => {
    expect(calendarDateIn('Europe/Madrid', at('2026-11-22T23:30:00Z'))).toBe('2026-11-23');
    expect(calendarDateIn('America/New_York', at('2026-11-23T02:00:00Z'))).toBe('2026-11-22');
    expect(calendarDateIn('UTC', at('2026-11-22T23:30:00Z'))).toBe('2026-11-22');
  });

  it('the expiration day is the last valid day: expired from the company’s next midnight', () => {
    // Madrid is UTC+1 in November: its 23 November starts at 22 November 23:00 UTC.
    expect(accountExpired('2026-11-22', 'Europe/Madrid', at('2026-11-22T22:59:59Z'))).toBe(false);
    expect(accountExpired('2026-11-22', 'Europe/Madrid', at('2026-11-22T23:00:00Z'))).toBe(true);
    // New York is UTC-5: its 22 November lasts until 23 November 05:00 UTC.
    expect(accountExpired('2026-11-22', 'America/New_York', at('2026-11-23T04:59:59Z'))).toBe(false);
    expect(accountExpired('2026-11-22', 'America/New_York', at('2026-11-23T05:00:00Z'))).toBe(true);
  });

  it('no expiration never expires; an unknown zone reads as UTC', () => {
    expect(accountExpired(null, 'Europe/Madrid')).toBe(false);
    expect(accountExpired(undefined, 'Europe/Madrid')).toBe(false);
    expect(accountExpired('2026-11-22', 'Not/AZone', at('2026-11-22T23:59:59Z'))).toBe(false);
    expect(accountExpired('2026-11-22', 'Not/AZone', at('2026-11-23T00:00:00Z'))).toBe(true);
  });
});
