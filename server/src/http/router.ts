import { allows } from '@ops/shared';
import { z } from 'zod';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { hasPermission } from '../areas/company/permissions.repository.ts';
import type { AppContext } from '../context.ts';
import type { Actor } from './actor.ts';
import { authenticate, bearerToken } from './authenticate.ts';
import type { Method, RouteDef } from './define-route.ts';
import { Reply } from './define-route.ts';
import { inLanguage, localize, requestLocale, said } from './messages.ts';
import { forbidden, HttpError, notFound, unauthorized, validationFailed, zodFieldErrors } from './errors.ts';

const isBody = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { message?: unknown }).message === 'string';

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE'];
export const methodsOf = (r: RouteDef): Method[] => (Array.isArray(r.method) ? [...r.method] : [r.method as Method]);

declare module 'express-serve-static-core' {
  interface Request {
    actor?: Actor | null;
  }
}

/** Resolves the caller and applies the route's declared gates; throws the spec's answer when one fails. */
async function admit(
  ctx: AppContext,
  route: RouteDef,
  req: Request,
  query: Record<string, unknown>,
): Promise<Actor | null> {
  const access = route.access;
  const fromQuery = !access.public && access.queryToken && typeof query.token === 'string' ? query.token : null;
  const token = bearerToken(req.headers.authorization) ?? fromQuery;
  let actor: Actor | null = null;
  if (token) {
    const auth = await authenticate(ctx.db, token);
    if (auth.ok) actor = auth.actor;
    else if (!access.public) throw unauthorized(auth.message);
  }
  req.actor = actor;
  if (access.public) return actor;
  if (!actor) throw unauthorized();
  if (access.sessionOnly && actor.credential.kind === 'api_key')
    throw forbidden('API keys cannot be used here; sign in interactively');
  if (!allows(access.who, actor.role)) throw access.deny === 404 ? notFound() : forbidden();
  if (access.plans && !access.plans.includes(actor.plan))
    throw forbidden('Your company plan does not include this feature');
  if (access.permission && !(await hasPermission(ctx.db, actor.companyId, actor.role, access.permission))) {
    throw new HttpError(403, { result: false, ...said('errors.missingPermission', { permission: access.permission }) });
  }
  return actor;
}

/** True when a string anywhere in the value holds a NUL character, which PostgreSQL text cannot store. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || holdsNul(v, depth + 1)) return true;
  return false;
}

/**
 * A `{/*named}` route takes its filters as `name:value` segments; the same filters as an ordinary query
 * string (`?status=LANDED&page=2`, what a generated client sends) are appended as segments, and a segment
 * holding an encoded `/` is split, so every form gives the same answer.
 */
const namedShapes = new WeakMap<RouteDef, { wildcard: string; keys: Set<string> } | null>();
/** The route's wildcard name and declared filter keys, worked out once per route (this runs on every request). */
function namedShapeOf(route: RouteDef): { wildcard: string; keys: Set<string> } | null {
  let shape = namedShapes.get(route);
  if (shape === undefined) {
    const wildcard = /\*(\w+)/.exec(route.path)?.[1];
    // Only the declared filters: other query keys are ignored, as an ordinary query schema strips them.
    shape =
      wildcard && route.named
        ? { wildcard, keys: new Set(route.named instanceof z.ZodObject ? Object.keys(route.named.shape) : []) }
        : null;
    namedShapes.set(route, shape);
  }
  return shape;
}

const unsplit = (s: unknown) => typeof s === 'string' && !s.includes('/');

function namedFromQuery(route: RouteDef, req: Request, query: Record<string, unknown>): void {
  const shape = namedShapeOf(route);
  if (!shape) return;
  const { wildcard, keys } = shape;
  const params = req.params as Record<string, unknown>;
  const own = params[wildcard];
  // Nothing to add or split (most requests): the segments stay as matched, no copy.
  if (!Object.keys(query).length && (own === undefined || (Array.isArray(own) && own.every(unsplit)))) return;
  const segments = (own === undefined ? [] : Array.isArray(own) ? own : [own]).flatMap((s) => String(s).split('/'));
  for (const [key, value] of Object.entries(query)) {
    if (!keys.has(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    // A nested value (`a[b]=1`) is no filter: left without `:` so the route refuses it like a bad segment.
    segments.push(values.every((v) => typeof v === 'string') ? `${key}:${values.join(',')}` : key);
  }
  if (segments.length) params[wildcard] = segments;
}

const objectBodies = new WeakMap<RouteDef, boolean>();
/** True when the route's body (validated or documented) is an object, as /openapi.json shows it. */
function bodyIsObject(route: RouteDef): boolean {
  let known = objectBodies.get(route);
  if (known === undefined) {
    const schema = route.body ?? route.bodyDoc;
    known =
      !!schema &&
      (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { type?: unknown }).type === 'object';
    objectBodies.set(route, known);
  }
  return known;
}

function parsePart(route: RouteDef, part: 'params' | 'query' | 'body', value: unknown): unknown {
  // Refused the same way on both databases, before any schema or handler sees it.
  if (holdsNul(value))
    throw validationFailed({ [part]: ['Text may not contain NUL characters'] }, route.validationKey ?? 'errors');
  // A JSON array where the body is documented as an object (fields) is refused here, also for routes that read their fields themselves.
  if (part === 'body' && Array.isArray(value) && bodyIsObject(route))
    throw validationFailed({ _: ['Expected an object of fields, not an array'] }, route.validationKey ?? 'errors');
  const schema = route[part];
  if (!schema) return part === 'body' ? (value ?? {}) : value;
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw validationFailed(zodFieldErrors(parsed.error), route.validationKey ?? 'errors');
  return parsed.data;
}

/** The literal start of a path's first segment (`/flights/load{/*named}.json` → `flights`); '' when it starts with a parameter. */
const firstSegment = (path: string) => /^\/([\w-]*)/.exec(path)?.[1] ?? '';

/**
 * One sub-router per first path segment, so a request is matched against its
 * area's few dozen routes rather than all of them in turn (Express tries each
 * route in order). Paths that start with a parameter stay in a shared router
 * tried after the segment's own.
 */
export function buildRouter(
  ctx: AppContext,
  routes: RouteDef[],
  base: string,
): (req: Request, res: Response, next: NextFunction) => void {
  const bySegment = new Map<string, RouteDef[]>();
  for (const route of routes) {
    const key = firstSegment(route.path);
    bySegment.set(key, [...(bySegment.get(key) ?? []), route]);
  }
  const routers = new Map([...bySegment].map(([key, list]) => [key, buildSegmentRouter(ctx, list, base)]));
  const generic = routers.get('');
  // A plain function, not a Router of its own, and the routes registered under `base` rather than mounted there:
  // no nested router and no second parse of a trimmed URL on every request (issue 34 item 5).
  return (req: Request, res: Response, next: NextFunction) => {
    const own = routers.get(firstSegment(req.path.slice(base.length)));
    if (!own || own === generic) return generic ? generic(req, res, next) : next();
    own(req, res, (err?: unknown) => (err || !generic ? next(err) : generic(req, res, next)));
  };
}

function buildSegmentRouter(ctx: AppContext, routes: RouteDef[], base: string): Router {
  const router = Router();
  for (const route of routes) {
    const run = async (req: Request, res: Response, next: NextFunction) => {
      req.routePattern = route.path;
      req.onRouteMatched?.();
      try {
        // Express 5 parses the query string again on every read of req.query: read it once, and not at all without one.
        const rawQuery: Record<string, unknown> = req.url.includes('?') ? req.query : {};
        const actor = await admit(ctx, route, req, rawQuery);
        namedFromQuery(route, req, rawQuery);
        // zod words its issues in the caller's language in every parse of the request (issue 33).
        const result = await inLanguage(requestLocale(req), () => {
          const params = parsePart(route, 'params', req.params);
          const query = parsePart(route, 'query', rawQuery);
          const body = parsePart(route, 'body', req.body);
          return route.handler({ actor: actor as Actor, params, query, body, ctx, req, res } as never);
        });
        if (res.headersSent || result === undefined) return;
        // Every `message` in the caller's language (issue 33): answers, refusals and declared statuses alike.
        if (result instanceof Reply)
          res.status(result.status).json(isBody(result.body) ? localize(req, res, result.body) : result.body);
        else res.json(isBody(result) ? localize(req, res, result) : result);
      } catch (err) {
        next(err);
      }
    };
    for (const m of methodsOf(route))
      router[m.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](base + route.path, run);
  }
  // Part A 7: a path that only takes POST answers other methods with 400 (or the status a route declares,
  // e.g. 405 for upload complete). Registered after every route so a GET route on the same path still wins.
  const byPath = new Map<string, { allowed: Set<Method>; status?: 400 | 405 }>();
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { allowed: new Set<Method>() };
    for (const m of methodsOf(route)) entry.allowed.add(m);
    entry.status = route.otherMethods ?? entry.status;
    byPath.set(route.path, entry);
  }
  for (const [path, { allowed, status }] of byPath) {
    const onlyPost = allowed.size === 1 && allowed.has('POST');
    if (!status && !onlyPost) continue;
    const list = [...allowed];
    for (const m of METHODS.filter((x) => !allowed.has(x))) {
      router[m.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](base + path, (req, res) => {
        res.status(status ?? 400).setHeader('Allow', list.join(', '));
        res.json(
          localize(req, res, { result: false, ...said('errors.methodNotAllowed', { methods: list.join(', ') }) }),
        );
      });
    }
  }
  return router;
}

export { HttpError };
