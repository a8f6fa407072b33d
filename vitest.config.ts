import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that open no database: pure rules, client-core and renderer units, and the integration files that
 * check the code rather than a server. CI runs `npm test` once per dialect; these run in the run that
 * includes SQLite (the first half), not again in a PostgreSQL-only run, where they would check the same
 * bytes a second time (docs/testing.md, CI time).
 */
const DIALECT_FREE = [
  'shared/src/**/*.test.ts',
  'client-core/src/**/*.test.ts',
  'desktop/renderer/src/**/*.test.ts',
  'test/integration/system/{api-types,contract,layout,registration,registry}.test.ts',
  'test/integration/i18n/{catalogue,format}.test.ts',
  'test/integration/ops/{credential-cache,sqlite-transactions}.test.ts',
];
const postgresOnly = !(process.env.TEST_DIALECTS ?? 'sqlite,postgres').includes('sqlite');
// pg-restart restarts the PostgreSQL every suite shares: it runs alone afterwards (npm run test:faults).
const EXCLUDE = [
  '**/node_modules/**',
  'test/e2e/**',
  'test/integration/ops/pg-restart.test.ts',
  ...(postgresOnly ? DIALECT_FREE : []),
];
const INCLUDE = [
  'shared/src/**/*.test.ts',
  'server/src/**/*.test.ts',
  'client-core/src/**/*.test.ts',
  'desktop/renderer/src/**/*.test.ts',
  'test/**/*.test.ts',
];
/** Run with fresh modules (see the `isolated` project). */
const ISOLATED = ['client-core/src/database.test.ts'];

// One run covers every workspace: pure rules in shared/, client-core units and the
// cross-package HTTP/sync suites in test/. Database suites loop over TEST_DIALECTS.
export default defineConfig({
  test: {
    exclude: EXCLUDE,
    pool: 'forks',
    // At least two forks even on the 2-core CI machine, where the default (cores - 1) is one: the PostgreSQL half
    // waits on the database, and both halves spend half their time importing modules, which a second fork overlaps
    // (docs/testing.md, CI time, worker count).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // The contract test: every API response of the suite checked against /openapi.json (test/setup/contract.ts).
    // The migrated, seeded database each test server copies (test/setup/template.ts).
    globalSetup: ['test/setup/contract-global.ts', 'test/setup/template-global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI asks for a JSON report to count passes per dialect (.ci/run).
    reporters: process.env.VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.VITEST_JSON ? { json: process.env.VITEST_JSON } : undefined,
    projects: [
      {
        // A fork evaluates the server's modules once for all its files instead of once per file: importing them
        // was half of each half's time (Vitest's "import" column: 932 s of 998 s summed over the SQLite files).
        // Safe because modules register nothing on import and every file starts its own servers; module caches
        // (i18n, formatters) are shared on purpose (docs/testing.md, CI time).
        extends: true,
        test: { name: 'shared-modules', include: INCLUDE, exclude: ISOLATED, isolate: false },
      },
      {
        // Files that change what a module holds for good: RxDB's dev-mode plugin, once added, stays for every
        // later database of the process.
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true },
      },
    ],
  },
});
