// What a service's scores read: its records, one collection at a time, either as stored (read by
// the service's id) or as an import would write them (a candidate document, for the gate and the
// dry run: descriptions/map.ts's placements with ids made up here, nothing stored).
import { componentRefsIn } from '../json/pointer.ts';
import type { JsonObject } from '../json/values.ts';
import { placements } from '../descriptions/map.ts';
import { inDocumentOrder, MARK } from '../store/mark.ts';
import { inSlices } from '../store/record-indexes.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';

/** The collections a service's scores read; `resources` are the component schemas its records reach, by name. */
export const SCORED_COLLECTIONS = ['services', 'paths', 'operations', 'parameters', 'servers', 'security-schemes', 'requests', 'responses', 'resources'] as const;
export type ScoredCollection = typeof SCORED_COLLECTIONS[number];

export interface ServiceRecords {
  service: CatalogRecord;
  paths: CatalogRecord[];
  operations: CatalogRecord[];
  /** Of the service's operations and paths. */
  parameters: CatalogRecord[];
  /** Of the service, its paths and operations. */
  servers: CatalogRecord[];
  /** The service's own and the version-wide ones (no serviceId). */
  securitySchemes: CatalogRecord[];
  requests: CatalogRecord[];
  responses: CatalogRecord[];
  /** Component schemas by name, as the records' `$ref`s name them. */
  schemas: ReadonlyMap<string, unknown>;
}

/** The records of service `serviceId` as stored in the version now. */
export async function storedServiceRecords(stores: ReadonlyMap<string, RecordStore>, versionId: string, serviceId: string): Promise<ServiceRecords | undefined> {
  const store = (name: ScoredCollection) => stores.get(name)!;
  const [service] = await store('services').withIds(versionId, [serviceId]);
  if (!service) return undefined;
  const owned = async (name: ScoredCollection, field: string, ids: readonly string[]) => {
    const read = await Promise.all(inSlices(ids).map((slice) => store(name).matching(versionId, { [field]: slice })));
    return read.flat().sort(inDocumentOrder);
  };
  const paths = await owned('paths', 'serviceId', [serviceId]);
  const pathIds = paths.map((path) => path.id);
  const operations = await owned('operations', 'pathId', pathIds);
  const operationIds = operations.map((operation) => operation.id);
  const [opParameters, pathParameters, requests, responses, schemes, servers] = await Promise.all([
    owned('parameters', 'operationId', operationIds), owned('parameters', 'pathId', pathIds),
    owned('requests', 'operationId', operationIds), owned('responses', 'operationId', operationIds),
    store('security-schemes').all(versionId),
    Promise.all([owned('servers', 'serviceId', [serviceId]), owned('servers', 'pathId', pathIds), owned('servers', 'operationId', operationIds)]).then((lists) => lists.flat()),
  ]);
  const parameters = [...opParameters, ...pathParameters];
  const schemas = await reachedSchemas(store('resources'), versionId, [...parameters, ...requests, ...responses].map((record) => record['schema']));
  return {
    service, paths, operations, parameters, servers, requests, responses, schemas,
    securitySchemes: schemes.filter((scheme) => scheme['serviceId'] === undefined || scheme['serviceId'] === serviceId),
  };
}

/** The schemas these values name and those these name in turn, by name, read a generation at a time. */
async function reachedSchemas(resources: RecordStore, versionId: string, values: readonly unknown[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  let pending = [...new Set(values.flatMap((value) => componentRefsIn(value, 'schemas')))];
  while (pending.length > 0) {
    const read = (await Promise.all(inSlices(pending).map((names) => resources.matching(versionId, { name: names })))).flat();
    const next = new Set<string>();
    for (const record of read) {
      found.set(String(record['name']), record['schema']);
      for (const name of componentRefsIn(record['schema'], 'schemas')) if (!found.has(name) && !pending.includes(name)) next.add(name);
    }
    pending = [...next].filter((name) => !found.has(name));
  }
  return found;
}

/**
 * The records an import of `document` (prepared: descriptions/document.ts) would write for a
 * service, with ids made up (`prefix` + a counter) and nothing stored: what the gate scores.
 */
export function documentServiceRecords(document: JsonObject, service: Record<string, unknown>, versionId: string, prefix = 'candidate'): ServiceRecords {
  const by = new Map<string, CatalogRecord[]>();
  const schemas = new Map<string, unknown>();
  let count = 0;
  const steps = placements(document, service);
  for (let step = steps.next(); !step.done;) {
    const { collection, fields, generated } = step.value;
    const order = count++;
    const mark = { service: prefix, order, ...(generated ? { generated } : {}) };
    const record = { ...fields, id: `${prefix}_${collection}_${order}`, versionId, kvStorage: { [MARK]: mark } } as CatalogRecord;
    if (collection === 'resources') schemas.set(String(fields['name']), fields['schema']);
    // Pushed in place: a copy per record made Graph beta's 200,000 records cost 44 s.
    const kind = by.get(collection);
    if (kind) kind.push(record);
    else by.set(collection, [record]);
    step = steps.next(record.id);
  }
  const of = (name: string) => by.get(name) ?? [];
  return {
    service: of('services')[0]!, paths: of('paths'), operations: of('operations'), parameters: of('parameters'), servers: of('servers'),
    securitySchemes: of('security-schemes'), requests: of('requests'), responses: of('responses'), schemas,
  };
}
