// The record kinds the OpenAPI import and export know, one entry per kind: the fields map.ts
// makes from an OpenAPI object and render.ts renders back, and where on that object the other
// fields travel (`x-catalog-fields`), so a field a schema author adds is never lost. Checked
// against schemas/collections.json at start-up; a service-owned kind with no entry is left out
// of the import's sync and the export (docs/schemas.md, "Add a collection").
import type { Fields } from '../records/record-body.ts';
import { isObject, sameJson, type JsonObject } from '../json/values.ts';
import { serviceKinds } from '../ownership/service-records.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { RENDER } from './render.ts';

/** The vendor extension that carries a record's fields no mapping names, as `{field: value}`. */
export const CATALOG_FIELDS = 'x-catalog-fields';

/** Fields of every record that are the catalog's, never a document's. */
const SYSTEM_FIELDS = new Set(['id', 'versionId', 'updatedAt', 'kvStorage']);

interface KindMapping {
  /** The record fields the import sets from OpenAPI and export renders back. */
  readonly fields: readonly string[];
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
  services: { fields: ['slug', 'organizationId', 'name', 'summary', 'description', 'security', 'owner', 'contact', 'lifecycle', 'links'] },
  resources: { fields: ['name', 'schema'] },
  paths: { fields: ['serviceId', 'path', 'summary', 'description'] },
  operations: { fields: ['pathId', 'method', 'operationId', 'summary', 'description', 'deprecated', 'sunset', 'tags', 'externalDocs', 'security'] },
  parameters: { fields: ['pathId', 'operationId', 'name', 'in', 'description', 'required', 'deprecated', 'sunset', 'allowEmptyValue', 'schema', 'examples'] },
  requests: { fields: ['operationId', 'contentMediaType', 'description', 'schema', 'examples'], carrier: inMediaType },
  responses: { fields: ['operationId', 'statusCode', 'contentMediaType', 'description', 'schema', 'examples', 'headers'], carrier: inMediaType },
  servers: { fields: ['serviceId', 'pathId', 'operationId', 'url', 'description', 'variables'] },
  'security-schemes': { fields: ['serviceId', 'name', 'type', 'in', 'description', 'scheme', 'bearerFormat', 'flows', 'openIdConnectUrl'] },
  headers: { fields: ['name', 'description', 'required', 'deprecated', 'style', 'explode', 'schema', 'examples'] },
  examples: { fields: ['name', 'summary', 'description', 'value', 'externalValue'] },
};

/**
 * Checks the table against the descriptors: a kind of the table with no descriptor, or a field
 * it maps that the kind's schema lacks, stops the start-up. Answers the service-owned kinds the
 * table has no entry for (left out of import and export).
 */
export function checkKinds(collections: readonly CompiledCollection[]): string[] {
  const byName = new Map(collections.map((collection) => [collection.name, collection]));
  for (const [name, { fields }] of Object.entries(KINDS)) {
    const collection = byName.get(name);
    if (!collection) throw new Error(`OpenAPI mapping of ${name}: schemas/collections.json has no such collection`);
    const missing = fields.filter((field) => !collection.fields.has(field));
    if (missing.length > 0) throw new Error(`OpenAPI mapping of ${name}: the ${collection.record} schema has no ${missing.join(', ')}`);
  }
  return serviceKinds(collections).map(({ name }) => name).filter((name) => !(name in KINDS));
}

/** The service-owned kinds the import and export handle: those of the table. */
export function mappedKinds(collections: Iterable<CompiledCollection>): CompiledCollection[] {
  return serviceKinds(collections).filter(({ name }) => name in KINDS);
}

/** The fields of a kind that travel under the extension: its schema's, less the mapped, the catalog's and those kept on import. */
function carriedFields(collection: CompiledCollection): string[] {
  const mapped = new Set(KINDS[collection.name]?.fields ?? []);
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
  if (Object.keys(extra).length === 0) return RENDER[collection.name]!(record);
  // A copy: a Resource renders as its stored schema itself.
  const rendered = structuredClone(RENDER[collection.name]!(record));
  const carrier = (KINDS[collection.name]?.carrier ?? ((object) => object))(rendered, record);
  if (carrier) carrier[CATALOG_FIELDS] = extra;
  return rendered;
}

/** The fields an object of a document carries under the extension that are the kind's to carry (others stay in kvStorage). */
export function fieldsCarried(collection: CompiledCollection, original: JsonObject, fields: Fields): Fields {
  const carrier = (KINDS[collection.name]?.carrier ?? ((object) => object))(original, fields);
  const extension = carrier?.[CATALOG_FIELDS];
  if (!isObject(extension)) return {};
  const carried = new Set(carriedFields(collection));
  return Object.fromEntries(Object.entries(extension).filter(([field]) => carried.has(field)));
}
