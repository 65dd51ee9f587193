// Endpoints as a caller needs them: an operation with its path, service, the servers to call
// and the security requirement that applies, resolved to the schemes themselves. Used by the
// search route and the MCP tools; reads one version through the record stores (the caller has
// already resolved and authorized the version).
import { RecordNotFound } from '../errors.ts';
import { isObject } from '../descriptions/json.ts';
import { markOf } from '../descriptions/keys.ts';
import { schemeNamed } from '../descriptions/service-records.ts';
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { queryWords, ranked, score } from './score.ts';

const COLLECTIONS = ['services', 'paths', 'operations', 'parameters', 'requests', 'responses', 'servers', 'security-schemes', 'resources'] as const;
type Name = (typeof COLLECTIONS)[number];

/** What search and the endpoint hits read: not the bodies, responses and schemas of endpointDetail. */
export const SEARCH_COLLECTIONS: readonly Name[] = ['services', 'paths', 'operations', 'parameters', 'servers', 'security-schemes'];

/** One version's records, grouped for lookups. */
export interface VersionView {
  of(name: Name): readonly CatalogRecord[];
  byId(name: Name, id: unknown): CatalogRecord | undefined;
}

/**
 * The version's records of `collections` (all that endpointDetail needs by default), read at
 * once. Each read costs the collection's size (on FerretDB, a scan), so only what is used is
 * read: on Microsoft Graph beta (130,023 records, FerretDB) a search took 23-28 s reading all
 * nine collections one after the other, and takes 16-19 s reading its six at once.
 */
export async function viewOf(stores: ReadonlyMap<string, RecordStore>, versionId: string, collections: readonly Name[] = COLLECTIONS): Promise<VersionView> {
  const read = await Promise.all(collections.map(async (name) => [name, [...await stores.get(name)!.all(versionId)].sort(inDocumentOrder)] as const));
  const all = new Map<Name, CatalogRecord[]>(read);
  const ids = new Map<Name, Map<string, CatalogRecord>>(read.map(([name, records]) => [name, new Map(records.map((record) => [record.id, record]))]));
  // A view is read for a purpose; asking it for more is a mistake in the caller, not "none".
  const missing = (name: Name): never => {
    throw new Error(`this view of version ${versionId} did not read ${name}`);
  };
  return {
    of: (name) => all.get(name) ?? missing(name),
    byId: (name, id) => {
      const byId = ids.get(name) ?? missing(name);
      return typeof id === 'string' ? byId.get(id) : undefined;
    },
  };
}

export interface SearchOptions { query: string; limit: number; service?: string }

/** The operations matching the query, best first, as endpoint hits. */
export function search(view: VersionView, options: SearchOptions): Record<string, unknown>[] {
  const words = queryWords(options.query);
  const service = options.service === undefined ? undefined : serviceBySlug(view, options.service);
  const parameterNames = groupNames(view.of('parameters'));
  const scored = view.of('operations').flatMap((operation) => {
    const path = view.byId('paths', operation['pathId']);
    if (!path || (service && path['serviceId'] !== service.id)) return [];
    return [{
      item: operation,
      key: `${String(operation['operationId'])}\u0000${operation.id}`,
      score: score(words, {
        operationId: str(operation['operationId']),
        path: str(path['path']),
        summary: str(operation['summary']),
        description: str(operation['description']),
        tags: Array.isArray(operation['tags']) ? operation['tags'].map(String) : [],
        parameters: [...(parameterNames.get(operation.id) ?? []), ...(parameterNames.get(path.id) ?? [])],
      }),
    }];
  });
  return ranked(scored, options.limit).map(({ item, score: value }) => ({ ...endpointOf(view, item), score: value }));
}

/** The service with this slug, or 404. */
export function serviceBySlug(view: VersionView, slug: string): CatalogRecord {
  const service = view.of('services').find((record) => record['slug'] === slug);
  if (!service) throw new RecordNotFound('Service not found');
  return service;
}

/** An operation by `op_` id or operationId, or 404. */
export function operationNamed(view: VersionView, ref: string): CatalogRecord {
  const operation = view.byId('operations', ref) ?? view.of('operations').find((record) => record['operationId'] === ref);
  if (!operation) throw new RecordNotFound('Operation not found');
  return operation;
}

/** The hit form of an operation (without score). */
export function endpointOf(view: VersionView, operation: CatalogRecord): Record<string, unknown> {
  const path = view.byId('paths', operation['pathId']);
  const service = view.byId('services', path?.['serviceId']);
  return {
    operation: defined({
      id: operation.id, operationId: operation['operationId'], method: operation['method'],
      summary: operation['summary'], deprecated: operation['deprecated'] === true,
    }),
    path: { id: path?.id ?? String(operation['pathId']), path: str(path?.['path']) ?? '' },
    service: service ? { id: service.id, slug: service['slug'], name: service['name'] } : null,
    servers: serversOf(view, operation, path, service),
    security: securityOf(view, operation, service),
  };
}

/** Everything about one operation an agent needs to call it. */
export function endpointDetail(view: VersionView, operation: CatalogRecord): Record<string, unknown> {
  const path = view.byId('paths', operation['pathId']);
  const own = view.of('parameters').filter((record) => record['operationId'] === operation.id);
  const inherited = view.of('parameters').filter((record) => path && record['pathId'] === path.id
    && !own.some((mine) => mine['name'] === record['name'] && mine['in'] === record['in']));
  const requests = view.of('requests').filter((record) => record['operationId'] === operation.id);
  const responses = view.of('responses').filter((record) => record['operationId'] === operation.id);
  const parameters = [...inherited, ...own];
  return {
    ...endpointOf(view, operation),
    operation: withoutInternals(operation),
    parameters: parameters.map(withoutInternals),
    requests: requests.map(withoutInternals),
    responses: responses.map(withoutInternals),
    schemas: referencedSchemas(view, [...parameters, ...requests, ...responses]),
  };
}

function serversOf(view: VersionView, operation: CatalogRecord, path: CatalogRecord | undefined, service: CatalogRecord | undefined): string[] {
  const servers = view.of('servers');
  for (const [field, owner] of [['operationId', operation], ['pathId', path], ['serviceId', service]] as const) {
    if (!owner) continue;
    const urls = servers.filter((record) => record[field] === owner.id).map((record) => String(record['url']));
    if (urls.length > 0) return urls;
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
    return { scheme: scheme ? schemeOf(scheme) : { id: null, name: key }, scopes: Array.isArray(scopes) ? scopes : [] };
  }));
}

function schemeOf(record: CatalogRecord): Record<string, unknown> {
  const kept = isObject(record['kvStorage']) ? record['kvStorage'] : {};
  return defined({
    id: record.id, name: record['name'], type: record['type'], scheme: record['scheme'], bearerFormat: record['bearerFormat'],
    in: record['in'],
    // The record's `name` is the scheme's identifier; an apiKey's parameter name is kept by import in kvStorage.
    parameterName: record['type'] === 'apiKey' ? str(kept['parameterName']) ?? str(kept['name']) : undefined,
    flows: record['flows'], openIdConnectUrl: record['openIdConnectUrl'],
  });
}

/** The Resources the records' schemas refer to (`#/components/schemas/<name>`), and theirs, by name. */
function referencedSchemas(view: VersionView, records: readonly CatalogRecord[]): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const pending = records.flatMap((record) => refsIn(record['schema']));
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in found) continue;
    const resource = view.of('resources').find((record) => record['name'] === name);
    found[name] = resource?.['schema'] ?? null;
    if (resource) pending.push(...refsIn(resource['schema']));
  }
  return found;
}

const SCHEMA_REF = '#/components/schemas/';

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF)) {
        found.push(decodeURIComponent(item.slice(SCHEMA_REF.length).split('/')[0]!).replaceAll('~1', '/').replaceAll('~0', '~'));
      } else refsIn(item, found);
    }
  }
  return found;
}

function groupNames(parameters: readonly CatalogRecord[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const record of parameters) {
    const owner = str(record['operationId']) ?? str(record['pathId']);
    if (owner === undefined) continue;
    names.set(owner, [...(names.get(owner) ?? []), String(record['name'])]);
  }
  return names;
}

function withoutInternals(record: CatalogRecord): Record<string, unknown> {
  const { kvStorage: _kvStorage, versionId: _versionId, ...rest } = record;
  return rest;
}

function inDocumentOrder(a: CatalogRecord, b: CatalogRecord): number {
  const ao = markOf(a)?.order ?? Number.MAX_SAFE_INTEGER;
  const bo = markOf(b)?.order ?? Number.MAX_SAFE_INTEGER;
  return ao - bo || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
