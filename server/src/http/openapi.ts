import { ROLE_NAMES } from '@ops/shared';
import { z } from 'zod';
import { methodsOf } from './router.ts';
import type { Access, RouteDef } from './define-route.ts';
import { ZError, ZValidationError } from './responses.ts';
import { apiDescription, SESSION_ONLY_NOTE, tagsFor } from './openapi-docs.ts';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

/**
 * A zod schema as JSON Schema. On the request side (`input`) a `pipe` documents its input only, so
 * `z.string().trim().pipe(z.email())` would lose the format: the string constraints of the piped
 * output (format, pattern, enum, lengths) are carried over, so the document is as strict as the server.
 */
function jsonSchema(s: z.ZodType, io: Io): Json {
  const { $schema: _s, ...schema } = z.toJSONSchema(s, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { type: string; in?: z.ZodType; out?: z.ZodType } } })._zod.def;
      if (io !== 'input' || def.type !== 'pipe' || !def.out) return;
      // A preprocess takes more than its inner schema: an empty value read as "not given" (form convention),
      // a comma-separated list for an array. Probed on the schema itself, so the document accepts what the server does.
      const preprocess = (def.in as { _zod?: { def: { type: string } } } | undefined)?._zod?.def.type === 'transform';
      const js = ctx.jsonSchema as Json;
      const anyString =
        js.type === 'string' &&
        js.enum === undefined &&
        js.const === undefined &&
        !js.minLength &&
        !js.pattern &&
        !js.format;
      if (preprocess && Object.keys(js).length && !anyString) {
        const zs = ctx.zodSchema as unknown as z.ZodType;
        const items = (js.items as Json | undefined)?.enum as string[] | undefined;
        const text = js.type !== 'string' && zs.safeParse(items?.[0] ?? 'x').success;
        const empty = zs.safeParse('').success;
        const number = text && js.type === 'array' && zs.safeParse(1).success;
        if (text || empty) {
          const inner = { ...js };
          for (const k of Object.keys(js)) delete js[k];
          const alt = text
            ? {
                type: 'string',
                ...(empty ? {} : { minLength: 1 }),
                description: items ? `Comma-separated: ${items.join(', ')}` : 'Comma-separated values',
              }
            : { type: 'string', const: '' };
          Object.assign(js, {
            anyOf: [inner, alt, ...(number ? [{ type: 'number', description: 'A single value' }] : [])],
          });
        }
        return;
      }
      if (ctx.jsonSchema.type !== 'string') return;
      const out = z.toJSONSchema(def.out, { io: 'output', unrepresentable: 'any' }) as Json;
      if (out.type !== 'string') return;
      for (const k of ['format', 'pattern', 'enum', 'minLength', 'maxLength'] as const)
        if (out[k] !== undefined && ctx.jsonSchema[k] === undefined) ctx.jsonSchema[k] = out[k] as never;
    },
  }) as Json;
  return schema;
}
const toSchema = (s: z.ZodType) => jsonSchema(s, 'input');
/** A response body as the server writes it: `output` makes a plain z.object closed (additionalProperties false). */
const toOutSchema = (s: z.ZodType) => jsonSchema(s, 'output');

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
/** The header every body with a `message` carries (issue 33): the language that message is in. */
const CONTENT_LANGUAGE = {
  description: 'The language of `message`: en, es, fr or de (en when the text is not translated yet)',
  schema: { type: 'string', enum: ['en', 'es', 'fr', 'de'] },
};
const ERROR_RESPONSES = {
  ValidationFailed: {
    description: 'Validation failed: `{result: false, message, errors|validation}` (field → messages)',
    schema: ZValidationError,
  },
  Unauthorized: { description: 'Missing, unknown, expired or revoked token', schema: ZError },
  Forbidden: { description: 'A role, plan, permission or session-only gate refused the caller', schema: ZError },
  NotFound: {
    description: 'No such record in the caller’s company (another company’s record is also 404)',
    schema: ZError,
  },
  TooManyRequests: {
    description: 'Throttled (sign-in, password or code attempts); `retry_after` seconds',
    schema: ZError,
  },
  Error: { description: 'Other errors (405, 409, 410, 413, 5xx) in the same envelope', schema: ZError },
} as const;

/** The `responses` object of one operation: the 200 (JSON, file or redirect), declared others, then the error envelope. */
export function responsesFor(r: RouteDef): Record<string, unknown> {
  const headers = r.headers
    ? {
        headers: Object.fromEntries(
          Object.entries(r.headers).map(([k, h]) => [
            k,
            { description: h.description, schema: { type: h.type ?? 'string' } },
          ]),
        ),
      }
    : {};
  const success: Record<string, unknown> = {};
  if (r.redirect) {
    success[302] = {
      description: 'Redirect to the file',
      headers: { Location: { description: 'Where the file is served', schema: { type: 'string' } } },
    };
  } else {
    // A JSON answer, a file, or either (a list that also exports `excel:true`).
    const types = r.file ? (typeof r.file.mediaType === 'string' ? [r.file.mediaType] : r.file.mediaType) : [];
    const content: Record<string, unknown> = {
      ...(r.response ? { 'application/json': { schema: toOutSchema(r.response) } } : {}),
      ...Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
    };
    success[200] = {
      description: r.file ? (r.response ? 'JSON, or the file' : 'The file') : 'Success',
      ...headers,
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  for (const [status, schema] of Object.entries(r.responses ?? {})) {
    if (schema)
      success[status] = {
        description: status === '201' ? 'Created' : status === '202' ? 'Accepted' : 'See the summary',
        content: { 'application/json': { schema: toOutSchema(schema) } },
      };
  }
  const write = methodsOf(r).some((m) => m !== 'GET');
  return {
    ...success,
    400: ref('ValidationFailed'),
    ...(r.access.public ? {} : { 401: ref('Unauthorized') }),
    403: ref('Forbidden'),
    404: ref('NotFound'),
    ...(write || r.access.public ? { 429: ref('TooManyRequests') } : {}),
    default: ref('Error'),
  };
}

/** True when the route documents its success answer (JSON schema, file or redirect). */
export const documentsResponse = (r: RouteDef) => !!(r.response || r.file || r.redirect);

/** Media types of a body when the route names none: the spec accepts JSON and form-encoded alike. */
const DEFAULT_BODY_MEDIA = ['application/json', 'application/x-www-form-urlencoded'] as const;

/**
 * The request body of a write: `requestBody` from `body` (validated) or `bodyDoc` (documentation only),
 * or `x-request-body: none` for a write explicitly taking no body, so every write says which.
 */
export function requestBodyFor(r: RouteDef): Record<string, unknown> {
  if (r.noBody) return { 'x-request-body': 'none' };
  const schema = r.body ?? r.bodyDoc;
  if (!schema) return {};
  const media = r.bodyMedia ?? DEFAULT_BODY_MEDIA;
  const json = toSchema(schema);
  return { requestBody: { content: Object.fromEntries(media.map((t) => [t, { schema: json }])) } };
}

/**
 * `/a/:id{/:b}.json` → the OpenAPI paths it stands for. Express fills adjacent optional groups from the
 * left (`/get_currency{/:userId}{/:d1}` with one segment sets `userId`), so a run of adjacent groups stands
 * for its prefixes only: `/x`, `/x/{userId}`, `/x/{userId}/{d1}`, never `/x/{d1}` alone, and no two
 * documented paths are the same once their parameters are filled in.
 */
export function openApiPaths(path: string): string[] {
  const parts: (string | string[])[] = [];
  let rest = path;
  for (let m = /\{([^{}]*)\}/.exec(rest); m; m = /\{([^{}]*)\}/.exec(rest)) {
    const before = rest.slice(0, m.index);
    const last = parts.at(-1);
    if (before === '' && Array.isArray(last)) last.push(m[1]);
    else parts.push(before, [m[1]]);
    rest = rest.slice(m.index + m[0].length);
  }
  parts.push(rest);
  let out = [''];
  for (const part of parts) {
    if (typeof part === 'string') out = out.map((p) => p + part);
    else out = out.flatMap((p) => part.map((_, i) => p + part.slice(0, i).join('')).concat(p + part.join('')));
  }
  return out.map((p) => p.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}'));
}

const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/**
 * The operation's id from its method and OpenAPI path, so it only changes when the path does:
 * `GET /pilots/get_currency/{userId}/{d1}.json` → `getPilotsGetCurrencyByUserIdD1`.
 */
export function operationIdOf(method: string, openPath: string): string {
  const segments = openPath
    .replace(/\.json$/, '')
    .split('/')
    .filter(Boolean);
  const words = segments
    .filter((s) => !s.startsWith('{'))
    .map(pascal)
    .join('');
  const params = segments.filter((s) => s.startsWith('{')).map((s) => pascal(s.slice(1, s.indexOf('}'))));
  const json = openPath.endsWith('.json') || !segments.length ? '' : 'Raw';
  return `${method.toLowerCase()}${words || 'Root'}${json}${params.length ? `By${params.join('')}` : ''}`;
}

/** "roles up to 110 (Compliance and safety manager)" for a threshold, the names of a list. */
const roleName = (n: number) => `${n} (${(ROLE_NAMES as Record<number, string>)[n] ?? 'role'})`;

/** Who may call the route, in words, from its declared gates: the gate's name and rule, plans, permission, session only. */
export function whoMayCall(access: Access): string {
  if (access.public) return '**Who may call**: anyone; no credentials needed.';
  const gate = access.who;
  const rule = [
    gate.maxRole !== undefined ? `roles up to ${roleName(gate.maxRole)}` : '',
    gate.roles ? `roles ${gate.roles.map(roleName).join(', ')}` : '',
  ].filter(Boolean);
  const parts = [
    `**Who may call**: ${rule.length ? rule.join(' and ') : 'any signed-in member of the company'}${gate.name ? ` (gate \`${gate.name}\`)` : ''}${access.deny === 404 ? '; others get 404' : ''}.`,
    access.plans ? `Company plans: ${access.plans.join(', ')}.` : '',
    access.permission ? `Needs the company permission \`${access.permission}\`.` : '',
    access.sessionOnly ? SESSION_ONLY_NOTE : 'A session token or an API key.',
  ];
  return parts.filter(Boolean).join(' ');
}

/** The route's gates as the document has always shown them: the gate's role rule inline. */
function accessDoc(access: Access): Record<string, unknown> {
  if (access.public) return access;
  const { who, ...rest } = access;
  return {
    gate: who.name,
    ...(who.maxRole === undefined ? {} : { maxRole: who.maxRole }),
    ...(who.roles ? { roles: who.roles } : {}),
    ...rest,
  };
}

/** Named parameters of a `{/*named}` route in the path form: one or more `name:value` segments. */
const NAMED_PATTERN = '^[a-z_]+:[^/]*(/[a-z_]+:[^/]*)*$';

/** Path parameters with the types and patterns of the route's `params` schema. */
function pathParameters(r: RouteDef, openPath: string): Json[] {
  const props = (r.params ? toSchema(r.params).properties : undefined) as Record<string, Json> | undefined;
  const wildcard = /\*(\w+)/.exec(r.path)?.[1];
  return [...openPath.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    if (name === wildcard) {
      const keys = r.named ? Object.keys((toSchema(r.named).properties as Json | undefined) ?? {}) : [];
      return {
        name,
        in: 'path',
        required: true,
        description: `Named parameters \`name:value\`, several joined by \`/\` (an encoded \`%2F\` works too)${keys.length ? `: ${keys.map((k) => `\`${k}\``).join(', ')}; the same filters are accepted as a query string on the path without this segment` : ''}.`,
        schema: { type: 'string', pattern: NAMED_PATTERN },
      };
    }
    const schema = { type: 'string', ...(props?.[name] ?? {}) } as Json;
    const optional = r.path.includes(`{/:${name}}`);
    return {
      name,
      in: 'path',
      required: true,
      ...(optional
        ? {
            description:
              'Optional segment of the spec’s positional form: `null` stands for “none” (the caller, for a user) when a later segment is given.',
          }
        : {}),
      schema,
    };
  });
}

/** The properties of an object schema as individual query parameters (type, format, enum, bounds, required). */
function queryParameters(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const json = toSchema(schema);
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Record<string, Json> | undefined) ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

/** A name for the record at this place: the property holding it, singular for list items. */
function nameFromKey(key: string): string {
  const base = pascal(key);
  if (/ies$/.test(base)) return `${base.slice(0, -3)}y`;
  if (/(ss|us)$/.test(base)) return base;
  if (/(ches|shes|xes|sses)$/.test(base)) return base.slice(0, -2);
  return base.endsWith('s') ? base.slice(0, -1) : base;
}

/**
 * Every object schema (a record) becomes a named schema under `components/schemas`, referenced where it
 * was: identical shapes share one name, so a generator makes one type per record. A name comes from the
 * property holding the record (`aircraft`, list items singular) or, for a whole body, from its operation.
 */
function extractRecords(paths: Record<string, Record<string, Json>>): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  const byShape = new Map<string, string>();
  const name = (wanted: string, shape: string): string => {
    const known = byShape.get(shape);
    if (known) return known;
    let n = wanted || 'Record';
    for (let i = 2; schemas[n]; i++) n = `${wanted}${i}`;
    schemas[n] = JSON.parse(shape) as Json;
    byShape.set(shape, n);
    return n;
  };
  const walk = (node: unknown, key: string): unknown => {
    if (Array.isArray(node)) return node.map((x) => walk(x, key));
    if (!node || typeof node !== 'object') return node;
    const o = node as Json;
    const out: Json = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'properties' && v && typeof v === 'object')
        out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, walk(s, p)]));
      else if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') out[k] = v;
      else out[k] = walk(v, key);
    }
    const isRecord = out.type === 'object' && out.properties && Object.keys(out.properties as Json).length > 0;
    return isRecord ? { $ref: `#/components/schemas/${name(nameFromKey(key), JSON.stringify(out))}` } : out;
  };
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const id = pascal(String(op.operationId));
      if (op.requestBody) op.requestBody = walk(op.requestBody, `${id}Request`);
      op.responses = Object.fromEntries(
        Object.entries(op.responses as Json).map(([status, r]) => [
          status,
          walk(r, `${id}${status === '200' ? '' : status}Response`),
        ]),
      );
    }
  }
  return schemas;
}

/** OpenAPI 3.1 built from the route registry: every route defined through the recipe appears here. */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, Json>> = {};
  const ids = new Set<string>();
  for (const r of routes) {
    const wildcard = /\*(\w+)/.exec(r.path)?.[1];
    for (const p of openApiPaths(r.path)) {
      // The path form without the named segment takes the same filters as a query string.
      const filters = r.named && wildcard && !p.includes(`{${wildcard}}`) ? queryParameters(r.named) : [];
      const body = requestBodyFor(r);
      for (const m of methodsOf(r)) {
        let operationId = operationIdOf(m, p);
        for (let i = 2; ids.has(operationId); i++) operationId = `${operationIdOf(m, p)}${i}`;
        ids.add(operationId);
        const op: Json = {
          operationId,
          summary: r.summary,
          description: `${r.summary}.\n\n${whoMayCall(r.access)}`,
          tags: [r.area],
          security: r.access.public ? [] : [{ bearer: [] }],
          'x-access': accessDoc(r.access),
          parameters: [...pathParameters(r, p), ...queryParameters(r.query), ...filters],
          responses: responsesFor(r),
        };
        const item = paths[p] ?? {};
        // A GET sharing the path (`GET,PUT /files/object/:token`) takes no body.
        item[m.toLowerCase()] = m === 'GET' ? op : { ...op, ...structuredClone(body) };
        paths[p] = item;
      }
    }
  }
  const schemas = extractRecords(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Operations Platform API',
      version,
      description: apiDescription(routes),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'The operator of this server' },
    },
    tags: tagsFor(routes),
    servers: [{ url: '/api/v1' }],
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, e]) => [
          name,
          {
            description: e.description,
            headers: { 'Content-Language': CONTENT_LANGUAGE },
            content: { 'application/json': { schema: toOutSchema(e.schema) } },
          },
        ]),
      ),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token or API key (svc_...)' },
      },
    },
    paths,
  };
}
