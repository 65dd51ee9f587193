// The HTTP server around the app: Node's own refusals (bad bytes in the request line, headers
// too large, a request that timed out) get the `{error, details?}` body like every other error.
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { HeadersTooLarge, InvalidRequest, type ApiError } from '../errors.ts';

export function createHttpServer(app: Express): Server {
  const server = createServer(app);
  server.on('clientError', answerClientError);
  return server;
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
