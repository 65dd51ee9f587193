// The MCP tools: the catalog as an agent sees it, for one authenticated credential. Each tool
// reaches data the way an HTTP request does: the version or project reached through the
// pipeline's stages for read (mcp/calls.ts), then the record stores of that version; no other way
// in. Failures are the HTTP interface's errors, reported as tool errors with the same `error` text.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Credential } from '../auth/credential.ts';
import { registerCompareVersions } from '../changes/mcp.ts';
import { exportService } from '../descriptions/export.ts';
import { InvalidRequest } from '../errors.ts';
import { withObserved } from '../insights/observed.ts';
import { registerInsightTools } from '../insights/mcp.ts';
import type { Observations } from '../insights/observations.ts';
import { serviceNamed } from '../pipeline/stages.ts';
import type { SearchIndexes } from '../search/indexes.ts';
import { DEFAULT_HITS, MAX_HITS } from '../search/routes.ts';
import { wordsOf } from '../search/text.ts';
import type { RecordStore } from '../store/records.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import { answerFor, READ_ONLY_TOOL, type CallParts } from './calls.ts';
import { registerGetEndpoint } from '../search/get-endpoint.ts';
import { INSTRUCTIONS, reachableProjects } from './projects.ts';

export interface ToolParts extends CallParts {
  tenancy: Tenancy;
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  /** The search indexes of the process, shared with the search route. */
  searchIndexes: SearchIndexes;
}

const VERSION_ARG = z.string().describe('A version id (`ver_...`) or its address `project/type/slug` (project id or slug; type branch or environment).');
// Records and documents carry more than a tool names: their schemas allow any further property.
const anyObject = z.looseObject({});
// Search indexes, exports and change reports read whole versions, as their HTTP routes do.
const LONG_RUNNING = { longRunning: true };

/** An MCP server for one request of one credential (the transport is stateless); `log`: the request's. */
export function catalogMcpServer(parts: ToolParts, credential: Credential, log: Logger): McpServer {
  const server = new McpServer({ name: 'catalog-service', version: '2.0.0' }, { instructions: INSTRUCTIONS });
  const answer = answerFor(parts, credential, log);
  const services = parts.stores.get('services')!;

  server.registerTool('list_projects', {
    description: 'The projects this credential reaches (each holds catalog versions: list_versions).',
    inputSchema: {},
    outputSchema: { projects: z.array(z.looseObject({ id: z.string(), slug: z.string(), name: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, () => answer(async () => {
    const projects = await reachableProjects(parts.tenancy, credential);
    return { projects: projects.map((project) => ({ id: project.id, slug: project.slug, name: project.name })) };
  }));

  server.registerTool('list_versions', {
    description: 'The versions (branches and environments) of a project the credential reaches.',
    inputSchema: { project: z.string().describe('Project id or slug.') },
    outputSchema: { versions: z.array(z.looseObject({ id: z.string(), type: z.string(), slug: z.string(), address: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const projectId = await reach.project(args.project, 'project');
    const versions = await parts.tenancy.versions.list(projectId);
    return {
      versions: versions.map((version) => ({
        id: version.id, type: version.type, slug: version.slug, address: `${args.project}/${version.type}/${version.slug}`,
        copiedFrom: version.copiedFrom, createdAt: version.createdAt.toISOString(),
      })),
    };
  }));

  server.registerTool('list_services', {
    description: 'The services (APIs) of a catalog version.',
    inputSchema: { version: VERSION_ARG },
    outputSchema: { services: z.array(z.looseObject({ id: z.string(), slug: z.string(), name: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const services = await parts.stores.get('services')!.all(version.versionId);
    return {
      services: services.map((service) => ({
        id: service.id, slug: String(service['slug']), name: String(service['name'] ?? ''),
        ...(typeof service['summary'] === 'string' && service['summary'] !== '' ? { summary: service['summary'] } : {}),
      })),
    };
  }));

  server.registerTool('search_endpoints', {
    description: 'Operations matching plain words (ranked by a BM25 index over operationId, summary, path, tags, the verbs people use for the method, service, parameter names and description; stemmed, typo-tolerant), best first, each with what a call needs: a readable `title`, the ready `url` template, the `requiredParameters` (name, in, type), the request body\'s `bodyMediaTypes`, its servers and the security requirement that applies, resolved to the schemes (for an apiKey: where the key goes).',
    inputSchema: {
      version: VERSION_ARG,
      query: z.string().describe('Words to look for.'),
      service: z.string().optional().describe('Only this service (slug or `svc_` id).'),
      limit: z.number().int().min(1).max(MAX_HITS).optional().describe(`At most this many hits (default ${DEFAULT_HITS}).`),
    },
    outputSchema: { ranking: z.enum(['hybrid', 'lexical']), hits: z.array(anyObject) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    if (wordsOf(args.query).length === 0) throw InvalidRequest.field('query', 'must have at least one word');
    const serviceId = args.service === undefined ? undefined : (await serviceNamed(parts.schemas, services, version.versionId, args.service, 'service')).id;
    // The route's ranking (fused with the search model's vectors when they are had), not the index alone.
    const { ranking, hits } = await parts.searchIndexes.search(version.versionId, { query: args.query, limit: args.limit ?? DEFAULT_HITS, ...(serviceId !== undefined && { serviceId }) });
    return { ranking, hits: await withObserved(parts.observations, version.versionId, hits) };
  }, LONG_RUNNING));

  registerGetEndpoint(server, { stores: parts.stores, observations: parts.observations, searchIndexes: parts.searchIndexes, versionArg: VERSION_ARG, answer });

  server.registerTool('get_openapi', {
    description: 'The OpenAPI 3.1 document of one service, as exported by GET {prefix}/services/{id}/openapi.',
    inputSchema: { version: VERSION_ARG, service: z.string().describe('Service slug or `svc_` id.') },
    outputSchema: z.looseObject({ openapi: z.string(), info: anyObject }),
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const service = await serviceNamed(parts.schemas, services, version.versionId, args.service, 'service');
    return exportService(parts.stores, version.versionId, service);
  }, LONG_RUNNING));

  registerCompareVersions(server, { schemas: parts.schemas, stores: parts.stores, version: VERSION_ARG, answer });
  registerInsightTools(server, { schemas: parts.schemas, stores: parts.stores, observations: parts.observations, versionArg: VERSION_ARG, answer });
  return server;
}
