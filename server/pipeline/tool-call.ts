// How one MCP tool call runs, the way the pipeline runs an endpoint: the version or project the
// tool names reached through the pipeline's own stages (pipeline/stages.ts: checked, resolved,
// authorized for read) within the call's database budget (DB_TIMEOUT_MS), then the tool's work,
// bounded too unless it reads whole versions; the result, or a tool error with the text the HTTP
// interface would answer (server/errors.ts toApiError, as for every HTTP error).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Credential } from '../auth/credential.ts';
import { Deadline } from './deadline.ts';
import { toApiError, type ApiError } from '../errors.ts';
import { checked, reachProject, reachVersion, versionAddressIn } from './stages.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { Answer, ToolReach } from '../routes/tool.ts';
import type { VersionResolver } from './resolve.ts';

export interface CallParts {
  schemas: SchemaRegistry;
  versions: VersionResolver;
  dbTimeoutMs: number;
}

/** How the tools of one credential's MCP server answer; `log`: the request's. */
export function answerFor({ schemas, versions, dbTimeoutMs }: CallParts, credential: Credential, log: Pick<Logger, 'warn' | 'error'>): Answer {
  return async (work, options) => {
    try {
      // Each call a budget of its own, as each HTTP request has.
      const deadline = new Deadline(dbTimeoutMs);
      const reach = { credential, access: 'read' as const, versions, deadline, surface: 'mcp' as const };
      const tool: ToolReach = {
        credential,
        version: (ref, argument = 'version') => reachVersion(versionAddressIn(schemas, ref, argument), reach, argument),
        project: (ref, argument) => reachProject(checked(schemas.checkProjectRef, ref, argument), reach),
      };
      const structured = await (options?.longRunning ? work(tool) : deadline.bound(() => work(tool)));
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (thrown) {
      // As the error renderer does for HTTP: a database away is 503, anything unforeseen 500;
      // the cause (which call outlived the budget, a driver's message) is logged, never shown.
      const { error, unexpected } = toApiError(thrown);
      if (error.status === 503) log.warn({ message: String((thrown as Error).message ?? thrown).split('\n')[0] }, 'database unavailable (MCP tool call)');
      else if (unexpected) log.error({ err: thrown }, 'MCP tool call failed');
      return toolError(error);
    }
  };
}

/**
 * A tool error with the HTTP error text. It carries no structuredContent: the SDK client checks
 * any it gets against the tool's output schema, error or not, and `{error, details}` is not that shape.
 */
function toolError(error: ApiError): CallToolResult {
  const body = error.body();
  const text = body.details === undefined ? body.error : `${body.error}: ${JSON.stringify(body.details)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}
