// GET /healthz: no credentials; 200 when a record can be read, 503 when it cannot.
import type { RequestHandler } from 'express';
import { ServiceUnavailable } from '../errors.ts';
import { serviceRoute } from '../routes/documentation.ts';
import { errorOutcome, send } from './respond.ts';

export const HEALTH_PATH = '/healthz';

export const HEALTH_ROUTE = serviceRoute({
  path: HEALTH_PATH, operationId: 'getHealth',
  summary: 'Check health',
  description: 'Answers 200 while records can be read from the database within `DB_TIMEOUT_MS`, 503 when they cannot.',
  responses: [{
    status: 200,
    description: 'The service answers and records can be read.',
    schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'ok' } } },
    example: { status: 'ok' },
  }],
  errors: [503],
});

/**
 * `readable`: one read of a record (a ping is not enough: a stalled engine answered pings while
 * every read hung). `timeoutMs`: DB_TIMEOUT_MS, so health answers as soon as a
 * catalog request would give up.
 */
export function health(readable: (timeoutMs: number) => Promise<void>, timeoutMs: number): RequestHandler {
  return async (_req, res) => {
    try {
      await readable(timeoutMs);
      send(res, { status: 200, body: { status: 'ok' } });
    } catch {
      send(res, errorOutcome(new ServiceUnavailable()));
    }
  };
}
