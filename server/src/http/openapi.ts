import { z } from 'zod';
import { methodsOf } from './router.ts';
import type { RouteDef } from './define-route.ts';
import { apiDescription, SESSION_ONLY_NOTE, tagsFor } from './openapi-docs.ts';

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

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
        'x-access': r.access,
        parameters: [
          ...names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          ...(r.query ? [{ name: 'query', in: 'query', content: { 'application/json': { schema: toSchema(r.query) } } }] : []),
        ],
        responses: {
          200: { description: 'Success', ...(r.response ? { content: { 'application/json': { schema: toSchema(r.response) } } } : {}) },
          400: { description: 'Validation failed: `{result: false, message, errors|validation}`' },
          ...(r.access.public ? {} : { 401: { description: 'Missing, unknown, expired or revoked token' } }),
        },
      };
      if (r.body) {
        op.requestBody = {
          content: {
            'application/json': { schema: toSchema(r.body) },
            'application/x-www-form-urlencoded': { schema: toSchema(r.body) },
          },
        };
      }
      for (const m of methodsOf(r)) {
        const item = paths[p] ?? {};
        item[m.toLowerCase()] = op;
        paths[p] = item;
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Operations Platform API', version, description: apiDescription(routes) },
    tags: tagsFor(routes),
    servers: [{ url: '/api/v1' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Session token or API key (svc_...)' } } },
    paths,
  };
}
