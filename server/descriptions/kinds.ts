// The record kinds the OpenAPI import and export know, one entry per kind: the fields map.ts
// makes from an OpenAPI object and render.ts renders back, and where on that object the other
// fields travel (`x-catalog-fields`), so a field a schema author adds is never lost. A kind a
// schema author maps from a vendor extension (extension-kinds.ts) is mapped too. Checked against
// schemas/collections.json at start-up; a service-owned kind with neither is left out of the
// import's sync and the export (docs/schemas.md, "Add a collection").
import type { Fields } from '../records/record-body.ts';
import { isObject, sameJson, type JsonObject } from '../json/values.ts';
import { serviceKinds } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { RENDER } from './render.ts';
import { extensionKinds, renderItem, SYSTEM_FIELDS } from '../ownership/extension-kinds.ts';

/** The vendor extension that carries a record's fields no mapping names, as `{field: value}`. */
export const CATALOG_FIELDS = 'x-catalog-fields';

interface KindMapping {
  /** The record fields the import sets from OpenAPI and export renders back. */
  readonly fields: readonly string[];
  /** The record as its OpenAPI object, from those fields. */
  readonly render: (record: Fields) => JsonObject;
  /** The object among the rendered (or original) one that holds the extension: a Request's and a Response's Media Type Object. */
  readonly carrier?: (object: JsonObject, record: Fields) => JsonObject | undefined;
}

const inMediaType = (object: JsonObject, record: Fields): JsonObject | undefined => {
  const type = record['contentMediaType'];
  if (typeof type !== 'string') return object;
  const content = object['content'];
  return isObject(content) && isObject(content[type]) ? content[type] : undefined;
};

export const KINDS: Readonly<Record<string, KindMapping>> = {
  services: { render: RENDER['services']!, fields: ['slug', 'organizationId', 'name', 'summary', 'description', 'security', 'owner', 'contact', 'lifecycle', 'links'] },
  resources: { render: RENDER['resources']!, fields: ['name', 'schema'] },
  paths: { render: RENDER['paths']!, fields: ['serviceId', 'path', 'summary', 'description'] },
  operations: { render: RENDER['operations']!, fields: ['pathId', 'method', 'operationId', 'summary', 'description', 'deprecated', 'sunset', 'tags', 'externalDocs', 'security'] },
  parameters: { render: RENDER['parameters']!, fields: ['pathId', 'operationId', 'name', 'in', 'description', 'required', 'deprecated', 'sunset', 'allowEmptyValue', 'schema', 'examples'] },
  requests: { render: RENDER['requests']!, fields: ['operationId', 'contentMediaType', 'description', 'schema', 'examples'], carrier: inMediaType },
  responses: { render: RENDER['responses']!, fields: ['operationId', 'statusCode', 'contentMediaType', 'description', 'schema', 'examples', 'headers'], carrier: inMediaType },
  servers: { render: RENDER['servers']!, fields: ['serviceId', 'pathId', 'operationId', 'url', 'description', 'variables'] },
  'security-schemes': { render: RENDER['security-schemes']!, fields: ['serviceId', 'name', 'type', 'in', 'description', 'scheme', 'bearerFormat', 'flows', 'openIdConnectUrl'] },
  headers: { render: RENDER['headers']!, fields: ['name', 'description', 'required', 'deprecated', 'style', 'explode', 'schema', 'examples'] },
  examples: { render: RENDER['examples']!, fields: ['name', 'summary', 'description', 'value', 'externalValue'] },
};

/**
 * Checks the table against the descriptors: a kind of the table with no descriptor, or a field
 * it maps that the kind's schema lacks, stops the start-up. Answers the service-owned kinds the
 * table has no entry for (left out of import and export).
 */
export function checkKinds(collections: readonly CompiledCollection[]): string[] {
  const byName = new Map(collections.map((collection) => [collection.name, collection]));
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
