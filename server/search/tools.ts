// The MCP tools of search: search_endpoints (the route's ranking, for agents) and get_endpoint
// (one operation with what a call needs, search/get-endpoint.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { InvalidRequest } from '../errors.ts';
import { withObserved } from '../insights/observed.ts';
import type { Observations } from '../insights/observations.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import { READ_ONLY_TOOL, VERSION_ARG, type Answer, type ToolRegistration, toolString } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { registerGetEndpoint } from './get-endpoint.ts';
import type { SearchIndexes } from './indexes.ts';
import { DEFAULT_HITS, MAX_HITS } from './routes.ts';
import { wordsOf } from './text.ts';
import { LIFECYCLE_STAGES } from '../ownership/lifecycle.ts';
import { defined } from '../json/values.ts';
import { storeOf } from '../store/stores.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

/** Adds to hits what another room knows of their operations (their scores: wired in server/rooms.ts). */
export type AnnotateHits = <T extends Record<string, unknown>>(versionId: string, hits: readonly T[]) => Promise<T[]>;

export interface SearchToolParts {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  searchIndexes: SearchIndexes;
  annotate?: AnnotateHits;
}

// Hits carry more than a tool names: their schema allows any further property.
const anyObject = z.looseObject({});
// Search indexes read whole versions, as the route does.
const LONG_RUNNING = { longRunning: true };

export function searchTools(parts: SearchToolParts): ToolRegistration[] {
  const services = storeOf(parts.stores, 'services');
  return [
    (server: McpServer, answer: Answer) => {
  server.registerTool('search_endpoints', {
    description: texts('search_endpoints'),
    inputSchema: {
      version: VERSION_ARG,
      query: toolString().describe('Words to look for.'),
      service: toolString().optional().describe('Only this service (slug or `svc_` id).'),
      lifecycle: z.enum(LIFECYCLE_STAGES).optional().describe('Only services at this lifecycle stage.'),
      owner: toolString().optional().describe('Only services this team owns.'),
      limit: z.number().int().min(1).max(MAX_HITS).optional().describe(`At most this many hits (default ${DEFAULT_HITS}).`),
    },
    outputSchema: { ranking: z.enum(['hybrid', 'lexical']), hits: z.array(anyObject) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    if (wordsOf(args.query).length === 0) throw InvalidRequest.field('query', 'must have at least one word');
    const serviceId = args.service === undefined ? undefined : (await serviceNamed(parts.schemas, services, version.versionId, args.service, 'service')).id;
    // The route's ranking (fused with the search model's vectors when they are had), not the index alone.
    const { ranking, hits } = await parts.searchIndexes.search(version.versionId, { query: args.query, limit: args.limit ?? DEFAULT_HITS, ...(serviceId !== undefined && { serviceId }), ...defined({ lifecycle: args.lifecycle, owner: args.owner }) });
    const observed = await withObserved(parts.observations, version.versionId, hits);
    return { ranking, hits: parts.annotate ? await parts.annotate(version.versionId, observed) : observed };
  }, LONG_RUNNING));
    },
    (server: McpServer, answer: Answer) => registerGetEndpoint(server, { stores: parts.stores, observations: parts.observations, versionArg: VERSION_ARG, answer, ...(parts.annotate ? { annotate: parts.annotate } : {}) }),
  ];
}
