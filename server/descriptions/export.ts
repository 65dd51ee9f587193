// A service's records → an OpenAPI 3.1 document: each record rendered (render.ts) with the
// kvStorage the import kept laid over it, children in their document order, and under
// components the Resources, Headers, Examples and security schemes the service holds or refers to.
import type { CatalogRecord, RecordStore } from '../store/records.ts';
import { componentRefsIn } from '../json/pointer.ts';
import { isObject, merge, setMember, without, type JsonObject } from '../json/values.ts';
import { inDocumentOrder, MARK } from '../store/mark.ts';
import { recordsOfService, schemeNamed } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { mappedKinds, renderRecord } from './kinds.ts';
import { extensionKinds, type Carrier } from '../ownership/extension-kinds.ts';
import { withParts, type ServicePart } from './service-parts.ts';
import { Slices } from './slices.ts';
import { collectionStore } from '../store/stores.ts';

/** Records are read through `all` only, so a planned state (an import's dry run) can be exported too. */
/** `parts`: what the import kept beside the Service record (service-parts.ts); a planned state (a dry run's snapshot) has none. */
export async function exportService(stores: ReadonlyMap<string, Pick<RecordStore, 'all' | 'collection'>>, versionId: string, service: CatalogRecord, parts: readonly Omit<ServicePart, 'order'>[] = []): Promise<JsonObject> {
  // The kinds of the OpenAPI mapping only (kinds.ts): a kind with none has no place in a document.
  const kinds = mappedKinds([...stores.values()].map(({ collection }) => collection));
  const rendered = renderer(new Map(kinds.map((kind) => [kind.name, kind])));
  const all = new Map<string, CatalogRecord[]>();
  for (const { name } of kinds) all.set(name, await collectionStore(stores, name).all(versionId));
  const owned = recordsOfService(kinds, service.id, all);
  const of = (name: string): CatalogRecord[] => [...(owned.get(name) ?? [])].sort(inDocumentOrder);
  const children = (name: string, field: string): Map<string, CatalogRecord[]> => groupBy(of(name), field);
  // The lists of the kinds mapped from an extension, laid on their parent's object (extension-kinds.ts).
  const extensions = extensionKinds(kinds).map((kind) => ({ kind, items: children(kind.collection.name, kind.parentField) }));
  const extend = (parent: Carrier, object: JsonObject, id: string): void => {
    for (const { kind, items } of extensions) if (kind.parent === parent) addList(rendered, object, kind.extension, items.get(id), kind.collection.name);
  };

  const document = rendered('services', service);
  extend('services', document, service.id);
  const servers = of('servers');
  const topServers = servers.filter((record) => record['serviceId'] === service.id).map((record) => rendered('servers', record));
  if (topServers.length > 0) document['servers'] = topServers;
  const serversOfPath = groupBy(servers, 'pathId');
  const serversOfOperation = groupBy(servers, 'operationId');
  const parametersOfPath = children('parameters', 'pathId');
  const parametersOfOperation = children('parameters', 'operationId');
  const operationsOfPath = children('operations', 'pathId');
  const requestsOf = children('requests', 'operationId');
  const responsesOf = children('responses', 'operationId');

  const paths: JsonObject = {};
  // A path at a time, pausing between slices: a large service's export (a dry run's report) is not one long stretch.
  const slices = new Slices();
  for (const path of of('paths')) {
    await slices.pause();
    const item = rendered('paths', path);
    extend('paths', item, path.id);
    addList(rendered, item, 'parameters', parametersOfPath.get(path.id), 'parameters');
    addList(rendered, item, 'servers', serversOfPath.get(path.id), 'servers');
    for (const operation of operationsOfPath.get(path.id) ?? []) {
      const op = rendered('operations', operation);
      extend('operations', op, operation.id);
      addList(rendered, op, 'parameters', parametersOfOperation.get(operation.id), 'parameters');
      const requests = requestsOf.get(operation.id) ?? [];
      if (requests.length > 0) op['requestBody'] = requests.reduce<JsonObject>((body, record) => merge(body, rendered('requests', record)), {});
      // Status code ranges (2XX…) were kept in the operation's kvStorage, so `op` may hold some.
      const responses: JsonObject = isObject(op['responses']) ? { ...op['responses'] } : {};
      for (const record of responsesOf.get(operation.id) ?? []) {
        const status = record['statusCode'] === null || record['statusCode'] === undefined ? 'default' : String(record['statusCode']);
        responses[status] = merge(isObject(responses[status]) ? responses[status] : {}, rendered('responses', record));
      }
      op['responses'] = responses;
      addList(rendered, op, 'servers', serversOfOperation.get(operation.id), 'servers');
      item[String(operation['method'])] = op;
    }
    paths[String(path['path'])] = item;
  }
  document['paths'] = paths;

  const components: JsonObject = isObject(document['components']) ? { ...document['components'] } : {};
  const named = (name: string, key: string): void => {
    const entries = of(name).map((record) => [String(record['name']), rendered(name, record)] as const);
    if (entries.length > 0) components[key] = { ...(isObject(components[key]) ? components[key] : {}), ...Object.fromEntries(entries) };
  };
  named('resources', 'schemas');
  named('security-schemes', 'securitySchemes');
  addVersionWideSchemes(rendered, components, [service, ...of('operations')], service.id, all.get('security-schemes') ?? []);
  named('headers', 'headers');
  named('examples', 'examples');
  addReferencedResources(rendered, document, components, all.get('resources') ?? []);
  if (Object.keys(components).length > 0) document['components'] = components;
  return withParts(document, parts);
}

/** The record as OpenAPI: its fields rendered (with those no mapping names under `x-catalog-fields`), what the import kept laid over them. */
function renderer(kinds: ReadonlyMap<string, CompiledCollection>): Rendered {
  return (collection, record) => {
    const kept = isObject(record['kvStorage']) ? without(record['kvStorage'] as JsonObject, MARK) : {};
    return merge(renderRecord(kinds.get(collection)!, record), kept);
  };
}

type Rendered = (collection: string, record: CatalogRecord) => JsonObject;

function addList(rendered: Rendered, target: JsonObject, key: string, records: CatalogRecord[] | undefined, collection: string): void {
  if (records && records.length > 0) target[key] = records.map((record) => rendered(collection, record));
}

/** Schemas referred to but held by no Resource of the service: taken from the version's Resources by name. */
function addReferencedResources(rendered: Rendered, document: JsonObject, components: JsonObject, resources: CatalogRecord[]): void {
  const schemas: JsonObject = isObject(components['schemas']) ? { ...components['schemas'] } : {};
  const pending = [...new Set(componentRefsIn(document, 'schemas'))];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    if (!Object.hasOwn(schemas, name)) {
      const resource = resources.find((record) => record['name'] === name);
      if (!resource) continue;
      setMember(schemas, name, rendered('resources', resource));
    }
    pending.push(...new Set(componentRefsIn(schemas[name], 'schemas')));
  }
  if (Object.keys(schemas).length > 0) components['schemas'] = schemas;
}

/** Schemes the requirements of `owners` name that the service does not own: the version-wide ones of those names. */
function addVersionWideSchemes(rendered: Rendered, components: JsonObject, owners: CatalogRecord[], serviceId: string, schemes: CatalogRecord[]): void {
  const named: JsonObject = isObject(components['securitySchemes']) ? { ...components['securitySchemes'] } : {};
  const requirements = owners.flatMap((owner) => (Array.isArray(owner['security']) ? owner['security'] as unknown[] : []));
  for (const name of new Set(requirements.filter(isObject).flatMap((requirement) => Object.keys(requirement)))) {
    const scheme = Object.hasOwn(named, name) ? undefined : schemeNamed(schemes, serviceId, name);
    if (scheme) setMember(named, name, rendered('security-schemes', scheme));
  }
  if (Object.keys(named).length > 0) components['securitySchemes'] = named;
}

function groupBy(records: readonly CatalogRecord[], field: string): Map<string, CatalogRecord[]> {
  const groups = new Map<string, CatalogRecord[]>();
  for (const record of records) {
    const key = record[field];
    if (typeof key !== 'string') continue;
    const group = groups.get(key) ?? [];
    group.push(record);
    groups.set(key, group);
  }
  return groups;
}
