import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Fault scenarios that disturb what other suites share (a PostgreSQL restart): run alone,
// after the main run, by `npm test` (`npm run test:faults`). No JSON report: CI counts the main run.
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  test: {
    include: ['test/integration/ops/pg-restart.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 150_000,
    hookTimeout: 60_000,
    passWithNoTests: true,
    reporters: ['default'],
  },
});
