// A route on one catalogued service, `GET {prefix}/services/{id}/<segment>` on both families: the
// service named by slug or `svc_` id (findService), 404 with the services' own text when the
// version has none, and the work given the service found. The export, the lint and the score
// are such routes; each says only what it answers.
import { RecordNotFound } from '../errors.ts';
import type { DocumentedRoute } from '../routes/documentation.ts';
import { FAMILIES, type Outcome, type Route, type VersionContext } from '../routes/route.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { serviceNamed } from './stages.ts';

export interface ServiceRoute {
  /** The path after `…/services/{id}/`. */
  segment: string;
  /** Its operationId on the by-id family; the other family's is suffixed as every route's is. */
  operationId: string;
  doc: Pick<DocumentedRoute, 'tag' | 'summary' | 'description' | 'responses'>;
  /** Work over a whole service (an export) is long-running (routes/route.ts). */
  longRunning?: boolean;
  run(service: CatalogRecord, context: VersionContext): Promise<Outcome>;
}

export function serviceRoutes(schemas: SchemaRegistry, services: RecordStore, route: ServiceRoute): Route[] {
  return FAMILIES.map((family): Route => ({
    method: 'GET', path: `${family.prefix}/services/:id/${route.segment}`, target: family.name, access: 'read',
    body: false, checkId: schemas.checkServiceRef, ...(route.longRunning && { longRunning: true }),
    doc: {
      ...route.doc, operationId: `${route.operationId}${family.operationIdSuffix}`,
      params: { ...family.params, id: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceRef` } },
      errors: [new RecordNotFound(services.collection.notFound)],
    },
    async run(context: VersionContext) {
      return route.run(await serviceNamed(schemas, services, context.version.versionId, context.id, 'id'), context);
    },
  }));
}
