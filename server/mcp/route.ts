// POST /mcp: the Model Context Protocol on the Streamable HTTP transport, stateless (a new
// server and transport per request; nothing is kept between requests), behind the same bearer
// authentication as the catalog routes. GET and DELETE (streams and sessions) are 405.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Router, type RequestHandler } from 'express';
import type { Authenticate } from '../auth/authenticate.ts';
import { Deadline } from '../deadline.ts';
import { MethodNotAllowed } from '../errors.ts';
import type { BodyReader } from '../http/body.ts';
import { catalogMcpServer, type ToolParts } from './tools.ts';

export const MCP_PATH = '/mcp';

export function mcpRouter(parts: ToolParts & { authenticate: Authenticate; readBody: BodyReader; dbTimeoutMs: number }): Router {
  const router = Router();
  const handle: RequestHandler = async (req, res) => {
    // The credential within DB_TIMEOUT_MS, as on the catalog routes; the tools read whole
    // versions, like search, so they run outside it (DB_LONG_TIMEOUT_MS per call).
    const credential = await new Deadline(parts.dbTimeoutMs).bound(() => parts.authenticate(req, res));
    const body = await parts.readBody(req, res);
    const server = catalogMcpServer(parts, credential);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  router.post(MCP_PATH, handle);
  router.all(MCP_PATH, () => {
    throw new MethodNotAllowed(['POST']);
  });
  return router;
}
