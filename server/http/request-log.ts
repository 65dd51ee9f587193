// Request ids and access logs: every response carries `X-Request-Id`; every request logs one
// line with its route template, method, status, latency and id. Credentials never reach a log:
// no header is logged and the URL is redacted (server/observability/redact.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { redactUrl } from '../observability/redact.ts';

const HEADER = 'X-Request-Id';
// A caller's id is kept (so traces join up across services) only when it is short and plain.
const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;
/** The route label of a request no route matched (kept apart so unknown URLs cannot flood labels). */
export const UNMATCHED = '(unmatched)';

const TEMPLATE = Symbol('route template');

/**
 * Names the route template serving `req`. Routes in a router mounted under a prefix know only
 * their path below it (`req.route.path` is `/paths/:id`), so they name their whole template here.
 */
export function nameRoute(req: IncomingMessage, template: string): void {
  (req as IncomingMessage & { [TEMPLATE]?: string })[TEMPLATE] = template;
}

/** The route template that served `req` (e.g. `/v2/catalog/versions/:versionId/paths/:id`). */
export function routeOf(req: IncomingMessage): string {
  const named = (req as IncomingMessage & { [TEMPLATE]?: string })[TEMPLATE];
  if (named !== undefined) return named;
  const route = (req as Partial<Request>).route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? route.path : UNMATCHED;
}

interface AccessValue {
  responseTime?: unknown;
}

export function requestLog(logger: Logger) {
  const fields = (req: IncomingMessage, res: ServerResponse) => ({
    route: routeOf(req),
    method: req.method,
    status: res.statusCode,
    url: redactUrl((req as Partial<Request>).originalUrl ?? req.url ?? ''),
  });
  return pinoHttp({
    logger,
    // Lines written during a request carry only its id, and so does the access line with its own
    // fields below; the request itself (headers included) is never logged.
    quietReqLogger: true,
    quietResLogger: true,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
      res.setHeader(HEADER, id);
      return id;
    },
    customLogLevel(_req, res, error) {
      // 503 is the database being away: its cause is logged once in a while (http/errors.ts), not per request.
      if (error || (res.statusCode >= 500 && res.statusCode !== 503)) return 'error';
      return 'info';
    },
    // Only what is safe and useful: route, method, status, redacted URL, response time.
    customSuccessObject: (req, res, value: AccessValue) => ({ responseTime: value.responseTime, ...fields(req, res) }),
    // An unexpected error is logged with its stack by the error renderer; the access line stays one line.
    customErrorObject: (req, res, _error, value: AccessValue) => ({ responseTime: value.responseTime, ...fields(req, res) }),
    customSuccessMessage: (req, res) => `${req.method} ${routeOf(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeOf(req)} ${res.statusCode}`,
    // pino-http still binds each request to a logger of its own, which no line uses once both of
    // the above are quiet: bind nothing, rather than serialize every request for no one.
    wrapSerializers: false,
    serializers: { req: () => undefined },
  });
}
