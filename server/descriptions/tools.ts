// The MCP tools of API descriptions: the services of a version (list_services) and one
// service's OpenAPI document (get_openapi), as GET {prefix}/services/{id}/openapi exports it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serviceNamed } from '../pipeline/stages.ts';
import { READ_ONLY_TOOL, VERSION_ARG, type Answer, type ToolRegistration, toolString } from '../routes/tool.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { exportService } from './export.ts';
import { serviceScoped } from '../views/service-records.ts';
import { storeOf } from '../store/stores.ts';

// Documents carry more than a tool names: their schemas allow any further property.
const anyObject = z.looseObject({});

export function descriptionTools(schemas: SchemaRegistry, stores: ReadonlyMap<string, RecordStore>): ToolRegistration[] {
  const services = storeOf(stores, 'services');
  return [
    (server: McpServer, answer: Answer) => {
  server.registerTool('list_services', {
    description: 'The services (APIs) of a catalog version.',
    inputSchema: { version: VERSION_ARG },
    outputSchema: { services: z.array(z.looseObject({ id: z.string(), slug: z.string(), name: z.string() })) },
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const all = await services.all(version.versionId);
    return {
      services: all.map((service) => ({
        id: service.id, slug: String(service['slug']), name: String(service['name'] ?? ''),
        ...(typeof service['summary'] === 'string' && service['summary'] !== '' ? { summary: service['summary'] } : {}),
      })),
    };
  }));
    },
    (server: McpServer, answer: Answer) => {
  server.registerTool('get_openapi', {
    description: 'The OpenAPI 3.1 document of one service, as exported by GET {prefix}/services/{id}/openapi.',
    inputSchema: { version: VERSION_ARG, service: toolString().describe('Service slug or `svc_` id.') },
    outputSchema: z.looseObject({ openapi: z.string(), info: anyObject }),
    annotations: READ_ONLY_TOOL,
  }, (args) => answer(async (reach) => {
    const version = await reach.version(args.version);
    const service = await serviceNamed(schemas, services, version.versionId, args.service, 'service');
    return exportService(serviceScoped(stores, version.versionId, service, { withParts: true }), version.versionId, service);
  }, { longRunning: true }));
    },
  ];
}
