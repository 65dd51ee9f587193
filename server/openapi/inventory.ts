// Every documented route of the service, in one list: the generator's input. A module that
// mounts routes exports its DocumentedRoute list and is added here; a test checks that what
// Express mounts and what this list documents are the same set.
import { routeTable } from '../routes/table.ts';
import type { Catalog } from '../schemas/registry.ts';
import { collectionBodySchemas, collectionRouteDocs, collectionTags } from './collection-routes.ts';
import { openApiDocument, type DocumentInput, type OpenApiDocument } from './document.ts';
import { SERVICE_TAG, serviceRouteDocs } from './service-routes.ts';
import { DESCRIPTIONS_TAG, descriptionRouteDocs } from './description-routes.ts';
import { mcpRouteDocs } from './mcp-routes.ts';
import { SEARCH_TAG, searchRouteDocs } from './search-routes.ts';
import { CHANGES_TAG, changeRouteDocs } from './change-routes.ts';
import { INSIGHTS_TAG, insightRouteDocs } from './insight-routes.ts';
import { INTEGRITY_TAG, integrityRouteDocs, VERSIONS_TAG, versionRouteDocs } from './version-routes.ts';

export function serviceDocumentation(catalog: Catalog): DocumentInput {
  return {
    routes: [
      ...serviceRouteDocs,
      ...versionRouteDocs,
      ...integrityRouteDocs,
      ...descriptionRouteDocs,
      ...searchRouteDocs,
      ...mcpRouteDocs,
      ...changeRouteDocs,
      ...insightRouteDocs,
      ...collectionRouteDocs(catalog, routeTable(catalog.collections)),
    ],
    tags: [SERVICE_TAG, VERSIONS_TAG, INTEGRITY_TAG, DESCRIPTIONS_TAG, SEARCH_TAG, CHANGES_TAG, INSIGHTS_TAG, ...collectionTags(catalog.collections)],
    schemas: collectionBodySchemas(catalog.collections),
  };
}

/** The service's OpenAPI document, as served at /v2/openapi.json and written by `npm run openapi`. */
export function serviceDocument(catalog: Catalog): OpenApiDocument {
  return openApiDocument(catalog, serviceDocumentation(catalog));
}
