import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { runConvergence } from '../../sim/convergence.ts';

/**
 * The short convergence simulation (the long one is `npm run sim:convergence`):
 * 3 client-core devices in their own processes, 150 seeded operations with
 * partitions and a server SIGKILL in the middle; every device ends with exactly
 * the server's state for its user, every command decided once, invariants hold.
 */
describe.each(DIALECTS)('convergence simulation on %s', (dialect) => {
  it('3 devices, 150 operations, a server crash: converged', { timeout: 180_000 }, async () => {
    const seed = Number(process.env.SIM_SEED ?? 20261123);
    const lines: string[] = [];
    const r = await runConvergence({ dialect, devices: 3, ops: 150, seed, log: (l) => lines.push(l) });
    expect({
      violations: r.violations,
      lostWrites: r.lostWrites,
      mismatches: r.mismatches,
      log: lines.slice(-3),
    }).toEqual({ violations: [], lostWrites: [], mismatches: [], log: expect.any(Array) });
    expect(r.line).toBe('converged: 3 devices, 150 operations, 0 invariant violations, 0 lost writes');
    // The schedule really exercised the commands and edits.
    expect(r.commands).toBeGreaterThan(10);
    expect(r.edits).toBeGreaterThan(20);
  });
});
