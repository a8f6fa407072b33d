import type express from 'express';
import type { AppContext } from '../context.ts';
import { LIVE_PATH, liveness, READY_PATH, readiness } from './health.ts';
import { metricsAuthorized, metricsOf } from './metrics.ts';

export { bootHandler, readinessOf } from './health.ts';
export { metricsOf, runJob } from './metrics.ts';

/** First middleware of the app: request metrics by route pattern. */
export function mountMetricsMiddleware(app: express.Express, ctx: AppContext): void {
  app.use(metricsOf(ctx.database).middleware());
}

/** GET /health/live, GET /health/ready and GET /metrics (Prometheus text format). */
export function mountOpsRoutes(app: express.Express, ctx: AppContext): void {
  app.get(LIVE_PATH, (_req, res) => {
    const a = liveness(ctx.database);
    res.status(a.status).json(a.body);
  });
  app.get(READY_PATH, async (_req, res) => {
    const a = await readiness(ctx.database);
    if (a.status === 503) res.setHeader('Retry-After', '1');
    res.status(a.status).json(a.body);
  });
  app.get('/metrics', async (req, res) => {
    if (!metricsAuthorized(req)) {
      res.status(401).json({ result: false, message: 'Metrics need the METRICS_TOKEN bearer token' });
      return;
    }
    const registry = metricsOf(ctx.database).registry;
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
}
