/**
 * Vitest global setup of the contract test (see test/setup/contract.ts): names the directory the
 * workers write to, and on teardown prints how many responses were checked per dialect and fails
 * the run when any response broke its operation's declared schema.
 * `OPS_CONTRACT=0` turns the check off (e.g. while bisecting something else).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTRACT_DIR_ENV, readContractResults } from './contract.ts';

export default function setup(): (() => void) | undefined {
  if (process.env.OPS_CONTRACT === '0') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-contract-'));
  process.env[CONTRACT_DIR_ENV] = dir;
  return () => {
    const { counts, violations } = readContractResults(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    const dialects = [
      ...new Set([
        ...Object.keys(counts.validated),
        ...Object.keys(counts.undocumented),
        ...Object.keys(counts.violations),
      ]),
    ].sort();
    if (!dialects.length) return;
    const ops = Object.entries(counts.operations).filter(([k]) => k !== '(no route)');
    const per = dialects.map(
      (d) =>
        `${d}: ${counts.validated[d] ?? 0} validated, ${counts.undocumented[d] ?? 0} without a declared body, ${counts.violations[d] ?? 0} violations`,
    );
    console.log(`\nAPI contract: ${per.join('; ')}; ${ops.length} operations exercised`);
    if (process.env.OPS_CONTRACT_COVERAGE)
      for (const [op, n] of ops.sort()) console.log(`  ${String(n).padStart(6)}  ${op}`);
    if (violations.length) {
      // Vitest only logs an error thrown by a global teardown; the exit code is what fails CI.
      process.exitCode = 1;
      throw new Error(
        `API contract: ${violations.length} distinct responses broke their operation's declared schema:\n${violations.slice(0, 60).join('\n')}`,
      );
    }
  };
}
