// The routes of API descriptions, on both families, as endpoints run by the same pipeline as
// the record routes (authenticate → resolve → authorize → body → run → outcome):
//   POST {prefix}/imports/openapi       import (sync) an OpenAPI document into a service (write);
//                                       dryRun and failOn=breaking report or gate its changes (server/changes/)
//   GET  {prefix}/services/{id}/openapi export a service as OpenAPI 3.1 (read)
import { stringify as toYaml } from 'yaml';
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import type { Endpoint } from '../pipeline.ts';
import { FAMILIES } from '../routes/table.ts';
import type { RecordLimits } from '../http/body.ts';
import type { Catalog } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { prepareDocument } from './document.ts';
import { exportService } from './export.ts';
import { reviewImport } from '../changes/imports.ts';
import { importDocument } from './sync.ts';

export const IMPORT_SEGMENT = '/imports/openapi';
export const EXPORT_SEGMENT = '/services/:id/openapi';

export function descriptionEndpoints(stores: ReadonlyMap<string, RecordStore>, catalog: Catalog, limits: RecordLimits): Endpoint[] {
  const services = stores.get('services');
  if (!services) throw new Error('API descriptions need the services collection (schemas/collections.json)');
  return FAMILIES.flatMap((family): Endpoint[] => [
    {
      method: 'POST', path: `${family.prefix}${IMPORT_SEGMENT}`, target: family.name, access: 'write',
      body: 'document', query: ['service', 'dryRun', 'failOn'], success: [200, 201], longRunning: true,
      summary: 'Import an OpenAPI document into a service',
      async run({ version, body, query }) {
        const service = queryValue(query, 'service');
        const dryRun = queryValue(query, 'dryRun');
        const failOn = queryValue(query, 'failOn');
        if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false') throw InvalidRequest.field('dryRun', 'must be true or false');
        if (failOn !== undefined && failOn !== 'breaking') throw InvalidRequest.field('failOn', 'must be breaking');
        if (service !== undefined && catalog.checkServiceSlug(service).length > 0) {
          throw InvalidRequest.field('service', 'must be a service slug (lowercase letters, digits and hyphens)');
        }
        const document = await prepareDocument(body);
        // What clients of the service would see change: reported by a dry run, a gate with failOn.
        const review = dryRun === 'true' || failOn ? reviewImport({ failOnBreaking: failOn === 'breaking' }) : undefined;
        const report = await importDocument(
          { stores, versionId: version!.versionId, projectId: version!.projectId, limits },
          document,
          { ...(service === undefined ? {} : { service }), dryRun: dryRun === 'true', ...(review && { review: review.review }) },
        );
        return { status: report.created ? 201 : 200, body: review?.report ? { ...report.body, changes: review.report } : report.body };
      },
    },
    {
      method: 'GET', path: `${family.prefix}${EXPORT_SEGMENT}`, target: family.name, access: 'read',
      body: false, query: false, checkId: services.collection.checkId, success: [200], longRunning: true,
      summary: 'Export a service as OpenAPI 3.1',
      async run({ version, id, accepts }) {
        const service = await services.get(version!.versionId, id);
        if (!service) throw new RecordNotFound(services.collection.notFound);
        const document = await exportService(stores, version!.versionId, service);
        if (accepts(['application/json', 'application/yaml']) === 'application/yaml') {
          return { status: 200, body: toYaml(document, { aliasDuplicateObjects: false }), headers: { 'Content-Type': 'application/yaml; charset=utf-8' } };
        }
        return { status: 200, body: document };
      },
    },
  ]);
}

function queryValue(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}
