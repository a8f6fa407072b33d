import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end suite of the field client (a real server, Chromium driven by
// playwright-core). Kept out of the root run: it builds the renderer (once, renderer-global.ts) and needs
// /usr/bin/chromium. Run: npx vitest run test/e2e --config test/e2e/vitest.config.ts
export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'),
  test: {
    include: ['test/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    // One evaluation of the server's modules for every file, as in the main run (vitest.config.ts).
    isolate: false,
    // The renderer, built once for the run; the migrated, seeded database each test server copies (test/setup/template.ts).
    globalSetup: ['test/e2e/renderer-global.ts', 'test/setup/template-global.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    reporters: ['default'],
  },
});
