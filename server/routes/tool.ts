// The vocabulary of MCP tools, as routes/route.ts is of routes: what a tool's work reaches, how it
// answers, the annotation every tool carries and the argument that names a version. Rooms
// register their tools in these words; pipeline/tool-call.ts runs them; mcp/ serves them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Credential } from '../auth/credential.ts';
import type { ResolvedVersion } from './route.ts';

/**
 * Every tool of the catalog only reads (MCP tool annotations): an agent's host may call them
 * without asking, and they reach nothing outside the catalog.
 */
export const READ_ONLY_TOOL: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** What a tool's work reaches, each named by the argument that gave it (for its 400). */
export interface ToolReach {
  /** Who calls. */
  credential: Credential;
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

/**
 * The longest string any tool argument may be, in characters: names and ids are far shorter, and
 * a search query of a few sentences fits; an unbounded one costs CPU in proportion to its length
 * before anything is found. Longer is a tool error naming the argument and this bound.
 */
export const MAX_ARGUMENT_LENGTH = 1000;

/** A string argument of a tool, bounded by MAX_ARGUMENT_LENGTH: every tool's strings are made here. */
export function toolString(): z.ZodString {
  return z.string().max(MAX_ARGUMENT_LENGTH, { error: `must be at most ${MAX_ARGUMENT_LENGTH} characters long` });
}

/** The argument that names a version, the same in every tool. */
export const VERSION_ARG = toolString().describe('A version id (`ver_...`) or its address `project/type/slug` (project id or slug; type branch or environment).');

/** How a room adds a tool to the MCP server of one request (the transport is stateless). */
export type ToolRegistration = (server: McpServer, answer: Answer) => void;
