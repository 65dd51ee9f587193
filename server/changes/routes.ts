// GET {prefix}/changes?against={version}[&service=]: what changes for clients of `against` when
// they move to this version, on both families. Read access to both versions; run by the pipeline.
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { serviceParameter, type Tag } from '../routes/documentation.ts';
import type { Route, VersionContext } from '../routes/route.ts';
import { findService, versionAddressIn } from '../pipeline/stages.ts';
import { FAMILIES } from '../routes/route.ts';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import type { ResolvedVersion } from '../routes/route.ts';
import { changesBetween, reportOf, snapshotOf, type ChangeReport } from './catalog.ts';
import type { Revisions } from '../tenancy/revisions.ts';
import { serviceSnapshot } from '../views/service-records.ts';
import { storeOf } from '../store/stores.ts';
import { textsOf } from '../routes/texts.ts';

const texts = textsOf(new URL('./texts.md', import.meta.url));

const CHANGES_SEGMENT = '/changes';

export const CHANGES_TAG: Tag = {
  name: 'Changes',
  description: 'What a change breaks: the breaking and non-breaking changes a client of one version meets in another, per service, from each service\'s OpenAPI export on both sides. The import\'s dry run reports the same for a document, and `failOn=breaking` turns it into a gate.',
};

/** What a comparison reads: the records, and the versions' revisions (a copy not written since holds its source's records). */
export interface ComparedCatalog {
  schemas: SchemaRegistry;
  stores: ReadonlyMap<string, RecordStore>;
  revisions: Pick<Revisions, 'sameRecords'>;
}

export function changeRoutes(catalog: ComparedCatalog): Route[] {
  const { schemas } = catalog;
  return FAMILIES.map((family): Route => ({
    method: 'GET', path: `${family.prefix}${CHANGES_SEGMENT}`, target: family.name, access: 'read',
    body: false,
    // Exports every service of both versions: its cost is the versions' size.
    longRunning: true,
    doc: {
      operationId: `listChanges${family.operationIdSuffix}`, tag: CHANGES_TAG.name, params: family.params,
      summary: 'What changes for clients between two versions',
      description: texts('changes'),
      query: [
        {
          name: 'against', description: 'The version clients use now: its `ver_` id, `type/slug` in this version\'s project (`branch/main`), or `project/type/slug`.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/versionRef` }, required: true,
          invalid: 'must be a version id, type/slug or project/type/slug', missing: 'is required: the version clients use now',
        },
        serviceParameter('Only this service (slug or `svc_` id, on either side); 404 when neither version has it.'),
      ],
      responses: [{ status: 200, description: 'The changes, by service, path and method.', schema: { $ref: `${SCHEMA_BASE}api/changes.json` } }],
      errors: [new RecordNotFound(schemas.collection('services').notFound)],
    },
    async run({ version, query: { against, service }, reachForRead }: VersionContext<{ against: string; service?: string }>) {
      const other = await reachForRead(versionAddressIn(schemas, against, 'against', version.projectId));
      return { status: 200, body: await compareVersions(catalog, other, version, service) };
    },
  }));
}

/**
 * The changes that take a client of `before` to `after` (both already authorized), for all
 * services or the one `service` (slug or id) names on either side; 404 when neither has it.
 */
export async function compareVersions({ schemas, stores, revisions }: ComparedCatalog, before: ResolvedVersion, after: ResolvedVersion, service?: string): Promise<ChangeReport> {
  let slug: string | undefined;
  if (service !== undefined) {
    const services = storeOf(stores, 'services');
    // Services are matched by slug across versions; a copy keeps ids, so an id names it on either side.
    const found = await findService(schemas, services, after.versionId, service, 'service') ?? await findService(schemas, services, before.versionId, service, 'service');
    if (!found) throw new RecordNotFound(services.collection.notFound);
    slug = String(found['slug']);
  }
  // A copy not written since, nor its source, holds the same records: nothing to read or export.
  if (await revisions.sameRecords(before.versionId, after.versionId)) return reportOf([]);
  // One service: its own records on each side (views/service-records.ts), not the versions'.
  const snapshot = (versionId: string) => (slug === undefined ? snapshotOf(stores, versionId) : serviceSnapshot(stores, versionId, slug));
  return changesBetween(await snapshot(before.versionId), await snapshot(after.versionId), slug);
}
