import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AREAS, SEED_ORDER, seedSteps } from '@ops/server/areas/index';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * How an area registers (docs/architecture.md): each area folder exports a manifest in
 * `<area>.area.ts`, `server/src/areas/index.ts` lists it, and `registerAreas()` registers it once.
 * Modules under server/src/areas define values; none registers anything on import.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const areasDir = path.join(root, 'server/src/areas');
const folders = fs
  .readdirSync(areasDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** `register…(…)` calls a module makes while it loads: outside any function body. */
export function topLevelRegisterCalls(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      if (/^register[A-Z]/.test(name))
        found.push(`${name} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('area registration', () => {
  it('every area folder has a manifest <area>.area.ts exporting its AreaDef', () => {
    const missing = folders.filter((a) => !fs.existsSync(path.join(areasDir, a, `${a}.area.ts`)));
    expect(missing).toEqual([]);
  });

  it('server/src/areas/index.ts lists every area folder once (and the sync kernel)', () => {
    const names = AREAS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...folders, 'sync'].sort());
  });

  it('no module under server/src/areas calls a register* function while it loads', () => {
    const offenders = sourceFiles(areasDir).flatMap((f) =>
      topLevelRegisterCalls(f, fs.readFileSync(f, 'utf8')).map((c) => `${path.relative(root, f)}: ${c}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the check catches a top-level registration, not one inside a function', () => {
    expect(topLevelRegisterCalls('a.ts', "registerJob({ name: 'x' });\nexport const j = registerThing(1);")).toEqual([
      'registerJob (line 1)',
      'registerThing (line 2)',
    ]);
    expect(topLevelRegisterCalls('b.ts', 'export function registerAll() { registerJob(job); }')).toEqual([]);
  });

  it('seeds run in the stated order and every area with a seed step is in it', () => {
    const seeding = AREAS.filter((a) => a.seed).map((a) => a.name);
    expect([...SEED_ORDER].sort()).toEqual([...seeding].sort());
    expect(seedSteps().map((s) => AREAS.find((a) => a.seed === s)?.name)).toEqual(SEED_ORDER);
  });
});
