// How one MCP tool call runs, the way the pipeline runs an endpoint: the version or project the
// tool names reached through the pipeline's own stages (pipeline/stages.ts: checked, resolved,
// authorized for read) within the call's database budget (DB_TIMEOUT_MS), then the tool's work,
// bounded too unless it reads whole versions; the result, or a tool error with the text the HTTP
// interface would answer (server/errors.ts toApiError, as for every HTTP error).
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Credential } from '../auth/credential.ts';
import { Deadline } from '../pipeline/deadline.ts';
import { toApiError, type ApiError } from '../errors.ts';
import { checked, reachProject, reachVersion, versionAddressIn } from '../pipeline/stages.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { ResolvedVersion, VersionResolver } from '../pipeline/resolve.ts';

/**
 * Every tool of the catalog only reads (MCP tool annotations): an agent's host may call them
 * without asking, and they reach nothing outside the catalog.
 */
export const READ_ONLY_TOOL: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** What a tool's work reaches, each named by the argument that gave it (for its 400). */
export interface ToolReach {
  /** A version by id (`ver_...`) or `project/type/slug`. */
  version(ref: string, argument?: string): Promise<ResolvedVersion>;
  /** A project by id or slug: its id. */
  project(ref: string, argument: string): Promise<string>;
}

export type ToolWork = (reach: ToolReach) => Promise<Record<string, unknown>>;

/**
 * `longRunning`: the work reads whole versions (search indexes, exports, change reports), as the
 * HTTP routes doing the same are, so it runs outside the budget and its database calls carry
 * DB_LONG_TIMEOUT_MS each; reaching the version stays within the budget.
 */
export type Answer = (work: ToolWork, options?: { longRunning?: boolean }) => Promise<CallToolResult>;

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
      const reach = { credential, access: 'read' as const, versions, deadline };
      const tool: ToolReach = {
        version: (ref, argument = 'version') => reachVersion(versionAddressIn(schemas, ref, argument), reach),
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
