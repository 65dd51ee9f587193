// The last two middlewares: unknown routes, and rendering every error as `{error, details?}`.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { RouteNotFound, toApiError } from '../errors.ts';
import { errorOutcome, send } from './respond.ts';

export const routeNotFound: RequestHandler = () => {
  throw new RouteNotFound();
};

export const renderError: ErrorRequestHandler = (thrown, req, res, _next) => {
  const { error, unexpected } = toApiError(thrown);
  // Unexpected causes are logged whole (with the request id) and never shown to the client.
  if (unexpected) req.log.error({ err: thrown }, 'request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A body not (fully) received is not read after an error either: closing the connection
  // spares reading it (a 401 or a 413 answers at once, whatever the client still means to send).
  if (!req.complete) res.set('Connection', 'close');
  send(res, errorOutcome(error));
};
