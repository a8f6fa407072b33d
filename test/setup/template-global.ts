/**
 * Vitest global setup: migrates and seeds one fixture database per dialect of this run before any test
 * file starts, for test servers to copy (test/setup/template.ts). `OPS_TEST_TEMPLATE=0` turns copying off
 * (every server migrates and seeds itself, as before), e.g. to time the difference.
 */
import fs from 'node:fs';
import { DIALECTS } from './dialects.ts';
import { startTestServer } from './server.ts';
import { dropRunSchemas, makeTemplate, TEMPLATE_DIR_ENV, templateDir } from './template.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.OPS_TEST_TEMPLATE === '0') return undefined;
  const dir = templateDir();
  for (const dialect of DIALECTS) await makeTemplate(dir, dialect, 'fixtures', startTestServer);
  process.env[TEMPLATE_DIR_ENV] = dir;
  return async () => {
    await dropRunSchemas(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
