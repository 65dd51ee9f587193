// GET /healthz: no credentials; 200 when the database answers a ping, 503 when it does not.
import type { RequestHandler } from 'express';
import { ServiceUnavailable } from '../errors.ts';
import { errorOutcome, send } from './respond.ts';

const PING_TIMEOUT_MS = 2000;

export function health(ping: (timeoutMs: number) => Promise<void>): RequestHandler {
  return async (_req, res) => {
    try {
      await ping(PING_TIMEOUT_MS);
      send(res, { status: 200, body: { status: 'ok' } });
    } catch {
      send(res, errorOutcome(new ServiceUnavailable()));
    }
  };
}
