// The MCP tools of API descriptions: the services of a version (list_services) and one
// service's OpenAPI document (get_openapi), as GET {prefix}/services/{id}/openapi exports it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serviceNamed } from '../pipeline/stages.ts';
import { READ_ONLY_TOOL, VERSION_ARG, type Answer, type ToolRegistration, toolString } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { exportService } from './export.ts';
import { documentPage } from './document-pages.ts';
import { shareRepeated } from './sharing.ts';
import { MAX_ENDPOINT_BYTES } from '../search/endpoint-answer.ts';
import { serviceScoped } from '../views/service-records.ts';
import type { ServiceParts } from './service-parts.ts';
import { storeOf } from '../store/stores.ts';
import { LIFECYCLE_STAGES, ownershipOfRecord } from '../ownership/lifecycle.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

// Documents carry more than a tool names: their schemas allow any further property.
const anyObject = z.looseObject({});

export function descriptionTools(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>, serviceParts: ServiceParts): ToolRegistration[] {
  const services = storeOf(stores, 'services');
  return [
    (server: McpServer, answer: Answer) => {
  server.registerTool('list_services', {
    description: 'The services (APIs) of a catalog version, each with its owner (team), contact, lifecycle stage and links where known.',
    inputSchema: {
      version: VERSION_ARG,
      lifecycle: z.enum(LIFECYCLE_STAGES).optional().describe('Only the services at this lifecycle stage.'),
      owner: toolString().optional().describe('Only the services this team owns.'),
    },
    outputSchema: { services: z.array(z.looseObject({ id: z.string(), slug: z.string(), name: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const all = await services.all(version.versionId);
    const wanted = all.filter((service) => (args.lifecycle === undefined || service['lifecycle'] === args.lifecycle) && (args.owner === undefined || service['owner'] === args.owner));
    return {
      services: wanted.map((service) => ({
        id: service.id, slug: String(service['slug']), name: String(service['name'] ?? ''),
        ...(typeof service['summary'] === 'string' && service['summary'] !== '' ? { summary: service['summary'] } : {}),
        ...ownershipOfRecord(service),
      })),
    };
  }));
    },
    (server: McpServer, answer: Answer) => {
  server.registerTool('get_openapi', {
    description: texts('get_openapi', { maxKb: MAX_ENDPOINT_BYTES / 1024 }),
    inputSchema: {
      version: VERSION_ARG,
      service: toolString().describe('Service slug or `svc_` id.'),
      path: toolString().optional().describe('Only this path item (its template as in the document).'),
      operation: toolString().optional().describe('Only the operation of this operationId.'),
      tag: toolString().optional().describe('Only the operations with this tag.'),
      cursor: toolString().optional().describe('The `x-page.nextCursor` of the previous page.'),
    },
    outputSchema: z.looseObject({ openapi: z.string(), info: anyObject }),
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const service = await serviceNamed(schemas, services, version.versionId, args.service, 'service');
    const exported = await exportService(serviceScoped(stores, version.versionId, service), version.versionId, service, await serviceParts.of(version.versionId, service.id));
    // Pages of the whole document are parts of the export route's document, repeats shared as
    // there; a slice must stand alone, so it keeps what a reference into another path would leave out.
    const sliced = args.path !== undefined || args.operation !== undefined || args.tag !== undefined;
    return documentPage(sliced ? exported : shareRepeated(exported), args, MAX_ENDPOINT_BYTES, `GET /v2/catalog/versions/${version.versionId}/services/${service.id}/openapi`);
  }, { longRunning: true }));
    },
  ];
}
