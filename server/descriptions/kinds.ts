// The record kinds the OpenAPI import and export know, one module per kind in kinds/: the fields
// map.ts makes from an OpenAPI object and the kind renders back, and where on that object the other
// fields travel (`x-catalog-fields`), so a field a schema author adds is never lost. A kind a
// schema author maps from a vendor extension (extension-kinds.ts) is mapped too. Checked against
// schemas/collections.json at start-up; a service-owned kind with neither is left out of the
// import's sync and the export (docs/schemas.md, "Add a collection").
import { missingKinds } from '../schemas/kind-names.ts';
import type { Fields } from '../records/record-body.ts';
import { isObject, sameJson, type JsonObject } from '../json/values.ts';
import { serviceKinds } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import type { KindMapping } from './kinds/mapping.ts';
import { services } from './kinds/services.ts';
import { resources } from './kinds/resources.ts';
import { paths } from './kinds/paths.ts';
import { operations } from './kinds/operations.ts';
import { parameters } from './kinds/parameters.ts';
import { requests } from './kinds/requests.ts';
import { responses } from './kinds/responses.ts';
import { servers } from './kinds/servers.ts';
import { securitySchemes } from './kinds/security-schemes.ts';
import { headers } from './kinds/headers.ts';
import { examples } from './kinds/examples.ts';
import { extensionKinds, renderItem, SYSTEM_FIELDS } from '../ownership/extension-kinds.ts';

/** The vendor extension that carries a record's fields no mapping names, as `{field: value}`. */
export const CATALOG_FIELDS = 'x-catalog-fields';

/** Each kind's mapping, from its module in kinds/. */
export const KINDS: Readonly<Record<string, KindMapping>> = {
  services, resources, paths, operations, parameters, requests, responses, servers, 'security-schemes': securitySchemes, headers, examples,
};

/**
 * Checks the table against the descriptors: a kind of the table with no descriptor, or a field
 * it maps that the kind's schema lacks, stops the start-up. Answers the service-owned kinds the
 * table has no entry for (left out of import and export).
 */
export function checkKinds(collections: readonly CompiledCollection[]): string[] {
  const byName = new Map(collections.map((collection) => [collection.name, collection]));
  const missing = missingKinds(byName.keys());
  if (missing.length > 0) throw new Error(`schemas/collections.json has no ${missing.join(', ')} collection: the catalog's code reads ${missing.length === 1 ? 'it' : 'them'} by name (server/schemas/kind-names.ts)`);
  extensionKinds(collections);
  for (const [name, { fields }] of Object.entries(KINDS)) {
    const collection = byName.get(name);
    if (!collection) throw new Error(`OpenAPI mapping of ${name}: schemas/collections.json has no such collection`);
    const missing = fields.filter((field) => !collection.fields.has(field));
    if (missing.length > 0) throw new Error(`OpenAPI mapping of ${name}: the ${collection.record} schema has no ${missing.join(', ')}`);
  }
  return serviceKinds(collections).filter((kind) => !isMapped(kind)).map(({ name }) => name);
}

const isMapped = (kind: CompiledCollection): boolean => kind.name in KINDS || kind.extension !== undefined;

/** The service-owned kinds the import and export handle: those of the table and those mapped from an extension. */
export function mappedKinds(collections: Iterable<CompiledCollection>): CompiledCollection[] {
  return serviceKinds(collections).filter(isMapped);
}

/** The kind's mapping: its entry in the table, else the one its extension declares. */
function mappingOf(collection: CompiledCollection): KindMapping | undefined {
  const entry = KINDS[collection.name];
  if (entry || collection.extension === undefined) return entry;
  const [kind] = extensionKinds([collection]);
  return { fields: [kind!.parentField, ...kind!.fields], render: (record) => renderItem(kind!, record) };
}

/** The fields of a kind that travel under the extension: its schema's, less the mapped, the catalog's and those kept on import. */
function carriedFields(collection: CompiledCollection): string[] {
  const mapped = new Set(mappingOf(collection)?.fields ?? []);
  return [...collection.fields].filter((field) => !mapped.has(field) && !SYSTEM_FIELDS.has(field) && !collection.keptOnImport.has(field));
}

/**
 * The record rendered as OpenAPI, with its carried fields under the extension: only those
 * whose value is not the schema's default (the import fills that in), so a record without such
 * fields renders as it always did.
 */
export function renderRecord(collection: CompiledCollection, record: Fields): JsonObject {
  const extra: JsonObject = {};
  for (const field of carriedFields(collection)) {
    const value = record[field];
    if (value !== undefined && !sameJson(value, collection.defaults[field])) extra[field] = value as JsonObject[string];
  }
  const { render, carrier: carrierOf } = mappingOf(collection)!;
  if (Object.keys(extra).length === 0) return render(record);
  // A copy: a Resource renders as its stored schema itself.
  const rendered = structuredClone(render(record));
  const carrier = (carrierOf ?? ((object) => object))(rendered, record);
  if (carrier) carrier[CATALOG_FIELDS] = extra;
  return rendered;
}

/** The fields an object of a document carries under the extension that are the kind's to carry (others stay in kvStorage). */
export function fieldsCarried(collection: CompiledCollection, original: JsonObject, fields: Fields): Fields {
  const carrier = (mappingOf(collection)?.carrier ?? ((object) => object))(original, fields);
  const extension = carrier?.[CATALOG_FIELDS];
  if (!isObject(extension)) return {};
  const carried = new Set(carriedFields(collection));
  return Object.fromEntries(Object.entries(extension).filter(([field]) => carried.has(field)));
}
