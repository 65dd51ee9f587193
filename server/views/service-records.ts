// One service's records as of now, read as an export reads them (`all` of each kind) but only
// what the service may own: each kind by the references that lead to it from the kinds already
// read (paths by `serviceId`, operations by `pathId`, ...), one indexed `$in` of the owners' ids
// per slice, so an export costs what its service holds, not its version. The kinds owned through
// the import's mark (`kvStorage.x-catalog.service`: Resources, Headers, Examples) are read by the
// mark (the service's, or none: `versionId_importService_id`), plus the schemas the service's
// records name from elsewhere; security schemes are read whole (a version holds few, and a
// requirement may name a version-wide one).
import { serviceKinds, SERVICES } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { inSlices } from '../store/record-indexes.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { reachedResources } from './operation-records.ts';
import { serviceBySlug } from './services.ts';

type Reader = Pick<RecordStore, 'all' | 'collection'>;

/**
 * The stores as exportService reads them, answering only the records this service may own
 * (a superset its ownership rules then cut: ownership/service-records.ts).
 */
export function serviceScoped(stores: ReadonlyMap<string, RecordStore>, versionId: string, service: CatalogRecord): ReadonlyMap<string, Reader> {
  let read: Promise<Map<string, CatalogRecord[]>> | undefined;
  const records = () => (read ??= serviceRecords(stores, versionId, service));
  return new Map([...stores].map(([name, store]) => {
    const reader: Reader = {
      collection: store.collection,
      all: async () => (await records()).get(name) ?? [],
    };
    return [name, reader];
  }));
}

/**
 * The records of the service of this slug in a version, as serviceScoped reads them; no records
 * at all where the version has no such service (a comparison's side where it is added or gone).
 */
export async function serviceSnapshot(stores: ReadonlyMap<string, RecordStore>, versionId: string, slug: string): Promise<ReadonlyMap<string, Reader>> {
  const service = await serviceBySlug(stores.get(SERVICES)!, versionId, slug);
  if (service) return serviceScoped(stores, versionId, service);
  return new Map([...stores].map(([name, store]) => [name, { collection: store.collection, all: async () => [] }]));
}

async function serviceRecords(stores: ReadonlyMap<string, RecordStore>, versionId: string, service: CatalogRecord): Promise<Map<string, CatalogRecord[]>> {
  // Each kind is read once the kinds it refers to are, beside the others (parameters, requests
  // and responses together once the operations are): the service's reads overlap.
  const reads = new Map<string, Promise<CatalogRecord[]>>([[SERVICES, Promise.resolve([service])]]);
  for (const kind of serviceKinds([...stores.values()].map(({ collection }) => collection))) {
    if (kind.name === SERVICES) continue;
    const parents = [...new Set(kind.references.values())].filter((target) => reads.has(target));
    reads.set(kind.name, Promise.all(parents.map(async (target) => [target, await reads.get(target)!] as const))
      .then((read) => kindOfService(stores.get(kind.name)!, kind, versionId, service, new Map(read))));
  }
  const read = new Map(await Promise.all([...reads].map(async ([name, records]) => [name, await records] as const)));
  const resources = stores.get('resources');
  if (resources) {
    // Schemas the service's records name that another service (or nobody) owns: the export adds them.
    const reached = await reachedResources(resources, versionId, [...read.values()].flat());
    read.set('resources', unique([...read.get('resources') ?? [], ...reached.values()]));
  }
  return read;
}

async function kindOfService(store: RecordStore, kind: CompiledCollection, versionId: string, service: CatalogRecord, read: ReadonlyMap<string, CatalogRecord[]>): Promise<CatalogRecord[]> {
  if (kind.name === 'security-schemes') return store.all(versionId);
  const byOwner = kind.owner === undefined ? [] : await store.markedOrUnmarked(versionId, kind.owner, service.id);
  const byReference = await Promise.all([...kind.references].flatMap(([field, target]) =>
    inSlices((read.get(target) ?? []).map((owner) => owner.id)).map((ids) => store.matching(versionId, { [field]: ids }))));
  return unique([...byOwner, ...byReference.flat()]);
}

function unique(records: readonly CatalogRecord[]): CatalogRecord[] {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}
