/**
 * `npm run lint:openapi`: the OpenAPI document the server builds, linted as an integrator's tools
 * would: Redocly CLI with its `recommended` rules and Spectral with `spectral:oas`. Both must report
 * 0 errors. The document and the two rule files are written to a temporary directory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { currentDocument } from './generate.ts';

const require = createRequire(import.meta.url);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, JSON.stringify(currentDocument(), null, 2));
fs.writeFileSync(path.join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
/**
 * Spectral's `ajv-errors` must use the same Ajv as Spectral itself; an install that hoisted another Ajv
 * beside it breaks Spectral at start-up ("Unexpected token ':'"). This preload sends `ajv-errors`' Ajv to Spectral's.
 */
fs.writeFileSync(
  path.join(dir, 'spectral-ajv.cjs'),
  `const Module = require('module');
const path = require('path');
const spectralAjv = require.resolve('ajv', { paths: [path.dirname(require.resolve('@stoplight/spectral-core', { paths: [${JSON.stringify(process.cwd())}] }))] });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'ajv' && parent && /[\\\\/]ajv-errors[\\\\/]/.test(parent.filename)) return spectralAjv;
  return resolve.call(this, request, parent, ...rest);
};
`,
);

const bin = (pkg: string, name: string) => {
  const manifest = require.resolve(`${pkg}/package.json`);
  const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return path.join(path.dirname(manifest), typeof json.bin === 'string' ? json.bin : json.bin[name]);
};

let failed = false;
const run = (label: string, args: string[]) => {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (r.status !== 0) {
    console.error(`${label} failed (exit ${r.status})`);
    failed = true;
  }
};
run('Redocly recommended', [bin('@redocly/cli', 'redocly'), 'lint', file, '--config', path.join(dir, 'redocly.yaml')]);
run('Spectral spectral:oas', [
  '--require',
  path.join(dir, 'spectral-ajv.cjs'),
  bin('@stoplight/spectral-cli', 'spectral'),
  'lint',
  file,
  '--ruleset',
  path.join(dir, '.spectral.yaml'),
  '--fail-severity',
  'error',
]);
fs.rmSync(dir, { recursive: true, force: true });
if (failed) process.exit(1);
console.log('\nOpenAPI document: 0 errors in Redocly recommended and Spectral spectral:oas');
