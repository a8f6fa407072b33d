/**
 * npm run crash:writes: 100 cycles (CRASH_CYCLES) of SIGKILL during a stream
 * of REST writes (flight types, flights, billed flight confirms, MEL raise, extend
 * and close, safety reports filed open or submitted from a draft, with their
 * webhook outbox events) on SQLite and PostgreSQL (CRASH_DIALECTS=sqlite,postgres),
 * against the production build (run `npm run build` first, or this builds
 * the server part). Prints the figures; exits 1 on any lost, duplicated or
 * half-written write. TEST_DATABASE_URL picks the PostgreSQL database (a
 * database of its own keeps a long run clear of other suites' schema cleanup).
 */
import { crashWrites } from '../test/integration/ops/crash-harness.ts';
import { buildServer } from '../test/integration/ops/prod-process.ts';

const cycles = Number(process.env.CRASH_CYCLES ?? 100);
const dialects = (process.env.CRASH_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');
// CRASH_SKIP_BUILD=1 when another run on this tree already built it (two dialects in parallel).
if (!process.env.CRASH_SKIP_BUILD) buildServer();
let failed = false;
for (const dialect of dialects) {
  const r = await crashWrites(dialect, cycles, { log: (s) => process.stderr.write(`\r${s}   `) });
  process.stderr.write('\n');
  console.log(
    `${dialect}: ${r.cycles} SIGKILL cycles in ${(r.ms / 1000).toFixed(0)} s; ${r.attempted} writes, ${r.acknowledged} acknowledged (all present exactly once: ${r.missing.length === 0 && r.duplicated.length === 0 ? 'yes' : 'NO'}), ` +
      `${r.unacknowledged} cut by the kill (${r.unacknowledgedButStored} of them committed before the kill, none twice); half-written: ${r.halfWritten.length}`,
  );
  for (const [kind, k] of Object.entries(r.byKind))
    console.log(
      `  ${kind.padEnd(14)} ${k.attempted} attempted, ${k.acknowledged} acknowledged, ${k.attempted - k.acknowledged} cut (${k.cutButStored} committed before the kill)`,
    );
  console.log(`  webhook outbox events checked against their changes: ${r.webhookEvents}`);
  const b = r.billing;
  console.log(
    `  billed confirms: ${b.landed} LANDED flights, ${b.charged} charged exactly once; ${b.doubled.length} double, ${b.missing.length} missing charges; ${b.accounts} accounts, ${b.totalsOff.length} totals rows off the recount; duty totals off the recount: ${r.dutyTotalsOff.length}`,
  );
  const billingBad = b.doubled.length + b.missing.length + b.totalsOff.length + r.dutyTotalsOff.length;
  if (r.missing.length || r.duplicated.length || r.halfWritten.length || billingBad) {
    failed = true;
    console.log(
      JSON.stringify(
        {
          missing: r.missing,
          duplicated: r.duplicated,
          halfWritten: r.halfWritten,
          charges: { doubled: b.doubled, missing: b.missing, totalsOff: b.totalsOff },
          dutyTotalsOff: r.dutyTotalsOff,
        },
        null,
        2,
      ),
    );
  }
}
process.exit(failed ? 1 : 0);
