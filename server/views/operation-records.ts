// One operation's records beyond its hit form, read as of now: its parameters, request bodies and
// responses by the `operationId` (or `pathId`) that owns them, and the component schemas
// (Resources) their schemas reach, by name. Each read is an equality the database serves by an index (on FerretDB the build's
// pushdown, docs/database.md), so an operation's page or MCP get_endpoint costs what the
// operation holds, whatever else its version holds, on a fresh process as on a warm one.
import { componentRefsIn } from '../json/pointer.ts';
import { earlierMadeUpName } from '../ownership/operation-names.ts';
import { extensionKinds, type ExtensionKind } from '../ownership/extension-kinds.ts';
import { inDocumentOrder } from '../store/mark.ts';
import { inSlices } from '../store/record-indexes.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { serviceByRef, serviceBySlug } from './services.ts';

export interface OperationRecords {
  /** Its path's parameters less those it overrides, then its own (parametersOf). */
  parameters: CatalogRecord[];
  requests: CatalogRecord[];
  responses: CatalogRecord[];
  /** The component schemas the operation's records reach, followed through their own references, by name. */
  components: Map<string, unknown>;
  /** The records of the kinds mapped from an extension on the operation (extension-kinds.ts), each kind's list, the empty ones left out. */
  extended: ExtendedRecords[];
}

export interface ExtendedRecords {
  kind: ExtensionKind;
  records: CatalogRecord[];
}

/** The operation's parameters, bodies and responses, the schemas they reach, and the lists of its extension kinds. */
export async function operationRecords(stores: ReadonlyMap<string, RecordStore>, operation: CatalogRecord): Promise<OperationRecords> {
  const owned = async (name: string, field = 'operationId', owner = operation.id) => [...await stores.get(name)!.matching(operation.versionId, { [field]: owner })].sort(inDocumentOrder);
  const kinds = extensionKinds([...stores.values()].map(({ collection }) => collection)).filter(({ parent }) => parent === 'operations');
  const pathId = typeof operation['pathId'] === 'string' ? operation['pathId'] : undefined;
  const [own, ofPath, requests, responses, ...lists] = await Promise.all([
    owned('parameters'), pathId === undefined ? [] : owned('parameters', 'pathId', pathId),
    owned('requests'), owned('responses'), ...kinds.map(({ collection, parentField }) => owned(collection.name, parentField)),
  ]);
  const parameters = parametersOf(own!, ofPath!);
  const components = await reachedSchemas(stores.get('resources')!, operation.versionId, [...parameters, ...requests!, ...responses!].map((record) => record['schema']));
  const extended = kinds.map((kind, index) => ({ kind, records: lists[index]! })).filter(({ records }) => records.length > 0);
  return { parameters, requests: requests!, responses: responses!, components, extended };
}

/** An operation's parameters: the path's first, less those the operation's own (same name and place) override. */
export function parametersOf(own: readonly CatalogRecord[], ofPath: readonly CatalogRecord[]): CatalogRecord[] {
  const inherited = ofPath.filter((record) => !own.some((mine) => mine['name'] === record['name'] && mine['in'] === record['in']));
  return [...inherited, ...own];
}

/**
 * The component schemas these values (schemas, records) name, and those these name in turn, by
 * name (a name no Resource has is left out, as a missing component is).
 */
export async function reachedSchemas(resources: RecordStore, versionId: string, values: readonly unknown[]): Promise<Map<string, unknown>> {
  return new Map([...await reachedResources(resources, versionId, values)].map(([name, record]) => [name, record['schema']]));
}

/** The Resources behind reachedSchemas, read a generation at a time by name. */
export async function reachedResources(resources: RecordStore, versionId: string, values: readonly unknown[]): Promise<Map<string, CatalogRecord>> {
  const found = new Map<string, CatalogRecord>();
  const asked = new Set<string>();
  let pending = [...new Set(values.flatMap((value) => componentRefsIn(value, 'schemas')))];
  while (pending.length > 0) {
    for (const name of pending) asked.add(name);
    const read = await Promise.all(inSlices(pending).map((names) => resources.matching(versionId, { name: names })));
    const next = new Set<string>();
    for (const record of read.flat().sort(inDocumentOrder)) {
      // Two services' schemas of one name: the last in document order, as a version-wide lookup by name has it.
      found.set(String(record['name']), record);
      for (const reached of componentRefsIn(record['schema'], 'schemas')) if (!asked.has(reached)) next.add(reached);
    }
    pending = [...next];
  }
  return found;
}

type Read = Array<[string, CatalogRecord[]]>;

/**
 * What an operation's page reads of its version, by collection: the service of this slug, its
 * paths, the operation of this operationId (else this id) among them, and what it names
 * (aroundOperation). Empty lists where the service or operation is not there (the page's 404
 * says which).
 */
export async function operationNeighbourhood(stores: ReadonlyMap<string, RecordStore>, versionId: string, slug: string, name: string, options: NeighbourhoodOptions = {}): Promise<Read> {
  const { nearby: withNearby = true } = options;
  const store = (collection: string) => stores.get(collection)!;
  const service = await serviceBySlug(store('services'), versionId, slug);
  const paths = service ? await servicePaths(stores, versionId, service) : [];
  const pathIds = new Set(paths.map((path) => path.id));
  const mine = (operations: readonly CatalogRecord[]) => operations.filter((operation) => pathIds.has(String(operation['pathId'])));
  const [named, byId] = service ? await Promise.all([store('operations').matching(versionId, { operationId: name }), store('operations').get(versionId, name)]) : [[], null];
  const operation = mine(named)[0] ?? mine(byId ? [byId] : [])[0] ?? await earlierNamed(store('operations'), versionId, paths, name);
  const path = paths.find((candidate) => candidate.id === operation?.['pathId']);
  if (!operation || !path || !service) return [['services', service ? [service] : []], ['paths', paths], ['operations', []]];
  const nearby = withNearby ? await operationsNearby(store('operations'), versionId, paths, path) : [];
  const around = await aroundOperation(stores, operation, path, service);
  return [['paths', paths], ...around.filter(([collection]) => collection !== 'paths')
    .map(([collection, records]): [string, CatalogRecord[]] => [collection, collection === 'operations' ? unique([...records, ...nearby]) : records])];
}

export interface NeighbourhoodOptions {
  /** Whether to read the operations of the nearest paths (for previous and next links); not where the caller holds the service's listing. */
  nearby?: boolean;
}

/** The service's paths, one indexed read. */
function servicePaths(stores: ReadonlyMap<string, RecordStore>, versionId: string, service: CatalogRecord): Promise<CatalogRecord[]> {
  return stores.get('paths')!.matching(versionId, { serviceId: service.id });
}

/**
 * The operations this ref names (its record id, else its operationId in any service), each with
 * its path and service, and the service `serviceRef` names (id or slug) when given: what MCP
 * get_endpoint chooses among, read by id and by operationId, never the version's other records.
 */
export async function operationsNamed(stores: ReadonlyMap<string, RecordStore>, versionId: string, ref: string, serviceRef: string | undefined): Promise<Read> {
  const store = (collection: string) => stores.get(collection)!;
  const byId = await store('operations').get(versionId, ref);
  const operations = byId ? [byId] : await store('operations').matching(versionId, { operationId: ref });
  if (operations.length === 0) operations.push(...await earlierNamedAnywhere(stores, versionId, ref));
  const paths = await store('paths').withIds(versionId, [...new Set(operations.map((operation) => String(operation['pathId'])))]);
  const named = serviceRef === undefined ? [] : [await serviceByRef(store('services'), versionId, serviceRef)];
  const services = await store('services').withIds(versionId, [...new Set(paths.map((path) => String(path['serviceId'])))]);
  return [['services', unique([...named.filter((service) => service !== undefined), ...services])], ['paths', paths], ['operations', operations]];
}

/**
 * The records an operation's hit form names: its path and service, its servers and request bodies
 * (of which views show the media types) by the ids that own them, and the version's security
 * schemes (few; a requirement may name a version-wide one). Each an indexed read of what the
 * operation holds, never the version's other services. Not its parameters: its detail reads them
 * whole (operationRecords) and gives them to the hit form.
 */
export async function aroundOperation(stores: ReadonlyMap<string, RecordStore>, operation: CatalogRecord, path: CatalogRecord | undefined, service: CatalogRecord | undefined): Promise<Read> {
  const store = (collection: string) => stores.get(collection)!;
  // A path or service gone (records made over HTTP may lead nowhere) owns nothing here.
  const owners: Record<string, string | undefined> = { operationId: operation.id, pathId: path?.id, serviceId: service?.id };
  const ownedBy = async (collection: string, fields: readonly string[]) => unique((await Promise.all(fields.filter((field) => owners[field] !== undefined)
    .map((field) => store(collection).matching(operation.versionId, { [field]: owners[field]! })))).flat()).sort(inDocumentOrder);
  const [servers, requests, schemes] = await Promise.all([
    ownedBy('servers', ['operationId', 'pathId', 'serviceId']),
    ownedBy('requests', ['operationId']),
    store('security-schemes').all(operation.versionId),
  ]);
  return [
    ['services', service ? [service] : []], ['paths', path ? [path] : []], ['operations', [operation]],
    ['servers', servers], ['requests', requests], ['security-schemes', schemes],
  ];
}

/**
 * The operations of the operation's own path and of the nearest paths before and after it that
 * have any, in the service page's order (by path text): what its previous and next links need,
 * a few indexed reads rather than the service's every operation.
 */
async function operationsNearby(operations: RecordStore, versionId: string, paths: readonly CatalogRecord[], path: CatalogRecord): Promise<CatalogRecord[]> {
  const sorted = [...paths].sort((a, b) => String(a['path']).localeCompare(String(b['path'])));
  const at = sorted.findIndex((candidate) => candidate.id === path.id);
  const of = (candidate: CatalogRecord) => operations.matching(versionId, { pathId: candidate.id });
  const firstWithAny = async (step: -1 | 1) => {
    for (let index = at + step; index >= 0 && index < sorted.length; index += step) {
      const found = await of(sorted[index]!);
      if (found.length > 0) return found;
    }
    return [];
  };
  const [own, before, after] = await Promise.all([of(path), firstWithAny(-1), firstWithAny(1)]);
  return [...own, ...before, ...after];
}

/** What a list of a service's operations shows of each (the pages' side panel): no description, no body. */
export const LISTED_OPERATION_FIELDS = ['pathId', 'method', 'operationId', 'summary', 'tags', 'deprecated'] as const;

/**
 * The operations of these paths (a service's, as operationNeighbourhood reads them) with the
 * listed fields alone: one indexed `$in` read per slice of paths (inSlices), never the version's other
 * services, and not the descriptions that make GitHub's operations a few megabytes.
 */
export async function operationsOfPaths(operations: RecordStore, versionId: string, paths: readonly CatalogRecord[]): Promise<CatalogRecord[]> {
  const reads = inSlices(paths.map((path) => path.id)).map((ids) => operations.matching(versionId, { pathId: ids }, LISTED_OPERATION_FIELDS));
  return (await Promise.all(reads)).flat();
}

/** The operation of these paths an earlier made-up name (`<method> <path>`, before readable names) stands for. */
async function earlierNamed(operations: RecordStore, versionId: string, paths: readonly CatalogRecord[], name: string): Promise<CatalogRecord | undefined> {
  const earlier = earlierMadeUpName(name);
  const path = earlier && paths.find((candidate) => candidate['path'] === earlier.path);
  if (!earlier || !path) return undefined;
  return (await operations.matching(versionId, { pathId: path.id })).find((operation) => operation['method'] === earlier.method);
}

/** Every operation, in any service of the version, an earlier made-up name stands for. */
async function earlierNamedAnywhere(stores: ReadonlyMap<string, RecordStore>, versionId: string, name: string): Promise<CatalogRecord[]> {
  const earlier = earlierMadeUpName(name);
  if (!earlier) return [];
  const paths = await stores.get('paths')!.matching(versionId, { path: earlier.path });
  const found = await Promise.all(paths.map((path) => earlierNamed(stores.get('operations')!, versionId, [path], name)));
  return found.filter((operation): operation is CatalogRecord => operation !== undefined);
}

/** Records read by two owner fields once each. */
function unique(records: readonly CatalogRecord[]): CatalogRecord[] {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}
