/**
 * The contract test: every API response a test server produces is validated against its
 * operation's declared answer in the OpenAPI document (/openapi.json), with Ajv (JSON Schema
 * 2020-12). Test servers install the recorder (test/setup/server.ts) when the global setup
 * (test/setup/contract-global.ts) named a directory; each worker appends its violations and
 * writes its counts there, and the global teardown fails the run on any violation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { allRoutes } from '@ops/server/areas/index';
import type { ObservedResponse } from '@ops/server/http/observe';
import { buildOpenApi, openApiPaths } from '@ops/server/http/openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export const CONTRACT_DIR_ENV = 'OPS_CONTRACT_DIR';

type Json = Record<string, unknown>;
type Doc = {
  paths: Record<string, Record<string, Json>>;
  components: { responses: Record<string, Json>; schemas?: Record<string, Json> };
};

export interface Verdict {
  /** `METHOD /openapi/path`, or `(no route)` for answers outside any operation. */
  operation: string;
  /** validated: checked against a schema; undocumented: the operation declares no body for this answer. */
  outcome: 'validated' | 'undocumented' | 'violation' | 'skipped';
  message?: string;
}

/** Checks observed responses against a document (the server's own by default). */
export function contractChecker(doc: Doc = buildOpenApi(allRoutes(), '0.0.0') as unknown as Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (key: string, schema: Json) => {
    let v = compiled.get(key);
    if (!v) {
      // Records are `$ref`s to the document's `components/schemas`: compiled with them beside the schema.
      v = ajv.compile({ ...schema, components: { schemas: doc.components.schemas ?? {} } });
      compiled.set(key, v);
    }
    return v;
  };
  const resolve = (r: Json): Json => {
    const target = typeof r.$ref === 'string' ? /^#\/components\/responses\/(\w+)$/.exec(r.$ref)?.[1] : undefined;
    return target ? (doc.components.responses[target] ?? r) : r;
  };
  const errorEnvelope = resolve({ $ref: '#/components/responses/Error' });

  return function check(r: ObservedResponse): Verdict {
    const openPath = r.pattern ? openApiPaths(r.pattern)[0] : undefined;
    const op = openPath ? doc.paths[openPath]?.[r.method.toLowerCase()] : undefined;
    const operation = op ? `${r.method} ${openPath}` : '(no route)';
    // Outside every operation (unknown path, another method's 400/405): only errors, in the envelope.
    let declared: Json | undefined;
    let statusKey = 'error';
    if (op) {
      const responses = op.responses as Record<string, Json>;
      statusKey = String(r.status) in responses ? String(r.status) : 'default';
      const raw = responses[statusKey];
      declared = raw ? resolve(raw) : undefined;
    } else if (r.status >= 400) declared = errorEnvelope;
    else return { operation, outcome: 'skipped' };
    if (!declared) return { operation, outcome: 'violation', message: `status ${r.status} is not declared` };
    // A 5xx is a bug the suite reports itself (or a fault a test provokes); its envelope is still checked.
    if (r.status >= 300 && r.status < 400) {
      return r.location
        ? { operation, outcome: 'validated' }
        : { operation, outcome: 'violation', message: `${r.status} without a Location header` };
    }
    const content = declared.content as Record<string, { schema?: Json }> | undefined;
    if (!content) return { operation, outcome: 'undocumented' };
    const mediaType = (r.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const entry = content[mediaType] ?? content['*/*'];
    if (!entry) {
      if (r.status === 204 || (r.contentType === null && r.body === undefined))
        return { operation, outcome: 'validated' };
      return {
        operation,
        outcome: 'violation',
        message: `status ${r.status} answered ${mediaType || 'no content type'}; declared ${Object.keys(content).join(', ')}`,
      };
    }
    if (mediaType !== 'application/json' || !entry.schema) return { operation, outcome: 'validated' };
    if (r.body === undefined) return { operation, outcome: 'validated' };
    if (typeof r.body === 'symbol') return { operation, outcome: 'violation', message: 'body is not valid JSON' };
    const validate = validatorFor(`${operation} ${statusKey}`, entry.schema);
    if (validate(r.body)) return { operation, outcome: 'validated' };
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
    return { operation, outcome: 'violation', message: `status ${r.status}: ${errors.join('; ')}` };
  };
}

export interface ContractCounts {
  /** Per dialect: responses checked against a schema. */
  validated: Record<string, number>;
  undocumented: Record<string, number>;
  violations: Record<string, number>;
  /** Operation → responses checked (coverage). */
  operations: Record<string, number>;
}

/** The per-worker recorder the test server installs: checks each response, keeps counts, logs violations. */
export function contractRecorder(dir: string) {
  const check = contractChecker();
  const counts: ContractCounts = { validated: {}, undocumented: {}, violations: {}, operations: {} };
  const bump = (m: Record<string, number>, k: string) => {
    m[k] = (m[k] ?? 0) + 1;
  };
  const file = (suffix: string) => path.join(dir, `${process.pid}.${suffix}`);
  const seen = new Set<string>();
  return {
    observe(r: ObservedResponse) {
      const v = check(r);
      if (v.outcome === 'skipped') return;
      bump(
        v.outcome === 'violation'
          ? counts.violations
          : v.outcome === 'validated'
            ? counts.validated
            : counts.undocumented,
        r.dialect,
      );
      bump(counts.operations, v.operation);
      if (v.outcome !== 'violation') return;
      const line = `${r.dialect} ${r.method} ${r.path} → ${v.operation}: ${v.message}`;
      // One line per distinct problem keeps the file small when a test loops over a bad answer.
      const key = `${v.operation} ${v.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      // Vitest keeps the running test's name in the shared matcher state (no `globals` needed).
      const test = (
        globalThis as Record<symbol, { state?: { currentTestName?: string; testPath?: string } } | undefined>
      )[Symbol.for('$$jest-matchers-object')]?.state;
      fs.appendFileSync(
        file('violations'),
        `${line}\n    in ${test?.testPath ? path.relative(process.cwd(), test.testPath) : '?'} › ${test?.currentTestName ?? '?'}\n`,
      );
    },
    flush() {
      fs.writeFileSync(file('counts.json'), JSON.stringify(counts));
    },
  };
}

/** Sums the workers' counts and collects their violations (global teardown). */
export function readContractResults(dir: string): { counts: ContractCounts; violations: string[] } {
  const total: ContractCounts = { validated: {}, undocumented: {}, violations: {}, operations: {} };
  const violations: string[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const full = path.join(dir, name);
    if (name.endsWith('.violations'))
      violations.push(
        ...fs
          .readFileSync(full, 'utf8')
          .split(/\n(?=\S)/)
          .filter(Boolean),
      );
    if (!name.endsWith('.counts.json')) continue;
    const c = JSON.parse(fs.readFileSync(full, 'utf8')) as ContractCounts;
    for (const key of ['validated', 'undocumented', 'violations', 'operations'] as const) {
      for (const [k, n] of Object.entries(c[key])) total[key][k] = (total[key][k] ?? 0) + n;
    }
  }
  return { counts: total, violations: [...new Set(violations.map((v) => v.trimEnd()))] };
}
