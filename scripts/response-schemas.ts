/**
 * Drafts the `response` schema of routes that have none, from the handler's return type:
 *
 *   npx tsx scripts/response-schemas.ts server/src/areas/<area>/<area>.routes.ts ...
 *
 * For each route without `response`/`file`/`redirect` it writes a zod schema into
 * `<name>.responses.ts` beside the routes file (overwriting it: run it on files whose routes
 * all lack one, or merge by hand) and adds `response: Z…` to the route. Review the draft:
 * routes that write their answer themselves are listed as MANUAL (declare `file`, `redirect`
 * or a schema by hand); `Record<string, unknown>` types come out loose.
 */
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cfg = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;
const files = process.argv.slice(2).map((f) => path.resolve(root, f));
const program = ts.createProgram(files, cfg.options);
const checker = program.getTypeChecker();
const F = ts.TypeFlags;

function zodOf(t: ts.Type, depth: number, ind: string): string {
  if (depth > 14) return 'z.unknown()';
  const str = checker.typeToString(t);
  if (t.flags & (F.Any | F.Unknown)) return 'z.unknown()';
  if (t.flags & F.Never) return 'z.never()';
  if (t.flags & F.Null) return 'z.null()';
  if (t.flags & (F.Undefined | F.Void)) return 'z.undefined()';
  if (t.flags & F.StringLiteral) return `z.literal(${JSON.stringify((t as ts.StringLiteralType).value)})`;
  if (t.flags & F.NumberLiteral) return `z.literal(${(t as ts.NumberLiteralType).value})`;
  if (t.flags & F.BooleanLiteral) return `z.literal(${str})`;
  if (t.flags & F.String || t.flags & F.TemplateLiteral) return 'z.string()';
  if (t.flags & F.Number) return 'z.number()';
  if (t.flags & F.Boolean) return 'z.boolean()';
  if (t.flags & F.BigInt) return 'z.bigint()';
  if (t.flags & F.Enum || t.flags & F.EnumLiteral) return 'z.unknown()';
  if (t.isUnion()) {
    let parts = t.types;
    const hasNull = parts.some((p) => p.flags & F.Null);
    const hasUndef = parts.some((p) => p.flags & (F.Undefined | F.Void));
    parts = parts.filter((p) => !(p.flags & (F.Null | F.Undefined | F.Void)));
    const hasTrue = parts.some((p) => p.flags & F.BooleanLiteral && checker.typeToString(p) === 'true');
    const hasFalse = parts.some((p) => p.flags & F.BooleanLiteral && checker.typeToString(p) === 'false');
    let inner: string[] = [];
    if (hasTrue && hasFalse) {
      parts = parts.filter((p) => !(p.flags & F.BooleanLiteral));
      inner.push('z.boolean()');
    }
    const strLits = parts.filter((p) => p.flags & F.StringLiteral);
    if (strLits.length > 1) {
      inner.push(`z.enum([${strLits.map((p) => JSON.stringify((p as ts.StringLiteralType).value)).join(', ')}])`);
      parts = parts.filter((p) => !(p.flags & F.StringLiteral));
    }
    inner = [...inner, ...parts.map((p) => zodOf(p, depth + 1, ind))];
    let out = inner.length === 0 ? 'z.null()' : inner.length === 1 ? inner[0]! : `z.union([${inner.join(', ')}])`;
    if (hasNull && inner.length) out += '.nullable()';
    if (hasUndef) out += '.optional()';
    return out;
  }
  if (checker.isArrayType(t)) {
    const el = checker.getTypeArguments(t as ts.TypeReference)[0]!;
    const ro = t.getSymbol()?.getName() === 'ReadonlyArray';
    return `z.array(${zodOf(el, depth + 1, ind)})${ro ? '.readonly()' : ''}`;
  }
  if (checker.isTupleType(t)) {
    const els = checker.getTypeArguments(t as ts.TypeReference);
    const ro = ((t as ts.TypeReference).target as ts.TupleType).readonly;
    let inner: string;
    if (els.length && els.every((e) => e.flags & F.StringLiteral))
      inner = `z.enum([${[...new Set(els.map((e) => JSON.stringify((e as ts.StringLiteralType).value)))].join(', ')}])`;
    else {
      const parts = [...new Set(els.map((e) => zodOf(e, depth + 1, ind)))];
      inner = parts.length === 1 ? parts[0]! : `z.union([${parts.join(', ')}])`;
    }
    return `z.array(${inner})${ro ? '.readonly()' : ''}`;
  }
  if (t.flags & F.Object || t.flags & F.Intersection) {
    const sym = t.getSymbol();
    if (sym && ['Date'].includes(sym.getName())) return 'z.string()';
    if (sym && sym.getName() === 'Reply') return '__REPLY__';
    const props = checker.getPropertiesOfType(t);
    const idx = checker.getIndexInfosOfType(t);
    if (!props.length && idx.length) return `z.record(z.string(), ${zodOf(idx[0]!.type, depth + 1, ind)})`;
    if (!props.length) return 'z.object({})';
    const ni = `${ind}  `;
    const lines = props.map((p) => {
      const pt = checker.getTypeOfSymbol(p);
      const opt = p.flags & ts.SymbolFlags.Optional;
      let z = zodOf(pt, depth + 1, ni);
      if (opt && !z.endsWith('.optional()')) z += '.optional()';
      const key = /^[A-Za-z_$][\w$]*$/.test(p.getName()) ? p.getName() : JSON.stringify(p.getName());
      return `${ni}${key}: ${z},`;
    });
    const body = `{\n${lines.join('\n')}\n${ind}}`;
    return idx.length ? `z.object(${body}).catchall(${zodOf(idx[0]!.type, depth + 1, ind)})` : `z.object(${body})`;
  }
  return `z.unknown() /* ${str} */`;
}

const nameOf = (p: string) => {
  const words = p
    .replace(/\.json$/, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/[:*]\w+/g, '')
    .split(/[/_.-]+/)
    .filter(Boolean);
  const base = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') || 'Root';
  return base;
};

const report: string[] = [];
const byText = new Map<string, string>();
const needPag = new Set<string>();
for (const f of files) {
  const sf = program.getSourceFile(f)!;
  const out: string[] = [];
  const used = new Set<string>();
  const edits: { pos: number; text: string }[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && n.expression.getText() === 'defineRoute') {
      const obj = n.arguments[0] as ts.ObjectLiteralExpression;
      const get = (k: string) =>
        obj.properties.find((p) => p.name?.getText() === k) as ts.PropertyAssignment | ts.MethodDeclaration | undefined;
      const pp = get('path');
      const pth =
        pp && ts.isPropertyAssignment(pp) ? pp.initializer.getText().slice(1, -1) : `${pp?.getText() ?? 'dynamic'}`;
      const mm = get('method');
      const m = mm && ts.isPropertyAssignment(mm) ? mm.initializer.getText() : 'method';
      const h = get('handler')!;
      if (get('response') || get('file') || get('redirect')) return;
      const fn = ts.isPropertyAssignment(h) ? h.initializer : h;
      const sig = checker.getSignaturesOfType(checker.getTypeAtLocation(fn), ts.SignatureKind.Call)[0]!;
      let rt = checker.getReturnTypeOfSignature(sig);
      rt = checker.getAwaitedType(rt) ?? rt;
      let z = zodOf(rt, 0, '');
      const hadUndef = z.endsWith('.optional()');
      z = z.replace(/\.optional\(\)$/, '');
      z = z
        .replace(/z\.union\(\[__REPLY__, ([\s\S]*)\]\)$/, '$1')
        .replace(/z\.union\(\[([\s\S]*), __REPLY__\]\)$/, '$1');
      if (z.includes('__REPLY__')) z = z.replace(/__REPLY__/g, 'z.never()');
      if (z === 'z.undefined()' || z === 'z.never()') {
        report.push(`MANUAL ${path.basename(f)} ${m} ${pth} (writes itself)`);
        return;
      }
      const PAG =
        /z\.object\(\{\s*page: z\.number\(\),\s*current: z\.number\(\),\s*count: z\.number\(\),\s*prevPage: z\.boolean\(\),\s*nextPage: z\.boolean\(\),\s*pageCount: z\.number\(\),\s*limit: z\.number\(\),\s*\}\)/g;
      if (PAG.test(z)) {
        z = z.replace(PAG, 'ZPaginate');
        needPag.add(f);
      }
      const existing = byText.get(f + z);
      if (existing) {
        edits.push({ pos: h.getStart(), text: `response: ${existing},\n    ` });
        return;
      }
      let name = `Z${nameOf(pth)}`;
      while (used.has(name)) name += m.includes('POST') ? 'Post' : 'X';
      used.add(name);
      byText.set(f + z, name);
      if (hadUndef) report.push(`NOTE ${path.basename(f)} ${m} ${pth} may write itself`);
      if (z.startsWith('z.record(') || z.startsWith('z.unknown'))
        report.push(`LOOSE ${path.basename(f)} ${m} ${pth}: ${z.slice(0, 80)}`);
      out.push(
        `/** ${m.replace(/'/g, '')} ${pth} */\nexport const ${name} = ${z.replace(/^z\.object\(/, 'z.strictObject(')};\n`,
      );
      edits.push({ pos: h.getStart(), text: `response: ${name},\n    ` });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!out.length) continue;
  const base = path.basename(f).replace(/\.routes\.ts$/, '');
  const respFile = path.join(path.dirname(f), `${base}.responses.ts`);
  const header = `import { z } from 'zod';\n${needPag.has(f) ? "import { ZPaginate } from '../../http/responses.ts';\n" : ''}\n/**\n * Response schemas of the ${base} routes: the 200 bodies as the handlers return them (each route's\n * \`response\`). The handler's return type is checked against these at compile time and every answer\n * of the integration suite against the document they produce (the contract test).\n */\n\n`;
  fs.writeFileSync(respFile, header + out.join('\n'));
  let src = sf.getFullText();
  for (const e of edits.sort((a, b) => b.pos - a.pos)) src = src.slice(0, e.pos) + e.text + src.slice(e.pos);
  const names = [...used].join(', ');
  const imp = `import { ${names} } from './${base}.responses.ts';\n`;
  const lastImport = [...src.matchAll(/^import [^;]+;\n/gm)].pop()!;
  src =
    src.slice(0, lastImport.index! + lastImport[0].length) + imp + src.slice(lastImport.index! + lastImport[0].length);
  fs.writeFileSync(f, src);
}
console.log(report.join('\n'));
