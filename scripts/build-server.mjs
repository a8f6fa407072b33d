#!/usr/bin/env node
/**
 * Production build of the server: every TypeScript module of server/src and
 * shared/src is transpiled to one JavaScript module (server/dist, shared/dist,
 * the same layout as src so paths relative to a module still hold), with
 * relative `.ts` specifiers rewritten to `.js` and `@ops/shared/...` rewritten
 * to the compiled shared modules. The result runs with plain `node
 * server/dist/main.js`: no tsx, no TypeScript, no dev dependencies. Type
 * checking is `npm run typecheck` (part of `npm run build`).
 *
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packages = [
  { src: path.join(root, 'shared/src'), out: path.join(root, 'shared/dist') },
  { src: path.join(root, 'server/src'), out: path.join(root, 'server/dist') },
];
const sharedOut = packages[0].out;

/** Source modules: .ts files that are not tests. */
function sources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.ts$/.test(entry.name) && !/\.(test|spec|d)\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

const SPECIFIER = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])([^"'\n]+)\2/g;

/** Rewrites the import specifiers of one emitted module. */
function rewrite(code, file) {
  return code.replace(SPECIFIER, (_whole, lead, quote, spec) => {
    let next = spec;
    if (spec.startsWith('./') || spec.startsWith('../')) {
      next = spec.replace(/\.ts$/, '.js');
    } else if (spec === '@ops/shared' || spec.startsWith('@ops/shared/')) {
      const sub = spec === '@ops/shared' ? 'index' : spec.slice('@ops/shared/'.length);
      let rel = path
        .relative(path.dirname(file), path.join(sharedOut, `${sub}.js`))
        .split(path.sep)
        .join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      next = rel;
    } else if (spec.startsWith('@ops/')) {
      throw new Error(`${file}: the production build only bundles @ops/shared, not ${spec}`);
    }
    return `${lead}${quote}${next}${quote}`;
  });
}

const started = Date.now();
let count = 0;
/** Every file under dir. */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Atomic per file (write aside, rename), so a server starting from dist during a rebuild never reads half a module. */
function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

for (const { src, out } of packages) {
  const entryPoints = sources(src);
  const result = await build({
    entryPoints,
    outbase: src,
    outdir: out,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    supported: { 'import-attributes': true },
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  const written = new Set([path.join(out, 'package.json')]);
  for (const file of result.outputFiles) {
    const text = file.path.endsWith('.js') ? rewrite(file.text, file.path) : file.text;
    writeAtomic(file.path, text);
    written.add(file.path);
  }
  // Marks the output as ES modules even when copied without its package.json.
  writeAtomic(path.join(out, 'package.json'), '{ "type": "module" }\n');
  // Modules whose source is gone (not temporary files of a concurrent build).
  for (const f of filesUnder(out)) if (!written.has(f) && !f.endsWith('.tmp')) fs.rmSync(f, { force: true });
  count += entryPoints.length;
}
console.log(`server build: ${count} modules to server/dist and shared/dist in ${Date.now() - started} ms`);
