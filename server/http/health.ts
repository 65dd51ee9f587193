// GET /healthz: no credentials; 200 when the database answers a ping, 503 when it does not.
import type { RequestHandler } from 'express';
import { ServiceUnavailable } from '../errors.ts';
import { serviceRoute } from '../openapi/service-routes.ts';
import { errorOutcome, send } from './respond.ts';

export const HEALTH_PATH = '/healthz';

export const HEALTH_ROUTE = serviceRoute({
  path: HEALTH_PATH, operationId: 'getHealth',
  summary: 'Check health',
  description: 'Answers 200 while the database answers a ping.',
  responses: [{
    status: 200,
    description: 'The service and its database answer.',
    schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'ok' } } },
    example: { status: 'ok' },
  }],
  errors: [503],
});

/** `timeoutMs`: DB_TIMEOUT_MS, so health answers as soon as a catalog request would give up. */
export function health(ping: (timeoutMs: number) => Promise<void>, timeoutMs: number): RequestHandler {
  return async (_req, res) => {
    try {
      await ping(timeoutMs);
      send(res, { status: 200, body: { status: 'ok' } });
    } catch {
      send(res, errorOutcome(new ServiceUnavailable()));
    }
  };
}
