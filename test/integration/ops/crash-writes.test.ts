import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, markDialectRan } from '../../setup/dialects.ts';
import { crashWrites } from './crash-harness.ts';
import { buildServer } from './prod-process.ts';

// The short version of `npm run crash:writes` (100 cycles per dialect).
describe.each(DIALECTS)('REST writes survive SIGKILL on %s', (dialect) => {
  beforeAll(() => {
    markDialectRan(dialect);
    buildServer();
  });

  it('every acknowledged write is present exactly once and nothing is half-written after 4 kill cycles', async () => {
    const r = await crashWrites(dialect, 4);
    expect(r.acknowledged).toBeGreaterThan(0);
    expect(r.unacknowledged).toBeGreaterThanOrEqual(1); // the kills did cut writes in flight
    expect(r.missing).toEqual([]);
    expect(r.duplicated).toEqual([]);
    expect(r.halfWritten).toEqual([]);
  }, 120_000);
});
