/**
 * `npm run chaos:postgres` (issue 34 item 1): PostgreSQL restarted during live
 * writes through two server processes (start:prod), with live streams on
 * both. Prints the time to recover (both processes ready again, every stream
 * converged) per restart and fails (exit 1) on any missed or lost change, a
 * 5xx after recovery or a 500 during the outage. Always leaves PostgreSQL running.
 *
 *   npm run chaos:postgres -- [--restarts 3] [--streams 25] [--write-ms 3000] [--relay]
 *
 * --relay: instead of restarting PostgreSQL, cut a TCP relay between the processes and PostgreSQL for a
 * second (disturbs no one else; for development).
 *
 * It restarts the local cluster (pg_ctlcluster): other users of that
 * PostgreSQL see their connections dropped for about a second per restart.
 */
import { parseArgs } from 'node:util';
import { canRestartPostgres, ensurePostgresRunning } from '../test/integration/ops/pg-cluster.ts';
import { runPgRestartScenario } from '../test/integration/ops/pg-restart-harness.ts';

const { values } = parseArgs({
  options: {
    restarts: { type: 'string', default: '3' },
    streams: { type: 'string', default: '25' },
    'write-ms': { type: 'string', default: '3000' },
    relay: { type: 'boolean', default: false },
  },
});
const restarts = Math.min(10, Math.max(1, Number(values.restarts)));
const streams = Math.min(500, Math.max(1, Number(values.streams)));
const writeMs = Math.min(60_000, Math.max(200, Number(values['write-ms'])));

async function main(): Promise<number> {
  if (!values.relay && !canRestartPostgres()) {
    console.error(
      'chaos:postgres needs a local PostgreSQL cluster under pg_ctlcluster (TEST_DATABASE_URL on 127.0.0.1)',
    );
    return 2;
  }
  const stamp = () => new Date().toISOString().slice(11, 23);
  console.log(
    `chaos:postgres: ${restarts} restart(s), 2 processes, ${streams} streams per process, writes for ${writeMs} ms before each restart and after each recovery`,
  );
  const r = await runPgRestartScenario({
    restarts,
    streamsPerProcess: streams,
    writeMs,
    fault: values.relay ? 'relay' : 'restart',
    log: (l) => console.log(`${stamp()} ${l}`),
  });
  const problems = [
    ...r.missed.map((m) => `missed: ${m}`),
    ...r.lost.map((m) => `lost: ${m}`),
    ...r.regressions.map((m) => `went back: ${m}`),
    ...(r.streamsEnded ? [`${r.streamsEnded} streams ended`] : []),
    ...(r.fiveXxAfterRecovery ? [`${r.fiveXxAfterRecovery} 5xx after recovery`] : []),
    ...Object.keys(r.statusesDuringOutage)
      .filter((s) => s !== '503')
      .map((s) => `status ${s} during the outage (${r.statusesDuringOutage[s]}x)`),
    ...r.readiness.flatMap((x, i) => [
      ...(x.saw503 ? [] : [`process ${i}: /health/ready never answered 503`]),
      ...(x.ready ? [] : [`process ${i}: not ready at the end`]),
    ]),
    ...r.recoverMs.filter((ms) => !(ms < 10_000)).map((ms) => `recovery took ${ms} ms (target < 10 s)`),
  ];
  const max = (xs: number[]) => Math.max(...xs);
  console.log(
    `acknowledged writes ${r.acked}; failed during outages ${r.failedDuringOutage} ${JSON.stringify(r.statusesDuringOutage)}; pg_ctlcluster restart ${r.restartCommandMs.join(', ')} ms; ` +
      `time to recover (restart begun → both processes ready) ${r.recoverMs.join(', ')} ms (max ${max(r.recoverMs)}), of which after PostgreSQL accepted connections again ${r.recoverAfterDbMs.join(', ')} ms; every stream converged after ${r.convergeMs.join(', ')} ms; listener reconnects per process ${r.listenerReconnects.join(', ')}`,
  );
  console.log(
    problems.length
      ? `FAIL\n  ${problems.join('\n  ')}`
      : `PASS: 0 missed, 0 lost, 0 5xx after recovery, ${streams * 2} streams converged`,
  );
  return problems.length ? 1 : 0;
}

// A stream the server ends unexpectedly rejects inside the stream reader; the scenario counts it (streams ended).
process.on('unhandledRejection', (err) => console.error(`stream ended: ${(err as Error).message}`));

let code = 1;
try {
  code = await main();
} finally {
  await ensurePostgresRunning();
}
process.exit(code);
