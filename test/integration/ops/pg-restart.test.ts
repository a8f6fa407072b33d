import { describe, expect, it } from 'vitest';
import { DIALECTS, markDialectRan } from '../../setup/dialects.ts';
import { canRestartPostgres } from './pg-cluster.ts';
import { runPgRestartScenario } from './pg-restart-harness.ts';

/**
 * Issue 34 item 1: PostgreSQL restarted during live writes through two
 * start:prod processes. PostgreSQL only, and only where the test database is a
 * local cluster this machine can restart; the scenario always leaves
 * PostgreSQL running. It restarts the server every other suite uses, so it runs
 * alone, after them (`npm run test:faults`, test/faults.vitest.config.ts).
 */
describe.runIf(DIALECTS.includes('postgres') && canRestartPostgres())(
  'PostgreSQL restart under live writes, two processes',
  () => {
    it('listeners reconnect, every stream converges, 0 missed, 0 lost, 0 5xx after recovery, readiness 503 then 200', async () => {
      markDialectRan('postgres');
      const r = await runPgRestartScenario({
        restarts: 1,
        streamsPerProcess: 2,
        writeMs: 1500,
        log: (l) => console.log(l),
      });
      console.log(
        `acknowledged writes ${r.acked}; failed during the outage ${r.failedDuringOutage} ${JSON.stringify(r.statusesDuringOutage)}; recovered (both ready) ${r.recoverMs.join(', ')} ms from the restart command, ${r.recoverAfterDbMs.join(', ')} ms after PostgreSQL was back; converged ${r.convergeMs.join(', ')} ms`,
      );
      expect(r.acked).toBeGreaterThan(10);
      expect(r.missed).toEqual([]);
      expect(r.lost).toEqual([]);
      expect(r.regressions).toEqual([]);
      expect(r.streamsEnded).toBe(0);
      expect(r.fiveXxAfterRecovery).toBe(0);
      // During the outage a request may fail, but only with a 503 (retryable), never a 500.
      expect(Object.keys(r.statusesDuringOutage).filter((s) => s !== '503')).toEqual([]);
      expect(r.readiness).toEqual([
        { saw503: true, ready: true },
        { saw503: true, ready: true },
      ]);
      expect(r.listenerReconnects.every((n) => n >= 1)).toBe(true);
      expect(r.recoverAfterDbMs.every((ms) => ms < 10_000)).toBe(true);
    }, 150_000);
  },
);
