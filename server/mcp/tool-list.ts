// The MCP tools as the OpenAPI document lists them, read from the tools' own registrations: each
// registration runs against a recorder that keeps the name, arguments and description it gives,
// and never calls the tool.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ZodType } from 'zod';
import type { Answer, ToolRegistration } from '../routes/tool.ts';

export interface ListedTool {
  name: string;
  /** The argument names, an optional one ending in `?`. */
  args: string[];
  description: string;
}

interface ToolConfig {
  description?: string;
  inputSchema?: Record<string, ZodType>;
}

/** The tools `registrations` add, in their order. */
export function listedTools(registrations: readonly ToolRegistration[]): ListedTool[] {
  const listed: ListedTool[] = [];
  const recorder = {
    registerTool(name: string, config: ToolConfig): void {
      const args = Object.entries(config.inputSchema ?? {}).map(([arg, schema]) => (schema.safeParse(undefined).success ? `${arg}?` : arg));
      listed.push({ name, args, description: config.description ?? '' });
    },
  };
  const neverCalled: Answer = () => Promise.reject(new Error('a tool listed for the document is never called'));
  for (const register of registrations) register(recorder as unknown as McpServer, neverCalled);
  return listed;
}

/** The tools as a Markdown list: `` `name {arg, optional?}` ``, then the tool's own description. */
export function toolList(registrations: readonly ToolRegistration[]): string {
  return listedTools(registrations).map((tool) => `- \`${tool.name} {${tool.args.join(', ')}}\`: ${tool.description}`).join('\n');
}
