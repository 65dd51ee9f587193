// The HTTP server around the app: Node's own refusals (bad bytes in the request line, headers
// too large, a request that timed out) get the `{error, details?}` body like every other error,
// and so do the requests still unanswered when shutdown runs out of time for them.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { HeadersTooLarge, InvalidRequest, ServiceUnavailable, type ApiError } from '../errors.ts';

export interface HttpServer {
  server: Server;
  /**
   * Answers every request still in flight whose answer has not begun 503 with Retry-After and
   * `Connection: close` (shutdown's time for them is up: a client told to come back beats one
   * left with an empty reply), and resolves once those answers are written.
   */
  refuseUnanswered(): Promise<void>;
}

export function createHttpServer(app: Express): HttpServer {
  const server = createServer(app);
  server.on('clientError', answerClientError);
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    server,
    async refuseUnanswered() {
      const unanswered = [...inFlight].filter((res) => !res.headersSent);
      await Promise.all(unanswered.map((res) => refuse(res, new ServiceUnavailable())));
    },
  };
}

/** The error's answer, written past the app (whose handler still holds `res`), the connection closing after it. */
function refuse(res: ServerResponse, error: ApiError): Promise<void> {
  const body = JSON.stringify(error.body());
  res.writeHead(error.status, {
    ...error.headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close',
  });
  return new Promise((resolve) => {
    res.once('close', resolve);
    res.end(body);
  });
}

/** Node's parser refused the request before the app saw it: answer in our shape, then close. */
export function answerClientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  // A connection the client reset or a response already under way: nothing to answer.
  // A request timeout closes quietly: the client stopped sending, so it is not listening either.
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const refusal = refusalOf(error);
  const body = JSON.stringify(refusal.error.body());
  socket.end([
    `HTTP/1.1 ${refusal.error.status} ${refusal.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n'));
}

function refusalOf(error: NodeJS.ErrnoException): { error: ApiError; reason: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { error: new HeadersTooLarge([{ field: 'headers', message: 'are larger than the server accepts' }]), reason: 'Request Header Fields Too Large' };
    case 'HPE_INVALID_URL':
      return { error: InvalidRequest.field('path', 'holds characters a URL may not have'), reason: 'Bad Request' };
    default:
      return { error: InvalidRequest.field('request', 'is not a well-formed HTTP/1.1 request'), reason: 'Bad Request' };
  }
}
