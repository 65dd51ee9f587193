// Where /metrics is served: on the service's own app (no credentials, like /healthz), or, with
// METRICS_PORT, on an app of its own so it can stay on an internal network.
import express from 'express';
import type { Metrics } from './prometheus.ts';
import { serviceRoute } from '../routes/documentation.ts';
import { refuseOtherMethods } from './allowed-methods.ts';
import { errorRenderer, routeNotFound } from './errors.ts';

export const METRICS_PATH = '/metrics';

export const METRICS_ROUTE = serviceRoute({
  path: METRICS_PATH, operationId: 'getMetrics',
  summary: 'Read the metrics',
  description: 'Prometheus text exposition: requests by route template, database command latency, pool, process and embedded-database restarts. Not mounted with `METRICS=off`, or served on `METRICS_PORT` instead when one is set.',
  responses: [{ status: 200, description: 'The metrics.', mediaType: 'text/plain', schema: { type: 'string' } }],
});

/** The app for METRICS_PORT: only GET /metrics (other methods 405), everything else 404 in the usual error shape. */
export function metricsApp(metrics: Metrics): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.route(METRICS_PATH).get(metrics.expose).all(refuseOtherMethods(['GET']));
  app.use(routeNotFound);
  app.use(errorRenderer());
  return app;
}
