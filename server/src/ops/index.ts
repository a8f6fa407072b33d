import type express from 'express';
import type { AppContext } from '../context.ts';
import { metricsAuthorized, metricsOf } from './metrics.ts';

export { answerProbe, bootHandler, readinessOf, watchDatabase } from './health.ts';
export { metricsOf, runJob } from './metrics.ts';

/** GET /metrics (Prometheus text format). GET /health/live and /health/ready are answered before Express (answerProbe). */
export function mountOpsRoutes(app: express.Express, ctx: AppContext): void {
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
