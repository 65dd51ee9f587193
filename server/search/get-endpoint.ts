// The MCP tool get_endpoint: one operation, named by operationId or record id (and, where an
// operationId is shared by several services, by its service), answered compact and bounded.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { withObserved } from '../insights/observed.ts';
import type { Observations } from '../insights/observations.ts';
import { endpointDetail, viewFrom, type Name, type VersionView } from './endpoints.ts';
import { aroundOperation, operationsNamed } from '../views/operation-records.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { serviceAmong } from '../views/services.ts';
import { READ_ONLY_TOOL, type Answer, toolString } from '../routes/tool.ts';
import { endpointAnswer, MAX_ENDPOINT_BYTES } from './endpoint-answer.ts';
import { storeOf } from '../store/stores.ts';
import { earlierMadeUpName } from '../ownership/operation-names.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

export interface GetEndpointParts {
  stores: ReadonlyMap<string, RecordStore>;
  observations: Observations;
  versionArg: z.ZodString;
  answer: Answer;
  /** Adds the operation's score and look-alikes (search/tools.ts AnnotateHits). */
  annotate?: <T extends Record<string, unknown>>(versionId: string, hits: readonly T[]) => Promise<T[]>;
}

const anyObject = z.looseObject({});

export function registerGetEndpoint(server: McpServer, parts: GetEndpointParts): void {
  server.registerTool('get_endpoint', {
    description: texts('get_endpoint', { maxKb: MAX_ENDPOINT_BYTES / 1024 }),
    inputSchema: {
      version: parts.versionArg,
      operation: toolString().describe('The operationId, or the operation record id (`op_...`).'),
      service: toolString().optional().describe('The service (slug or id) whose operation this is; needed when several services have this operationId.'),
    },
    outputSchema: {
      title: z.string().optional(), operation: anyObject, path: anyObject, service: anyObject.nullable(),
      url: z.string(), requiredParameters: z.array(anyObject), bodyMediaTypes: z.array(z.string()),
      servers: z.array(z.string()), security: z.array(z.array(anyObject)), securityDeclared: z.boolean(),
      parameters: z.array(anyObject), requests: z.array(anyObject), responses: z.array(anyObject), schemas: z.record(z.string(), z.unknown()),
      observed: z.object({ count: z.number(), lastSeenAt: z.string() }).nullable(),
      extensions: z.record(z.string(), z.array(anyObject)).optional(),
      truncated: z.object({ cut: z.array(z.string()), rest: z.string() }).optional(),
      quality: z.object({ score: z.number(), lookAlikes: z.array(anyObject) }).nullable().optional(),
    },
    annotations: READ_ONLY_TOOL,
  }, (args) => parts.answer(async (reach) => {
    const version = await reach.version(args.version);
    // Read for this operation alone (views/operation-records.ts): no search index is built to show one.
    const candidates = viewFrom(version.versionId, await operationsNamed(parts.stores, version.versionId, args.operation, args.service) as Array<[Name, CatalogRecord[]]>);
    const operation = operationNamed(candidates, args.operation, args.service, storeOf(parts.stores, 'services').collection.notFound);
    const path = candidates.byId('paths', operation['pathId']);
    const service = candidates.byId('services', path?.['serviceId']);
    const view = viewFrom(version.versionId, await aroundOperation(parts.stores, operation, path, service) as Array<[Name, CatalogRecord[]]>);
    const detail = await endpointDetail(parts.stores, view, operation);
    const observed = await withObserved(parts.observations, version.versionId, [detail.endpoint]);
    const [endpoint] = parts.annotate ? await parts.annotate(version.versionId, observed) : observed;
    return endpointAnswer({ ...detail, endpoint: endpoint! });
  }, { longRunning: true }));
}

/**
 * The operation with this record id or operationId, in `service` (slug or id) when given. An
 * operationId is unique within a service only: when several services have it and none is
 * named, the caller must choose (never one of them silently).
 */
export function operationNamed(view: VersionView, ref: string, serviceRef: string | undefined, serviceNotFound: string): CatalogRecord {
  // The view holds the candidates with their paths and services, and the service named.
  const service = serviceRef === undefined ? undefined : serviceAmong(view.of('services'), serviceRef);
  if (serviceRef !== undefined && !service) throw new RecordNotFound(serviceNotFound);
  const serviceOf = (operation: CatalogRecord) => view.byId('services', view.byId('paths', operation['pathId'])?.['serviceId']);
  const byId = view.byId('operations', ref);
  const named = byId ? [byId] : view.of('operations').filter((operation) => operation['operationId'] === ref);
  // The `<method> <path>` name an operation without an operationId had before: still understood.
  const earlier = named.length === 0 ? earlierMadeUpName(ref) : undefined;
  const candidates = (earlier ? view.of('operations').filter((operation) => operation['method'] === earlier.method && view.byId('paths', operation['pathId'])?.['path'] === earlier.path) : named)
    .filter((operation) => service === undefined || serviceOf(operation)?.id === service.id);
  if (candidates.length === 0) throw new RecordNotFound('Operation not found');
  if (candidates.length > 1) {
    const named = candidates.map((operation) => `${String(serviceOf(operation)?.['slug'] ?? 'no service')} (${operation.id})`);
    throw InvalidRequest.field('service', `required: operation "${ref}" is in several services; name one (slug or id): ${named.join(', ')}`);
  }
  return candidates[0]!;
}
