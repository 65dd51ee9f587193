// Endpoints as a caller needs them: an operation with its path, service, the servers to call
// and the security requirement that applies, resolved to the schemes themselves. Used by the
// search index (ranking.ts) and the MCP tools; reads one version through the record stores (the
// caller has already resolved and authorized the version).
import { isObject } from '../json/values.ts';
import { inDocumentOrder, MARK, markOf } from '../store/mark.ts';
import { schemeNamed } from '../ownership/service-records.ts';
import { extensionKinds, type ExtensionKind } from '../ownership/extension-kinds.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { bodyMediaTypes, mustSend, requiredParameters, urlTemplate } from './call.ts';
import { operationRecords, parametersOf, type ExtendedRecords } from '../views/operation-records.ts';
import { operationTitle } from './title.ts';

export type Name = 'services' | 'paths' | 'operations' | 'parameters' | 'servers' | 'security-schemes' | 'requests';

/**
 * What search and the endpoint hits read: not the responses and schemas of endpointDetail; of
 * the request bodies and parameters, only what the index and a hit use (a view keeps them slim:
 * SLIM), the parameters a hit lists read whole for the hits alone (endpointsOf).
 */
export const SEARCH_COLLECTIONS: readonly Name[] = ['services', 'paths', 'operations', 'parameters', 'servers', 'security-schemes', 'requests'];

/**
 * The kinds a schema author mapped from an extension on operations (extension-kinds.ts): their
 * records are searched with their operation, so a search view reads them too.
 */
export function searchedExtensions(stores: ReadonlyMap<string, Pick<RecordStore, 'collection'>>): ExtensionKind[] {
  return extensionKinds([...stores.values()].map(({ collection }) => collection)).filter(({ parent }) => parent === 'operations');
}

/** Records of the view's version read whole by id, as of now (a view keeps some kinds slim: SLIM). */
export type WholeRecords = (name: string, ids: readonly string[]) => Promise<CatalogRecord[]>;

/** One version's records, grouped for lookups. */
export interface VersionView {
  /** The collections it read: SEARCH_COLLECTIONS, and those of `extensions`. */
  readonly names: readonly string[];
  /** The extension kinds on operations whose records it read. */
  readonly extensions: readonly ExtensionKind[];
  of(name: string): readonly CatalogRecord[];
  byId(name: string, id: unknown): CatalogRecord | undefined;
  /** The records of `name` that this operation, path or service owns (`operationId`, `pathId` or `serviceId` is its id). */
  ownedBy(name: string, ownerId: string): CatalogRecord[];
  /** These records whole: from the database for a view read from it, else from the records it was made of. */
  whole: WholeRecords;
}

const OWNER_FIELDS = ['operationId', 'pathId', 'serviceId'] as const;

/**
 * The version's records of `collections`, read at once. Each read costs the collection's size
 * (on FerretDB, a scan), so only what is used is read, and only when the version changed (the
 * search index keeps its view; indexes.ts).
 */
export async function viewOf(stores: ReadonlyMap<string, RecordStore>, versionId: string, collections?: readonly Name[]): Promise<VersionView> {
  const extensions = collections ? [] : searchedExtensions(stores);
  const names = collections ?? [...SEARCH_COLLECTIONS, ...extensions.map(({ collection }) => collection.name)];
  return viewFrom(versionId, await Promise.all(names.map(async (name) => [name, await sortedRecords(stores, versionId, name)] as const)), extensions, wholeIn(stores, versionId));
}

function wholeIn(stores: ReadonlyMap<string, RecordStore>, versionId: string): WholeRecords {
  return (name, ids) => stores.get(name)!.withIds(versionId, ids);
}

/**
 * Of these kinds a view reads and keeps only what the index and the hit form use (with each
 * record's id and version, and its mark where `marked`): a version's request bodies and
 * parameters, with their schemas, examples and descriptions, weigh more than the rest of the view
 * together (30,000 parameters, 21 MB of the read-model benchmark's 31).
 * - Bodies: the media types a hit lists, in document order.
 * - Parameters: the names the index searches, and what tells which a call must send (call.ts).
 *   Their schemas and marks (the types and order a hit lists them in) were half of what a first
 *   search decoded; endpointsOf reads the hits' own whole, and MCP get_endpoint and the pages read
 *   an operation's own whole.
 */
const SLIM: Readonly<Record<string, { fields: readonly string[]; marked: boolean }>> = {
  requests: { fields: ['operationId', 'contentMediaType'], marked: true },
  parameters: { fields: ['operationId', 'pathId', 'name', 'in', 'required'], marked: false },
};

async function sortedRecords(stores: ReadonlyMap<string, RecordStore>, versionId: string, name: string): Promise<CatalogRecord[]> {
  const store = stores.get(name)!;
  const slim = SLIM[name];
  // Read unordered: the view's order is the document's (a total order), so the database need not sort.
  return (await store.allUnordered(versionId, slim && (slim.marked ? [...slim.fields, 'kvStorage'] : slim.fields))).sort(inDocumentOrder);
}

/** The view with the records of `changed` read again, the others kept. */
export async function refreshedView(stores: ReadonlyMap<string, RecordStore>, view: VersionView, versionId: string, changed: readonly string[]): Promise<VersionView> {
  const reread = new Map(await Promise.all(changed.map(async (name) => [name, await sortedRecords(stores, versionId, name)] as const)));
  return viewFrom(versionId, view.names.map((name) => [name, reread.get(name) ?? [...view.of(name)]] as const), view.extensions, view.whole);
}

/** The view with the records of these ids read again in their collections (the deleted dropped), the others kept. */
export async function patchedView(stores: ReadonlyMap<string, RecordStore>, view: VersionView, versionId: string, written: ReadonlyMap<string, ReadonlySet<string>>): Promise<VersionView> {
  const reread = new Map(await Promise.all([...written].map(async ([name, ids]) => [name, await stores.get(name)!.withIds(versionId, [...ids])] as const)));
  return replacedView(view, versionId, written, reread);
}

/**
 * The view with the records of these ids replaced by `records` (what a writer holds: an import's,
 * store/record.ts HeldWrite), nothing read; an id written and not among them is deleted.
 */
export function replacedView(view: VersionView, versionId: string, written: ReadonlyMap<string, ReadonlySet<string>>, records: ReadonlyMap<string, readonly CatalogRecord[]>): VersionView {
  return viewFrom(versionId, view.names.map((name) => {
    const ids = written.get(name);
    const kept = view.of(name);
    return [name, ids ? [...kept.filter((record) => !ids.has(record.id)), ...records.get(name) ?? []].sort(inDocumentOrder) : [...kept]] as const;
  }), view.extensions, view.whole);
}

/** A view with no records (of a version that is gone, or has none yet), of the collections a search reads in `stores`. */
export function emptyView(versionId: string, stores?: ReadonlyMap<string, RecordStore>): VersionView {
  const extensions = stores ? searchedExtensions(stores) : [];
  return viewFrom(versionId, [...SEARCH_COLLECTIONS, ...extensions.map(({ collection }) => collection.name)].map((name) => [name, []] as const), extensions, stores && wholeIn(stores, versionId));
}

/**
 * A view of records already read (an operation's, a candidate import's, the search benchmark's
 * saved view); `extensions`: the kinds among them searched with their operation; `whole`: where
 * its records are read whole, else the records given (held whole for that, of the kinds a view
 * keeps slim).
 */
export function viewFrom(versionId: string, read: ReadonlyArray<readonly [string, CatalogRecord[]]>, extensions: readonly ExtensionKind[] = [], whole?: WholeRecords): VersionView {
  const all = new Map<string, CatalogRecord[]>(read.map(([name, records]) => [name, name in SLIM ? slimAll(records, SLIM[name]!) : records]));
  const ids = new Map<string, Map<string, CatalogRecord>>([...all].map(([name, records]) => [name, new Map(records.map((record) => [record.id, record]))]));
  // A view is read for a purpose; asking it for more is a mistake in the caller, not "none".
  const missing = (name: string): never => {
    throw new Error(`this view of version ${versionId} did not read ${name}`);
  };
  // Grouped on first use: a hit looks up its own parameters, servers and bodies among the version's.
  const owned = new Map<string, Map<string, CatalogRecord[]>>();
  const ownersOf = (name: string): Map<string, CatalogRecord[]> => {
    let byOwner = owned.get(name);
    if (!byOwner) {
      byOwner = new Map();
      for (const record of all.get(name) ?? missing(name)) {
        for (const field of OWNER_FIELDS) {
          const owner = record[field];
          if (typeof owner !== 'string') continue;
          const records = byOwner.get(owner);
          if (records) records.push(record);
          else byOwner.set(owner, [record]);
        }
      }
      owned.set(name, byOwner);
    }
    return byOwner;
  };
  return {
    names: [...all.keys()],
    extensions,
    of: (name) => all.get(name) ?? missing(name),
    byId: (name, id) => {
      const byId = ids.get(name) ?? missing(name);
      return typeof id === 'string' ? byId.get(id) : undefined;
    },
    ownedBy: (name, ownerId) => [...ownersOf(name).get(ownerId) ?? []],
    whole: whole ?? heldWhole(read, ids),
  };
}

/** The records given, by id: of the kinds a view keeps slim, as given (looked up when first asked); the others as the view keeps them, whole. */
function heldWhole(read: ReadonlyArray<readonly [string, CatalogRecord[]]>, kept: ReadonlyMap<string, ReadonlyMap<string, CatalogRecord>>): WholeRecords {
  let given: Map<string, Map<string, CatalogRecord>> | undefined;
  return async (name, ids) => {
    given ??= new Map(read.filter(([kind]) => kind in SLIM).map(([kind, records]) => [kind, new Map(records.map((record) => [record.id, record]))]));
    const byId = given.get(name) ?? kept.get(name);
    return ids.flatMap((id) => byId?.get(id) ?? []);
  };
}

/**
 * Records as a view keeps them (SLIM). Without their marks they are in id order (inDocumentOrder),
 * whatever order the marks gave them: records read slim and records a writer holds whole agree.
 */
function slimAll(records: readonly CatalogRecord[], slim: { fields: readonly string[]; marked: boolean }): CatalogRecord[] {
  const kept = records.map((record) => slimmed(record, slim));
  return slim.marked ? kept : kept.sort(inDocumentOrder);
}

/** A record as a view keeps it (SLIM): these fields, its id and version, and its mark where kept. */
function slimmed(record: CatalogRecord, { fields, marked }: { fields: readonly string[]; marked: boolean }): CatalogRecord {
  const slim: CatalogRecord = { id: record.id, versionId: record.versionId };
  for (const field of fields) if (record[field] !== undefined) slim[field] = record[field];
  const mark = marked && markOf(record);
  if (mark) slim['kvStorage'] = { [MARK]: mark };
  return slim;
}

/**
 * The hit forms of these operations. The parameters each must be sent with are read whole (their
 * types, their document order), those of all the hits in one read by id: the view keeps parameters
 * slim (SLIM).
 */
export async function endpointsOf(view: VersionView, operations: readonly CatalogRecord[]): Promise<Record<string, unknown>[]> {
  const sent = operations.map((operation) => sentParameters(view, operation));
  const whole = new Map((await view.whole('parameters', [...new Set(sent.flat().map((record) => record.id))])).map((record) => [record.id, record]));
  return operations.map((operation, at) => {
    // A parameter deleted since the view was read is listed as the view has it.
    const records = sent[at]!.map((record) => whole.get(record.id) ?? record);
    const inOrder = (own: boolean) => records.filter((record) => (record['operationId'] === operation.id) === own).sort(inDocumentOrder);
    return endpointOf(view, operation, [...inOrder(false), ...inOrder(true)]);
  });
}

/** The parameters a call to the operation must send, as the view keeps them: its path's it does not override, then its own. */
function sentParameters(view: VersionView, operation: CatalogRecord): CatalogRecord[] {
  const path = view.byId('paths', operation['pathId']);
  return parametersOf(view.ownedBy('parameters', operation.id), path ? view.ownedBy('parameters', path.id) : []).filter(mustSend);
}

/**
 * The hit form of an operation (without score): who it is, and what a call to it needs.
 * `parameters`: its own and its path's (parametersOf), whole, in the order a call lists them.
 */
export function endpointOf(view: VersionView, operation: CatalogRecord, parameters: readonly CatalogRecord[]): Record<string, unknown> {
  const path = view.byId('paths', operation['pathId']);
  const service = view.byId('services', path?.['serviceId']);
  const servers = serversOf(view, operation, path, service);
  const pathText = str(path?.['path']) ?? '';
  return {
    ...defined({ title: operationTitle({ summary: operation['summary'], description: operation['description'] }) }),
    operation: defined({
      id: operation.id, operationId: operation['operationId'], method: operation['method'],
      summary: operation['summary'], deprecated: operation['deprecated'] === true, sunset: operation['sunset'],
    }),
    path: { id: path?.id ?? String(operation['pathId']), path: pathText },
    service: service ? defined({ id: service.id, slug: service['slug'], name: service['name'], owner: service['owner'], lifecycle: service['lifecycle'] }) : null,
    url: urlTemplate(servers[0], pathText),
    requiredParameters: requiredParameters(parameters),
    bodyMediaTypes: bodyMediaTypes(view.ownedBy('requests', operation.id)),
    servers: servers.map((server) => String(server['url'])),
    security: securityOf(view, operation, service),
    securityDeclared: Array.isArray(operation['security']) || Array.isArray(service?.['security']),
  };
}

/** Everything recorded about one operation: its hit form, its parameters, bodies, responses and the version's component schemas. */
export interface EndpointRecords {
  endpoint: Record<string, unknown>;
  operation: CatalogRecord;
  parameters: CatalogRecord[];
  requests: CatalogRecord[];
  responses: CatalogRecord[];
  /** The component schemas (Resources) its parameters, bodies and responses reach, by name. */
  components: Map<string, unknown>;
  /** The records of the kinds a schema author mapped from an extension on operations, by kind. */
  extended: ExtendedRecords[];
}

/**
 * Everything about one operation an agent needs to call it: the hit form from the view, and its
 * whole parameters, bodies, responses and the schemas they reach read for it alone
 * (views/operation-records.ts: by its id and by name, each an indexed read; a view keeps
 * parameters and bodies slim). MCP get_endpoint makes its answer from them
 * (search/endpoint-answer.ts), the operation's page its own.
 */
export async function endpointDetail(stores: ReadonlyMap<string, RecordStore>, view: VersionView, operation: CatalogRecord): Promise<EndpointRecords> {
  const { parameters, requests, responses, components, extended } = await operationRecords(stores, operation);
  return { endpoint: endpointOf(view, operation, parameters), operation, parameters, requests, responses, components, extended };
}

function serversOf(view: VersionView, operation: CatalogRecord, path: CatalogRecord | undefined, service: CatalogRecord | undefined): CatalogRecord[] {
  for (const owner of [operation, path, service]) {
    const own = owner ? view.ownedBy('servers', owner.id) : [];
    if (own.length > 0) return own;
  }
  return [];
}

/**
 * The requirement that applies: the operation's own (even an empty one: no security), else the
 * service's; each entry an alternative, each scheme named by the requirement resolved to its
 * record: a `sec_sch_` id names that scheme; a name (import keeps the OpenAPI scheme names) the
 * service's own scheme of that name, else the version-wide one, never another service's.
 */
function securityOf(view: VersionView, operation: CatalogRecord, service: CatalogRecord | undefined): unknown[] {
  const requirement = Array.isArray(operation['security']) ? operation['security']
    : Array.isArray(service?.['security']) ? service['security'] : [];
  const schemes = view.of('security-schemes');
  return requirement.filter(isObject).map((alternative) => Object.entries(alternative).map(([key, scopes]) => {
    const scheme = view.byId('security-schemes', key) ?? schemeNamed(schemes, service?.id, key);
    const asked = Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
    return { scheme: scheme ? schemeOf(scheme, asked) : { id: null, name: key }, scopes: asked };
  }));
}

/**
 * The scheme as a call needs it. Of each OAuth flow's `scopes` only those the requirement asks
 * for stay, with their descriptions: a service's whole list (Bitbucket's, Jira's) repeated in
 * every hit made 20 hits weigh 42 KB; the whole list is in the security scheme record.
 */
function schemeOf(record: CatalogRecord, asked: readonly string[]): Record<string, unknown> {
  const kept = isObject(record['kvStorage']) ? record['kvStorage'] : {};
  return defined({
    id: record.id, name: record['name'], type: record['type'], scheme: record['scheme'], bearerFormat: record['bearerFormat'],
    in: record['in'],
    // The record's `name` is the scheme's identifier; an apiKey's parameter name is kept by import in kvStorage.
    parameterName: record['type'] === 'apiKey' ? str(kept['parameterName']) ?? str(kept['name']) : undefined,
    flows: isObject(record['flows']) ? flowsAsking(record['flows'], asked) : record['flows'], openIdConnectUrl: record['openIdConnectUrl'],
  });
}

function flowsAsking(flows: Record<string, unknown>, asked: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(flows).map(([name, flow]) => {
    if (!isObject(flow) || !isObject(flow['scopes'])) return [name, flow];
    const all = flow['scopes'];
    return [name, { ...flow, scopes: Object.fromEntries(asked.filter((scope) => Object.hasOwn(all, scope)).map((scope) => [scope, all[scope]])) }];
  }));
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
