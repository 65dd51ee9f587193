// Every endpoint the pipeline runs, in mounting order: the record routes of the table, then the
// routes of each room. The router mounts this list and the OpenAPI document is generated from it.
import type { RecordLimits } from '../store/record-cost.ts';
import { changeEndpoints } from '../changes/routes.ts';
import { descriptionEndpoints } from '../descriptions/routes.ts';
import type { Observations } from '../insights/observations.ts';
import { insightEndpoints } from '../insights/routes.ts';
import { collectionRouteDocs } from '../records/documentation.ts';
import { recordEndpoint, type Endpoint } from '../pipeline/handler.ts';
import type { SchemaRegistry } from '../schemas/registry.ts';
import type { SearchIndexes } from '../search/indexes.ts';
import { searchEndpoints } from '../search/routes.ts';
import type { RecordStore } from '../store/records.ts';
import type { VersionRecords } from '../store/version-records.ts';
import type { Tenancy } from '../tenancy/tenancy.ts';
import type { VersionManager } from '../versions/manage.ts';
import { versionEndpoints } from '../versions/routes.ts';
import { routeTable } from '../records/table.ts';
import { wholeVersionEndpoints } from '../integrity/routes.ts';

export interface EndpointParts {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  tenancy: Tenancy;
  versionManager: VersionManager;
  versionRecords: VersionRecords;
  observations: Observations;
  searchIndexes: SearchIndexes;
  recordLimits: RecordLimits;
  /** IMPORT_BODY_LIMIT, for traffic reports. */
  importBodyLimit: number;
}

export function serviceEndpoints(parts: EndpointParts): Endpoint[] {
  const { schemas, stores, observations } = parts;
  const routes = routeTable(schemas.collections);
  const recordDocs = collectionRouteDocs(schemas, routes);
  return [
    ...routes.map((route, index) => recordEndpoint(route, stores, recordDocs[index]!)),
    ...wholeVersionEndpoints(stores),
    // The index (and the vectors already stored) built as soon as an import has written, behind its
    // answer: the first search then finds it built or joins the build (issue 24), and the import's
    // own cost stays that of its service's records (issue 25).
    ...descriptionEndpoints(stores, schemas, parts.recordLimits, (versionId) => parts.searchIndexes.warm(versionId)),
    ...searchEndpoints({ indexes: parts.searchIndexes, observations, schemas, services: stores.get('services')! }),
    ...changeEndpoints(schemas, stores),
    ...insightEndpoints({ schemas, stores, observations, reportLimit: parts.importBodyLimit }),
    ...versionEndpoints({ schemas, tenancy: parts.tenancy, manager: parts.versionManager, records: parts.versionRecords }),
  ];
}
