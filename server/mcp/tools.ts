// The MCP server of one request, for one authenticated credential: the server's instructions and
// every room's tools (server/rooms.ts), each answering through pipeline/tool-call.ts, which
// reaches data the way an HTTP request does. Failures are the HTTP interface's errors,
// reported as tool errors with the same `error` text.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { Credential } from '../auth/credential.ts';
import { answerFor, type CallParts } from '../pipeline/tool-call.ts';
import type { ToolRegistration } from '../routes/tool.ts';
import { INSTRUCTIONS } from './instructions.ts';

export interface ToolParts extends CallParts {
  /** Every room's tools, in the rooms' order. */
  tools: readonly ToolRegistration[];
}

/** An MCP server for one request of one credential (the transport is stateless); `log`: the request's. */
export function catalogMcpServer(parts: ToolParts, credential: Credential, log: Logger): McpServer {
  const server = new McpServer({ name: 'catalog-service', version: '2.0.0' }, { instructions: INSTRUCTIONS });
  const answer = answerFor(parts, credential, log);
  for (const register of parts.tools) register(server, answer);
  return server;
}
