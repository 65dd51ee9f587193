// Where /metrics is served: on the service's own app (no credentials, like /healthz), or, with
// METRICS_PORT, on an app of its own so it can stay on an internal network.
import express from 'express';
import type { Metrics } from '../observability/metrics.ts';
import { errorRenderer, routeNotFound } from './errors.ts';

export const METRICS_PATH = '/metrics';

/** The app for METRICS_PORT: only /metrics, everything else 404 in the usual error shape. */
export function metricsApp(metrics: Metrics): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get(METRICS_PATH, metrics.expose);
  app.use(routeNotFound);
  app.use(errorRenderer());
  return app;
}
