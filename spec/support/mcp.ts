// The official MCP SDK client against the app listening on a port, used as an agent does: it
// connects with a bearer credential and lists the tools first, so that from then on the client
// checks every result against the tool's output schema.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bearer, type TestCatalog } from './catalog.ts';

export interface McpAgents {
  /** A connected client of this credential that has listed the tools. */
  connect(token: string): Promise<Client>;
  close(): Promise<void>;
}

export async function mcpAgents(service: TestCatalog): Promise<McpAgents> {
  const listening: Server = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listening.once('listening', resolve));
  const url = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`);
  const clients: Client[] = [];
  return {
    async connect(token) {
      const client = new Client({ name: 'catalog-test-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(token) } }));
      clients.push(client);
      await client.listTools();
      return client;
    },
    async close() {
      for (const client of clients) await client.close();
      await new Promise((resolve) => listening.close(resolve));
    },
  };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args }) as CallToolResult;
}

/** The text of a tool's answer (an error's message). */
export function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}
