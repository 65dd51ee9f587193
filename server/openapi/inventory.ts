// The generator's input: every endpoint the pipeline runs (server/routes/endpoints.ts, each
// documented beside its run function) and the routes mounted outside it (health, metrics,
// self-description, MCP), grouped by tag. A test checks that what Express mounts and what the
// document lists are the same set.
import { CHANGES_TAG } from '../changes/routes.ts';
import { DESCRIPTIONS_TAG } from '../descriptions/routes.ts';
import { HEALTH_ROUTE } from '../http/health.ts';
import { METRICS_ROUTE } from '../http/metrics.ts';
import { INSIGHTS_TAG } from '../insights/routes.ts';
import { MCP_ROUTE } from '../mcp/route.ts';
import { PIPELINE_OUTCOMES, type Endpoint } from '../pipeline/handler.ts';
import { serviceEndpoints, type EndpointParts } from '../routes/endpoints.ts';
import { INTEGRITY_TAG } from '../integrity/routes.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import { SEARCH_TAG } from '../search/routes.ts';
import { PAGES_DOCUMENTED_ROUTES, PAGES_TAG } from '../pages/documented.ts';
import { VERSIONS_TAG } from '../versions/routes.ts';
import { collectionBodySchemas, collectionTags } from '../records/documentation.ts';
import { openApiDocument, type DocumentInput, type OpenApiDocument } from './document.ts';
import type { DocumentedRoute } from '../routes/documentation.ts';
import { SERVICE_TAG, selfDescriptionRoutes } from './service-routes.ts';

export function serviceDocumentation(schemas: SchemaRegistry, endpoints: readonly Endpoint[]): DocumentInput {
  const roomTags = [SERVICE_TAG, VERSIONS_TAG, INTEGRITY_TAG, DESCRIPTIONS_TAG, SEARCH_TAG, CHANGES_TAG, INSIGHTS_TAG, PAGES_TAG];
  const recordTags = collectionTags(schemas.collections);
  const routes: DocumentedRoute[] = [
    HEALTH_ROUTE,
    METRICS_ROUTE,
    ...selfDescriptionRoutes,
    ...endpoints.map(({ method, path, access, doc }) => ({ ...doc, method, path, access, errors: [...PIPELINE_OUTCOMES, ...doc.errors] })),
    MCP_ROUTE,
    ...PAGES_DOCUMENTED_ROUTES,
  ];
  // The document lists the rooms' operations tag by tag, then the record routes in the table's
  // order (family by family); a stable sort keeps each group's own order.
  const rank = new Map([...roomTags.map((tag, index) => [tag.name, index] as const), ...recordTags.map((tag) => [tag.name, roomTags.length] as const)]);
  const ranked = routes.map((route) => {
    const index = rank.get(route.tag);
    if (index === undefined) throw new Error(`${route.operationId}: tag ${route.tag} is not declared`);
    return { route, index };
  });
  return {
    routes: ranked.sort((a, b) => a.index - b.index).map(({ route }) => route),
    tags: [...roomTags, ...recordTags],
    schemas: collectionBodySchemas(schemas.collections),
  };
}

/**
 * The service's OpenAPI document, as served at /v2/openapi.json (of the endpoints the app
 * mounts) and written by `npm run openapi` (of the same list, built with nothing to run against).
 */
export function serviceDocument(schemas: SchemaRegistry, endpoints: readonly Endpoint[] = serviceEndpoints(documentationOnly(schemas))): OpenApiDocument {
  return openApiDocument(schemas, serviceDocumentation(schemas, endpoints));
}

/** Parts for building endpoints only to read their documentation: running one throws. */
function documentationOnly(schemas: SchemaRegistry): EndpointParts {
  const absent = new Proxy({}, { get: (_target, name) => { throw new Error(`documentation only: no ${String(name)} to run against`); } }) as never;
  return { schemas, stores: new Map(), tenancy: absent, versionManager: absent, versionRecords: absent, observations: absent, searchIndexes: absent, recordLimits: absent, importBodyLimit: 0 };
}
