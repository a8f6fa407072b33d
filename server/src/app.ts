import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { mountApiDocs } from './api-docs.ts';
import type { AppContext } from './context.ts';
import type { RouteDef } from './http/define-route.ts';
import { HttpError } from './http/errors.ts';
import { localize, said } from './http/messages.ts';
import { buildOpenApi } from './http/openapi.ts';
import { observerMiddleware } from './http/observe.ts';
import { buildRouter } from './http/router.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import type { Logger } from './logger.ts';
import { metricsOf, mountOpsRoutes } from './ops/index.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

export const API_BASE = '/api/v1';

/** The Express application: request ids and logs, body parsing, the API router, JSON errors. */
export function createApp(
  ctx: AppContext,
  routes: RouteDef[],
  extra?: (app: express.Express) => void,
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // TRUST_PROXY: which proxies' X-Forwarded-For to believe (Express syntax: 'loopback', 'uniquelocal', a hop count, addresses).
  const trust = process.env.TRUST_PROXY?.trim() || 'loopback';
  app.set('trust proxy', /^\d+$/.test(trust) ? Number(trust) : trust);
  app.set('query parser', 'extended');

  // The access line is only timed when it will be written.
  const accessLog = ctx.log.isLevelEnabled('info');
  // req.log is made on first use: most requests never log, and a child logger per request was a measurable
  // share of a small request's cost (issue 34). Own property once made (or assigned), so it is made once.
  const baseLog = ctx.log;
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request) {
      const log = baseLog.child({ reqId: this.id });
      Object.defineProperty(this, 'log', { value: log, writable: true, configurable: true });
      return log;
    },
    set(this: Request, value: Logger) {
      Object.defineProperty(this, 'log', { value, writable: true, configurable: true });
    },
  });
  // The first layer: request metrics by route pattern, then the request id (one layer for both, issue 34 item 5).
  const metrics = metricsOf(ctx.database);
  app.use((req: Request, res: Response, next: NextFunction) => {
    metrics.begin(req, res);
    const incoming = req.headers['x-request-id'];
    req.id = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    if (accessLog) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        req.log.info(
          { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      });
    }
    next();
  });

  const openapi = buildOpenApi(routes, ctx.version);
  app.get(['/openapi.json', `${API_BASE}/openapi.json`], (_req, res) => {
    res.json(openapi);
  });

  // Test servers only: the contract test sees every API response (test/setup/contract.ts).
  const observe = observerMiddleware(ctx.database.dialect);
  if (observe) app.use(API_BASE, observe);

  // The raw bytes stay on the request for signature checks of signed webhooks (billing: Stripe).
  const parseJson = express.json({
    limit: '5mb',
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buf) => Object.assign(req, { rawBody: buf }),
  });
  const parseForm = express.urlencoded({ extended: true, limit: '5mb' });
  // One layer for the API: the body parsers (skipped for requests without a body, most reads), then the router,
  // whose routes carry API_BASE themselves. What `app.use(API_BASE, …)` matched (the prefix in any case, then '/',
  // '?' or the end), without its two path-matching layers, nested router and trimmed URL (issue 34 item 5).
  const api = buildRouter(ctx, routes, API_BASE);
  const mount = API_BASE.length;
  app.use((req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    const after = url.charCodeAt(mount);
    if (url.slice(0, mount).toLowerCase() !== API_BASE || !(Number.isNaN(after) || after === 0x2f || after === 0x3f))
      return next();
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
      return api(req, res, next);
    parseJson(req, res, (err?: unknown) =>
      err ? next(err) : parseForm(req, res, (e?: unknown) => (e ? next(e) : api(req, res, next))),
    );
  });
  // Health, metrics and the API reference after the API: Express tries every earlier layer's path on each API
  // request, and these paths are outside API_BASE (issue 34 item 5).
  app.get('/health', async (_req, res) => {
    try {
      await ctx.db.selectFrom('companies').select('id').limit(1).execute();
      res.json({ status: 'ok', version: ctx.version, database: ctx.database.dialect });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });

  mountOpsRoutes(app, ctx);

  mountApiDocs(app);
  extra?.(app);

  app.use((req: Request, res: Response) => {
    res
      .status(404)
      .json(localize(req, res, { result: false, ...said('errors.noRoute', { method: req.method, path: req.path }) }));
  });

  // The one place an error becomes its JSON body: every `message` leaves in the request's language (`localize`).
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      res.status(err.status).json(localize(req, res, err.body));
      return;
    }
    const e = err as { type?: string; status?: number };
    if (e?.type === 'entity.parse.failed') {
      res.status(400).json(localize(req, res, { result: false, ...said('errors.malformedBody') }));
      return;
    }
    if (e?.type === 'entity.too.large') {
      res.status(413).json(localize(req, res, { result: false, ...said('errors.tooLarge') }));
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // A database restart or failover: retryable, and not the request's fault.
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      if (res.headersSent) return;
      res.setHeader('Retry-After', '1');
      res.status(503).json(localize(req, res, { result: false, ...said('errors.databaseUnavailable') }));
      return;
    }
    req.log.error({ err }, 'unhandled error');
    if (res.headersSent) return;
    res.status(500).json(localize(req, res, { result: false, ...said('errors.internal'), request_id: req.id }));
  });
  return app;
}
