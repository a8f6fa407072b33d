/**
 * Vitest global setup: migrates and seeds one database per dialect of this run before any test file
 * starts, for test servers to copy (test/setup/template.ts). `OPS_TEST_TEMPLATE=0` turns it off
 * (every server migrates and seeds itself, as before), e.g. to time the difference.
 */
import fs from 'node:fs';
import { DIALECTS } from './dialects.ts';
import { startTestServer } from './server.ts';
import { makeTemplates, TEMPLATE_DIR_ENV, templateDir } from './template.ts';

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.OPS_TEST_TEMPLATE === '0') return undefined;
  const dir = templateDir();
  await makeTemplates(dir, DIALECTS, (d, o) => startTestServer(d, o));
  process.env[TEMPLATE_DIR_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
