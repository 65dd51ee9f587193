// Request ids and access logs: every response carries `X-Request-Id`, every log line its id.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

const HEADER = 'X-Request-Id';
// A caller's id is kept (so traces join up across services) only when it is short and plain.
const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
      res.setHeader(HEADER, id);
      return id;
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'info' : 'debug';
    },
    // Never log credentials.
    serializers: {
      req(req: { id: unknown; method: string; url: string }) {
        return { id: req.id, method: req.method, url: req.url };
      },
      res(res: { statusCode: number }) {
        return { statusCode: res.statusCode };
      },
    },
  });
}
