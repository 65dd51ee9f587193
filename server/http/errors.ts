// The last two middlewares: unknown routes, and rendering every error as `{error, details?}`.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { RouteNotFound, toApiError } from '../errors.ts';
import { LogThrottle } from '../observability/throttle.ts';
import { errorOutcome, send } from './respond.ts';

/** How often the same cause of a 503 (the database being away) is logged again. */
export const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;

export const routeNotFound: RequestHandler = () => {
  throw new RouteNotFound();
};

export function errorRenderer(unavailable = new LogThrottle(UNAVAILABLE_LOG_INTERVAL_MS)): ErrorRequestHandler {
  return (thrown, req, res, _next) => {
    const { error, unexpected } = toApiError(thrown);
    if (error.status === 503) {
      // While the database is away every request fails the same way: one warn line now and then, no stacks.
      const cause = (thrown as Error | null)?.constructor?.name ?? 'unknown';
      unavailable.run(cause, (suppressed) => req.log.warn({ cause, message: String((thrown as Error).message ?? thrown).split('\n')[0], suppressed }, 'database unavailable'));
    } else if (unexpected) {
      // Unexpected causes are logged whole (with the request id) and never shown to the client.
      req.log.error({ err: thrown }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A body not (fully) received is not read after an error either: closing the connection
    // spares reading it (a 401 or a 413 answers at once, whatever the client still means to send).
    if (!req.complete) res.set('Connection', 'close');
    send(res, errorOutcome(error));
  };
}

export const renderError: ErrorRequestHandler = errorRenderer();
