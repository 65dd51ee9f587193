// Helpers for the collection tests: sample bodies of every served collection (derived from its
// schema, so a new collection gets one too), the addresses of both route families, and a
// request helper that sends JSON text exactly (keeping -0, which JSON.stringify prints as 0).
import type supertest from 'supertest';
import type { AnySchemaObject } from 'ajv/dist/2020.js';
import { ulid } from 'ulid';
import { loadSchemaRegistry, type SchemaRegistry, type CompiledCollection } from '../../server/schemas/registry.ts';
import { routeTable, type RecordRoute as Route } from '../../server/records/table.ts';
import type { Method } from '../../server/routes/route.ts';
import type { Tenant, TestCatalog } from './catalog.ts';

export type Fields = Record<string, unknown>;

/** Loaded at module load so suites can generate their tests; the service loads the same schemas. */
export const schemas: SchemaRegistry = loadSchemaRegistry();

/** A generated id: prefix + 26 Crockford base-32 characters. */
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** ISO 8601 in UTC with milliseconds, as `Date#toISOString` writes it. */
export const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function newIdOf(prefix: string): string {
  return prefix + ulid();
}

export function collectionNamed(name: string): CompiledCollection {
  const found = schemas.collections.find((collection) => collection.name === name);
  if (!found) throw new Error(`no collection ${name}`);
  return found;
}

// --- JSON text that keeps -0 ----------------------------------------------------------------

const RawJSON = JSON as unknown as { rawJSON(text: string): object };

/** JSON text as the server prints it (no spaces), but with -0 kept as `-0`. */
export function exactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? RawJSON.rawJSON('-0') : v));
}

// --- Addresses ------------------------------------------------------------------------------

/** How a route names the version: by id (family V), or by project slug or id (family P). */
export type Via = 'V' | 'P/slug' | 'P/id';
export const VIAS: readonly Via[] = ['V', 'P/slug', 'P/id'];

export function prefixOf(tenant: Tenant, via: Via): string {
  const { project, version } = tenant;
  if (via === 'V') return `/v2/catalog/versions/${version.id}`;
  const ref = via === 'P/id' ? project.id : project.slug;
  return `/v2/catalog/projects/${ref}/${version.type}/${version.slug}`;
}

/** URLs of the tenant's collections through one way of addressing the version. */
export function routes(tenant: Tenant, via: Via = 'V'): { list(collection: string): string; item(collection: string, id: string): string } {
  const prefix = prefixOf(tenant, via);
  return {
    list: (collection) => `${prefix}/${collection}`,
    item: (collection, id) => `${prefix}/${collection}/${encodeURIComponent(id)}`,
  };
}

/** One concrete way to call a route of the table: family V once, family P by slug and by id. */
export interface RouteCase {
  route: Route;
  via: Via;
  /** e.g. `PATCH P/id paths/{id} (update)`. */
  title: string;
}

/** Every route of the table, with both kinds of project reference for family P. */
export function routeCases(filter: (route: Route) => boolean = () => true): RouteCase[] {
  return routeTable(schemas.collections).filter(filter).flatMap((route) =>
    (route.family.name === 'V' ? ['V' as const] : ['P/slug' as const, 'P/id' as const]).map((via) => ({
      route,
      via,
      title: `${route.action.method} ${via} ${route.collection.name}${route.action.item ? '/{id}' : ''} (${route.action.name})`,
    })));
}

export function urlOf(rc: RouteCase, tenant: Tenant, id?: string): string {
  const { list, item } = routes(tenant, rc.via);
  if (!rc.route.action.item) return list(rc.route.collection.name);
  if (id === undefined) throw new Error(`${rc.title} needs an id`);
  return item(rc.route.collection.name, id);
}

// --- Calls ------------------------------------------------------------------------------------

export interface CallOptions {
  /** Bearer secret; null sends no Authorization header. */
  key: string | null;
  /** A JSON value, sent as exact JSON text. */
  body?: unknown;
  /** Raw body text (with `contentType`, default application/json). */
  text?: string;
  contentType?: string;
}

export function call(service: TestCatalog, method: Method, url: string, options: CallOptions): supertest.Test {
  let test = service.request[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](url);
  if (options.key !== null) test = test.set('Authorization', `Bearer ${options.key}`);
  const text = options.text ?? (options.body === undefined ? undefined : exactJson(options.body));
  if (text !== undefined) test = test.set('Content-Type', options.contentType ?? 'application/json').send(text);
  return test;
}

/** The usual calls of a test, on one tenant, with its read-write key. */
export class Client {
  readonly service: TestCatalog;
  readonly tenant: Tenant;
  readonly key: string;

  constructor(service: TestCatalog, tenant: Tenant, key: string = tenant.key) {
    this.service = service;
    this.tenant = tenant;
    this.key = key;
  }

  list(collection: string, query = '', via: Via = 'V'): supertest.Test {
    return call(this.service, 'GET', routes(this.tenant, via).list(collection) + query, { key: this.key });
  }

  create(collection: string, body: unknown, via: Via = 'V'): supertest.Test {
    return call(this.service, 'POST', routes(this.tenant, via).list(collection), { key: this.key, body });
  }

  get(collection: string, id: string, via: Via = 'V'): supertest.Test {
    return call(this.service, 'GET', routes(this.tenant, via).item(collection, id), { key: this.key });
  }

  replace(collection: string, id: string, body: unknown, via: Via = 'V'): supertest.Test {
    return call(this.service, 'POST', routes(this.tenant, via).item(collection, id), { key: this.key, body });
  }

  update(collection: string, id: string, body: unknown, via: Via = 'V'): supertest.Test {
    return call(this.service, 'PATCH', routes(this.tenant, via).item(collection, id), { key: this.key, body });
  }

  delete(collection: string, id: string, via: Via = 'V'): supertest.Test {
    return call(this.service, 'DELETE', routes(this.tenant, via).item(collection, id), { key: this.key });
  }

  /** Creates a sample record (plus `overrides`) and returns it as the service answered; throws unless 201. */
  async given(collection: string, overrides: Fields = {}): Promise<Fields & { id: string }> {
    const res = await this.create(collection, { ...sampleOf(collectionNamed(collection)), ...overrides });
    if (res.status !== 201) throw new Error(`could not create a ${collection} record: ${res.status} ${res.text}`);
    return res.body as Fields & { id: string };
  }
}

// --- Sample bodies ----------------------------------------------------------------------------

/** A lower-case unique word, for natural-key strings (service slugs, scheme names). */
export function uniqueWord(prefix: string): string {
  return `${prefix}-${ulid().toLowerCase()}`;
}

/**
 * Hand-written full bodies of the collections we know; others are derived from their schema.
 * Natural keys get fresh values on every call (fresh reference ids, or a unique word), so
 * samples never collide with each other.
 */
const SAMPLES: Record<string, () => Fields> = {
  services: () => ({
    slug: uniqueWord('pets'),
    name: 'Pet store',
    organizationId: 'org-1',
    tags: ['pets'],
    security: [{ [newIdOf('sec_sch_')]: ['read'] }],
    kvStorage: { 'x-owner': 'pets-team' },
  }),
  resources: () => ({
    name: 'Pet',
    schema: { type: 'object', properties: { owner: { $ref: '#/components/schemas/Owner' } } },
    externalDocs: { url: 'https://example.com/pet' },
  }),
  paths: () => ({
    serviceId: newIdOf('svc_'),
    path: '/pets/{petId}',
    summary: 'One pet',
    description: 'A *pet* of the store.',
    kvStorage: { 'x-owner': 'pets-team' },
  }),
  operations: () => ({
    pathId: newIdOf('path_'),
    method: 'get',
    operationId: 'getPet',
    summary: 'Get one pet',
    tags: ['pets'],
    security: [{ [newIdOf('sec_sch_')]: [] }],
  }),
  parameters: () => ({
    pathId: newIdOf('path_'),
    name: 'limit',
    in: 'query',
    description: 'How many pets.',
    schema: { type: 'integer' },
  }),
  requests: () => ({
    operationId: newIdOf('op_'),
    description: 'The pet to add.',
    descriptionBlocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'The pet.', marks: [{ type: 'bold' }] }] }],
    contentMediaType: 'application/json',
    headers: { 'X-Trace': { description: 'Trace id', required: false }, 'X-Shared': { $ref: '#/components/headers/shared' } },
    schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    kvStorage: { encoding: { name: { contentType: 'text/plain' } } },
    examples: { cat: { summary: 'A cat', value: { name: 'Tom' } }, remote: { externalValue: 'https://example.com/dog.json' } },
  }),
  responses: () => ({
    operationId: newIdOf('op_'),
    statusCode: 200,
    description: 'The pet.',
    contentMediaType: 'application/json',
    schema: { $ref: '#/components/schemas/Pet' },
    headers: { 'X-Rate': { $ref: '#/components/headers/Rate' } },
  }),
  servers: () => ({
    url: 'https://{region}.pets.test/v1',
    description: 'Production',
    serviceId: newIdOf('svc_'),
    variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
  }),
  'security-schemes': () => ({
    type: 'apiKey',
    name: uniqueWord('key'),
    in: 'header',
    description: 'An API key.',
    kvStorage: { parameterName: 'X-Api-Key' },
  }),
  headers: () => ({
    name: 'X-Rate',
    description: 'Requests left.',
    schema: { type: 'integer' },
  }),
  examples: () => ({
    name: 'cat',
    summary: 'A cat',
    value: { name: 'Tom' },
  }),
};

/** A valid body with the collection's required fields and some optional ones; fresh ids on each call. */
export function sampleOf(collection: CompiledCollection): Fields {
  return SAMPLES[collection.name]?.() ?? derivedSample(collection);
}

/**
 * Only the required fields (never versionId: the route gives it), plus the sample's fields that
 * a rule needs (a scope field, the fields a security scheme's type needs).
 */
export function minimalOf(collection: CompiledCollection): Fields {
  const sample = sampleOf(collection);
  const minimal: Fields = Object.fromEntries(required(collection).map((field) => [field, sample[field]]));
  for (let round = 0; round < 8; round++) {
    const problems = collection.checkRecord(structuredClone({ ...minimal, versionId: 'ver_00000000000000000000000000' }));
    const missing = problems.map(({ field }) => field.split('/')[1]!).filter((field) => field in sample && !(field in minimal));
    if (missing.length === 0) break;
    for (const field of missing) minimal[field] = sample[field];
  }
  return minimal;
}

/** Resolved schema of a top-level field (following `$ref`s to the shape). */
export function fieldSchema(collection: CompiledCollection, field: string): AnySchemaObject {
  let schema = (collection.schema['properties'] as Record<string, AnySchemaObject>)[field]!;
  let base = collection.schemaId;
  for (let hops = 0; typeof schema['$ref'] === 'string' && hops < 16; hops++) {
    const target = new URL(schema['$ref'], base).href;
    const { $ref: _ref, ...beside } = schema;
    schema = { ...(schemas.ajv.getSchema(target)!.schema as AnySchemaObject), ...beside };
    base = target.split('#')[0]!;
  }
  return schema;
}

export function required(collection: CompiledCollection): string[] {
  return ((collection.schema['required'] ?? []) as string[]).filter((field) => field !== 'versionId');
}

/**
 * A list query that finds `record` alone on the first page: the equality filter on a reference
 * field (a fresh id in samples) or else a string natural key (a unique word in samples), else
 * the newest record first, one per page.
 */
export function listQueryFor(collection: CompiledCollection, record: Fields): string {
  const field = [...collection.references.keys(), ...collection.naturalKey]
    .find((name) => collection.filters.has(name) && typeof record[name] === 'string');
  if (field) return `?${field}=${encodeURIComponent(String(record[field]))}`;
  return '?sort=-id&limit=1';
}

/**
 * The first required field holding an id of another record (Path: serviceId, Request:
 * operationId); undefined for kinds that need none (Service, Resource, Server, ...).
 */
export function referenceField(collection: CompiledCollection): string | undefined {
  return required(collection).find((name) => typeof fieldSchema(collection, name)['x-id-prefix'] === 'string');
}

/** An optional free-text field (Path: summary, Request: description): no enum, pattern or format. */
export function optionalTextField(collection: CompiledCollection): string {
  const field = [...collection.fields].find((name) => {
    const schema = fieldSchema(collection, name);
    return !required(collection).includes(name) && name !== 'id' && schema['type'] === 'string'
      && schema['enum'] === undefined && schema['pattern'] === undefined && schema['format'] === undefined;
  });
  if (!field) throw new Error(`${collection.name} has no optional string field`);
  return field;
}

/** A well-formed id of another collection's kind (a `svc_` id on paths, a `path_` id on requests). */
export function otherKindId(collection: CompiledCollection): string {
  const other = schemas.collections.find((candidate) => candidate.idPrefix !== collection.idPrefix);
  return newIdOf(other?.idPrefix ?? 'svc_');
}

function derivedSample(collection: CompiledCollection): Fields {
  return Object.fromEntries(required(collection).map((field) => [field, sampleValue(fieldSchema(collection, field))]));
}

function sampleValue(schema: AnySchemaObject): unknown {
  if (typeof schema['x-id-prefix'] === 'string') return newIdOf(schema['x-id-prefix']);
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  const type = [schema['type']].flat()[0];
  if (type === 'string') return schema['pattern'] === '^/' ? '/sample' : 'sample';
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  return {};
}

/**
 * Top-level fields a client may write (all but id, versionId and updatedAt), except scope
 * fields the sample leaves unset (setting one beside the sample's would break the scope rule).
 */
export function writableFields(collection: CompiledCollection): string[] {
  const sample = sampleOf(collection);
  return [...collection.fields].filter((field) => !['id', 'versionId', 'updatedAt'].includes(field)
    && !(collection.scope?.fields.includes(field) && sample[field] === undefined));
}

/**
 * A value of a writable field, different for each `tag` where the field allows it: a new id
 * for references, the tag in strings, and the tag as a key or value in free-form objects, maps
 * and rich text. A candidate the sample record would not take (an enum, a pattern, a rule
 * between fields) gives way to the next, and finally to the sample's own value.
 */
export function variantOf(collection: CompiledCollection, field: string, tag: string): unknown {
  const sample = sampleOf(collection);
  const valid = (value: unknown): boolean => collection.checkRecord(structuredClone({ ...sample, [field]: value, versionId: 'ver_00000000000000000000000000' })).length === 0;
  return candidatesOf(collection, field, tag).find(valid) ?? sample[field];
}

function candidatesOf(collection: CompiledCollection, field: string, tag: string): unknown[] {
  const schema = fieldSchema(collection, field);
  if (typeof schema['x-id-prefix'] === 'string') return [newIdOf(schema['x-id-prefix'])];
  const n = Number(tag.replace(/\D/g, '')) || 0;
  if (Array.isArray(schema['enum'])) {
    const values = schema['enum'] as unknown[];
    return values.map((_, i) => values[(i + n) % values.length]);
  }
  const types = [schema['type']].flat();
  if (types.includes('integer') || types.includes('number')) return [200 + n];
  if (types.includes('boolean')) return [n % 2 === 1, n % 2 === 0];
  if (types.includes('string')) {
    return [schema['pattern'] === '^/' ? `/${field}/${tag}` : `${field} ${tag}`, `${field}-${tag}`.toLowerCase(), `https://example.com/${field}/${tag}`];
  }
  switch (field) {
    case 'headers': return [{ [`X-${tag}`]: { description: tag, required: true } }];
    case 'examples': return [{ [tag]: { summary: tag, value: { tag } } }];
    case 'descriptionBlocks': return [[{ type: 'paragraph', content: [{ type: 'text', text: tag }] }]];
    case 'variables': return [{ [tag]: { default: tag, enum: [tag] } }];
    case 'security': return [[{ [tag]: [tag] }]];
    case 'tags': case 'previousSlugs': return [[tag]];
    case 'externalDocs': return [{ url: `https://example.com/${tag}` }];
    default: return [{ [tag]: { [field]: tag } }, [{ [tag]: { [field]: tag } }]]; // kvStorage, schema and other free-form values
  }
}
