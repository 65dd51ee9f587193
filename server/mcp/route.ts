// POST /mcp: the Model Context Protocol on the Streamable HTTP transport, stateless (a new
// server and transport per request; nothing is kept between requests), behind the same bearer
// authentication as the catalog routes. GET and DELETE (streams and sessions) are 405.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Router, type RequestHandler } from 'express';
import type { Authenticate } from '../auth/authenticate.ts';
import { MethodNotAllowed } from '../errors.ts';
import type { BodyReader } from '../http/body.ts';
import { catalogMcpServer, type ToolParts } from './tools.ts';

export const MCP_PATH = '/mcp';

export function mcpRouter(parts: ToolParts & { authenticate: Authenticate; readBody: BodyReader }): Router {
  const router = Router();
  const handle: RequestHandler = async (req, res) => {
    const credential = await parts.authenticate(req, res);
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
