// POST /mcp: the Model Context Protocol on the Streamable HTTP transport, stateless (a new
// server and transport per request; nothing is kept between requests), behind the same bearer
// authentication as the catalog routes. GET and DELETE (streams and sessions) are 405. Each
// message of a batch counts against the rate limit as a request of its own: a batch that does not
// fit in what is left of the credential's limit is refused whole with the interface's 429 (the
// answer an MCP client already meets for a single call; batches left the protocol in 2025-06-18).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCErrorResponseSchema, JSONRPCMessageSchema, JSONRPCResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { Router, type RequestHandler } from 'express';
import type { Authenticate } from '../auth/authenticate.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { MAX_ARGUMENT_LENGTH, type ToolRegistration } from '../routes/tool.ts';
import { Deadline } from '../pipeline/deadline.ts';
import { MethodNotAllowed } from '../errors.ts';
import type { BodyReader } from '../routes/route.ts';
import type { DocumentedRoute, Schema, Tag } from '../routes/documentation.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { toolList } from './tool-list.ts';
import { catalogMcpServer, type ToolParts } from './tools.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

export const MCP_PATH = '/mcp';

// The document's words on POST /mcp. Its messages and answers are JSON-RPC 2.0, described by the
// MCP SDK's own message schemas (converted with zod), so the document says what the transport
// accepts and answers: its own refusals (400, 406) are JSON-RPC errors, the body reader's (bad
// JSON, 413, 415) and authentication's are the service's `Error`.
const ERROR: Schema = { $ref: `${SCHEMA_BASE}api/error.json` };

function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return rest;
}

/** One message, or a batch of them (an array). */
function oneOrBatch(schema: Schema, what: string): Schema {
  return { description: `${what}, or a batch of them (an array).`, anyOf: [schema, { type: 'array', items: schema }] };
}

/**
 * The SDK answers a message it could not read with `"id": null` (as JSON-RPC 2.0 says it must),
 * which its own schema of error responses does not allow: allowed here.
 */
function nullIdOnErrors(schema: Schema): Schema {
  const branches = (schema['anyOf'] ?? [schema]) as Schema[];
  const fixed = branches.map((branch) => {
    const properties = branch['properties'] as Record<string, Schema> | undefined;
    if (!properties?.['error'] || !properties['id']) return branch;
    return { ...branch, properties: { ...properties, id: { anyOf: [properties['id'], { type: 'null' }] } } };
  });
  return schema['anyOf'] ? { ...schema, anyOf: fixed } : fixed[0]!;
}

const message = jsonSchemaOf(JSONRPCMessageSchema);
const response = nullIdOnErrors(jsonSchemaOf(JSONRPCResponseSchema));
const rpcError = { description: 'A JSON-RPC 2.0 error response.', ...nullIdOnErrors(jsonSchemaOf(JSONRPCErrorResponseSchema)) };

export const AGENTS_TAG: Tag = {
  name: 'Agents',
  description: 'The catalog for agents: Model Context Protocol tools (every room\'s), with the same credentials and reach as the interface.',
};

/**
 * POST /mcp as the document describes it, its tools listed from their registrations (each
 * room's, in the rooms' order), so that the list cannot fall behind the tools served.
 */
export function mcpRoute(tools: readonly ToolRegistration[]): DocumentedRoute {
  return {
    method: 'POST', path: MCP_PATH, operationId: 'mcp', tag: AGENTS_TAG.name, access: 'read',
    summary: 'Model Context Protocol (Streamable HTTP)',
    description: `${texts('mcp', { maxArgumentLength: MAX_ARGUMENT_LENGTH })}\n\n${toolList(tools)}`,
    body: {
      schema: oneOrBatch(message, 'A JSON-RPC 2.0 request, notification or response (MCP)'),
      mediaTypes: ['application/json'],
      example: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    },
    responses: [
      { status: 200, description: 'The JSON-RPC responses to the requests sent: one, or an array for a batch of several. A failed call is a JSON-RPC error in a 200.', schema: oneOrBatch(response, 'A JSON-RPC 2.0 response') },
      { status: 202, description: 'Only notifications or responses were sent: accepted, no body.' },
      {
        status: 400,
        description: 'The body is not JSON, or nested too deep (the service\'s `Error`), or not a JSON-RPC 2.0 message, or a batch with more than one `initialize` (a JSON-RPC error).',
        schema: { anyOf: [ERROR, rpcError] },
        example: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null },
      },
      {
        status: 406,
        description: '`Accept` does not list both `application/json` and `text/event-stream` (a JSON-RPC error).',
        schema: rpcError,
        example: { jsonrpc: '2.0', error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' }, id: null },
      },
    ],
    // Rate-limited as the pipeline's routes are, each message of a batch counted (429).
    errors: [401, 405, 413, 415, 429, 500, 503],
  };
}

export function mcpRouter(parts: ToolParts & { authenticate: Authenticate; limiter: RateLimiter; readBody: BodyReader }): Router {
  const router = Router();
  const handle: RequestHandler = async (req, res) => {
    // The credential by the same Authenticate (rate limit included) within DB_TIMEOUT_MS, as on
    // the catalog routes; each tool call then has a budget of its own (pipeline/tool-call.ts).
    const credential = await new Deadline(parts.dbTimeoutMs).bound(() => parts.authenticate(req, res));
    const body = await parts.readBody(req, res);
    // authenticate counted the first message.
    if (Array.isArray(body)) await parts.limiter.spend(req, body.length - 1);
    const server = catalogMcpServer(parts, credential, req.log);
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
