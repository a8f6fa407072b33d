import { z } from 'zod';
import { methodsOf } from './router.ts';
import type { Access, RouteDef } from './define-route.ts';
import { ZError, ZValidationError } from './responses.ts';
import { apiDescription, SESSION_ONLY_NOTE, tagsFor } from './openapi-docs.ts';

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
/** A response body as the server writes it: `output` makes a plain z.object closed (additionalProperties false). */
const toOutSchema = (s: z.ZodType) => {
  const { $schema: _s, ...schema } = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
};

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const ERROR_RESPONSES = {
  ValidationFailed: { description: 'Validation failed: `{result: false, message, errors|validation}` (field → messages)', schema: ZValidationError },
  Unauthorized: { description: 'Missing, unknown, expired or revoked token', schema: ZError },
  Forbidden: { description: 'A role, plan, permission or session-only gate refused the caller', schema: ZError },
  NotFound: { description: 'No such record in the caller’s company (another company’s record is also 404)', schema: ZError },
  TooManyRequests: { description: 'Throttled (sign-in, password or code attempts); `retry_after` seconds', schema: ZError },
  Error: { description: 'Other errors (405, 409, 410, 413, 5xx) in the same envelope', schema: ZError },
} as const;

/** The `responses` object of one operation: the 200 (JSON, file or redirect), declared others, then the error envelope. */
export function responsesFor(r: RouteDef): Record<string, unknown> {
  const headers = r.headers
    ? { headers: Object.fromEntries(Object.entries(r.headers).map(([k, h]) => [k, { description: h.description, schema: { type: h.type ?? 'string' } }])) }
    : {};
  const success: Record<string, unknown> = {};
  if (r.redirect) {
    success[302] = { description: 'Redirect to the file', headers: { Location: { description: 'Where the file is served', schema: { type: 'string' } } } };
  } else {
    // A JSON answer, a file, or either (a list that also exports `excel:true`).
    const types = r.file ? (typeof r.file.mediaType === 'string' ? [r.file.mediaType] : r.file.mediaType) : [];
    const content: Record<string, unknown> = {
      ...(r.response ? { 'application/json': { schema: toOutSchema(r.response) } } : {}),
      ...Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
    };
    success[200] = { description: r.file ? (r.response ? 'JSON, or the file' : 'The file') : 'Success', ...headers, ...(Object.keys(content).length ? { content } : {}) };
  }
  for (const [status, schema] of Object.entries(r.responses ?? {})) {
    if (schema) success[status] = { description: status === '201' ? 'Created' : status === '202' ? 'Accepted' : 'See the summary', content: { 'application/json': { schema: toOutSchema(schema) } } };
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

/** `/a/:id{/:b}.json` → the OpenAPI paths it stands for (optional groups expanded). */
export function openApiPaths(path: string): string[] {
  const expand = (p: string): string[] => {
    const m = /\{([^{}]*)\}/.exec(p);
    if (!m) return [p];
    const before = p.slice(0, m.index);
    const after = p.slice(m.index + m[0].length);
    return [...expand(before + after), ...expand(before + m[1] + after)];
  };
  return expand(path).map((p) => p.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}'));
}

/** The route's gates as the document has always shown them: the gate's role rule inline. */
function accessDoc(access: Access): Record<string, unknown> {
  if (access.public) return access;
  const { who, ...rest } = access;
  if (!who) return rest;
  return { ...(who.maxRole === undefined ? {} : { maxRole: who.maxRole }), ...(who.roles ? { roles: who.roles } : {}), ...rest };
}

/** OpenAPI 3.1 built from the route registry: every route defined through the recipe appears here. */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    for (const p of openApiPaths(r.path)) {
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const op: Record<string, unknown> = {
        summary: r.summary,
        ...(!r.access.public && r.access.sessionOnly ? { description: SESSION_ONLY_NOTE } : {}),
        tags: [r.area],
        security: r.access.public ? [] : [{ bearer: [] }],
        'x-access': accessDoc(r.access),
        parameters: [
          ...names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          ...(r.query ? [{ name: 'query', in: 'query', content: { 'application/json': { schema: toSchema(r.query) } } }] : []),
        ],
        responses: responsesFor(r),
      };
      const body = requestBodyFor(r);
      for (const m of methodsOf(r)) {
        const item = paths[p] ?? {};
        // A GET sharing the path (`GET,PUT /files/object/:token`) takes no body.
        item[m.toLowerCase()] = m === 'GET' ? op : { ...op, ...body };
        paths[p] = item;
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Operations Platform API', version, description: apiDescription(routes) },
    tags: tagsFor(routes),
    servers: [{ url: '/api/v1' }],
    components: {
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, e]) => [name, { description: e.description, content: { 'application/json': { schema: toOutSchema(e.schema) } } }]),
      ),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Session token or API key (svc_...)' } },
    },
    paths,
  };
}
