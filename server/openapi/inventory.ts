// The generator's input: every room's routes (each documented beside its work) and the routes
// mounted outside the pipeline (health, metrics, self-description, MCP, a room's own), grouped by
// tag in the rooms' order. A test checks that what Express mounts and what the document lists
// are the same set.
import { HEALTH_ROUTE } from '../http/health.ts';
import { METRICS_ROUTE } from '../http/metrics.ts';
import { AGENTS_TAG, mcpRoute } from '../mcp/route.ts';
import { PIPELINE_OUTCOMES } from '../pipeline/handler.ts';
import { SERVICE_TAG, type DocumentedRoute } from '../routes/documentation.ts';
import type { Room } from '../routes/room.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import { openApiDocument, type DocumentInput, type OpenApiDocument } from './document.ts';
import { selfDescriptionRoutes } from './service-routes.ts';

export function serviceDocumentation(rooms: readonly Room[]): DocumentInput {
  const tags = [SERVICE_TAG, AGENTS_TAG, ...rooms.flatMap((room) => room.tags)];
  const routes: DocumentedRoute[] = [
    HEALTH_ROUTE,
    METRICS_ROUTE,
    ...selfDescriptionRoutes,
    mcpRoute(rooms.flatMap((room) => room.tools ?? [])),
    ...rooms.flatMap((room) => [
      ...(room.routes ?? []).map(({ method, path, access, doc }) => ({ ...doc, method, path, access, errors: [...PIPELINE_OUTCOMES, ...doc.errors] })),
      ...(room.own?.documented ?? []),
    ]),
  ];
  // The document lists the operations tag by tag in the tags' order; a stable sort keeps each
  // tag's own order (for the records room, family by family).
  const rank = new Map(tags.map((tag, index) => [tag.name, index] as const));
  const ranked = routes.map((route) => {
    const index = rank.get(route.tag);
    if (index === undefined) throw new Error(`${route.operationId}: tag ${route.tag} is not declared`);
    return { route, index };
  });
  return {
    routes: ranked.sort((a, b) => a.index - b.index).map(({ route }) => route),
    tags,
    schemas: Object.assign({}, ...rooms.map((room) => room.components ?? {})),
  };
}

/**
 * The service's OpenAPI document, as served at /v2/openapi.json (of the rooms the app mounts)
 * and written by `npm run openapi` (of the same rooms, declared with nothing to run against).
 */
export function serviceDocument(schemas: SchemaRegistry, rooms: readonly Room[]): OpenApiDocument {
  return openApiDocument(schemas, serviceDocumentation(rooms));
}
