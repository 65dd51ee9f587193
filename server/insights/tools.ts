// The MCP tool of traffic insights, `list_insights`: the endpoints view for agents, reached the
// way every tool reaches data (the version reached for read: pipeline/tool-call.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { READ_ONLY_TOOL, type Answer, toolString } from '../routes/tool.ts';
import { MAX_LIMIT } from '../records/list-query.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import type { Observations } from './observations.ts';
import { STATUSES, endpointsPage, viewQuery } from './view.ts';
import { storeOf } from '../store/stores.ts';

export interface InsightToolParts {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  versionArg: z.ZodString;
  answer: Answer;
}

export function registerInsightTools(server: McpServer, parts: InsightToolParts): void {
  server.registerTool('list_insights', {
    description: 'Endpoints as traffic shows them: each documented operation with how often and how lately it was called and its status (active, zombie: deprecated but called, orphan: not called while an analyzer reports, unobserved), and undocumented endpoints that were called (shadow). At most 1000, by service, path and method.',
    inputSchema: {
      version: parts.versionArg,
      service: toolString().optional().describe('Only this service (slug or `svc_` id).'),
      status: z.enum(STATUSES).optional().describe('Only endpoints with this status.'),
    },
    annotations: READ_ONLY_TOOL,
    outputSchema: { items: z.array(z.looseObject({ method: z.string(), path: z.string(), status: z.string(), count: z.number() })), hasMore: z.boolean() },
  }, (args) => parts.answer(async (reach) => {
    const version = await reach.version(args.version);
    const services = storeOf(parts.stores, 'services');
    const view = viewQuery({ limit: MAX_LIMIT, ...(args.status !== undefined && { status: args.status }) });
    const chosen = args.service === undefined ? undefined : await serviceNamed(parts.schemas, services, version.versionId, args.service, 'service');
    const [all, paths, operations, observations] = await Promise.all([
      chosen ? [chosen] : services.all(version.versionId),
      storeOf(parts.stores, 'paths').all(version.versionId),
      storeOf(parts.stores, 'operations').all(version.versionId),
      parts.observations.of(version.versionId, chosen ? [chosen.id] : undefined),
    ]);
    const page = endpointsPage({ services: all, paths: chosen ? paths.filter((path) => path['serviceId'] === chosen.id) : paths, operations }, observations, view);
    return { items: page.items, hasMore: page.pagination.hasMore };
  }, { longRunning: true }));
}
