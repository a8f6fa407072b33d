import { describe, expect, it } from 'vitest';
import { nextAttemptDelay, WEBHOOK_RETRY_SECONDS } from './events.ts';

describe('webhook retry schedule', () => {
  it('backs off from 10 seconds to hourly', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((n) => nextAttemptDelay(n, 0, 100))).toEqual([
      10, 30, 60, 120, 300, 600, 1800, 3600, 3600, 3600,
    ]);
  });
  it('stops once the next attempt would fall past a day after the event', () => {
    expect(nextAttemptDelay(9, 0, WEBHOOK_RETRY_SECONDS - 3600)).toBe(3600);
    expect(nextAttemptDelay(9, 0, WEBHOOK_RETRY_SECONDS - 3599)).toBeNull();
  });
  it('counts about 30 attempts over the day', () => {
    let t = 0;
    let attempts = 1;
    for (;;) {
      const d = nextAttemptDelay(attempts, 0, t);
      if (d === null) break;
      t += d;
      attempts++;
    }
    expect(attempts).toBeGreaterThan(25);
    expect(attempts).toBeLessThan(35);
  });
});
