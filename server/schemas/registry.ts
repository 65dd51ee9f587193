// Loads schemas/ once at start-up: compiles every validator and derives from the schemas what
// the rest of the service needs to know about each collection (id format, sortable fields,
// defaults, filters, references, natural and import keys, owners, scope rules). Requests only
// read what this builds.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction, type AnySchemaObject, type FuncKeywordDefinition, type ErrorObject, type Logger } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repoRoot } from '../config.ts';
import { toProblems } from './problems.ts';
import { idPrefixProblem, type FieldProblem } from '../errors.ts';
import type { CollectionDescriptor } from './generated/types.ts';

export const SCHEMA_BASE = 'https://catalog.example/schemas/';
const DESCRIPTORS_FILE = 'collections.json';
const DESCRIPTORS_SCHEMA = `${SCHEMA_BASE}collection-descriptors.schema.json`;
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** A validator that answers with the problems as `details` entries (empty when valid). */
export type Check = (value: unknown) => FieldProblem[];

/** One served collection: its descriptor plus everything derived from its record schema. */
export interface CompiledCollection {
  /** URL segment and MongoDB collection name, e.g. `paths`. */
  readonly name: string;
  readonly title: string;
  /** Record kind, e.g. `Path`. */
  readonly record: string;
  readonly schemaId: string;
  readonly schema: AnySchemaObject;
  readonly notFound: string;
  readonly idPrefix: string;
  /** Top-level fields of the record. */
  readonly fields: ReadonlySet<string>;
  /** Scalar top-level fields: what `sort` accepts. */
  readonly sortable: ReadonlySet<string>;
  /** Top-level defaults, present in every returned record. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Equality filters of the list operation: each turns the query text into a typed value. */
  readonly filters: ReadonlyMap<string, FilterValue>;
  /** Reference fields (not enforced on write), each to the collection it names. */
  readonly references: ReadonlyMap<string, string>;
  /** Fields whose values together are unique in a version; empty when the kind has none. */
  readonly naturalKey: readonly string[];
  /** Fields an import matches records by (dotted ones reach into objects): the natural key, else the declared `importKey`; empty when neither. */
  readonly importKey: readonly string[];
  /** The (dotted) field naming the service a record belongs to, for a kind no reference ties to one. */
  readonly owner: string | undefined;
  /**
   * Top-level fields the catalog sets and no OpenAPI document does (`x-kept-on-import` in the
   * record schema: traffic state on a Service): an import keeps their stored values.
   */
  readonly keptOnImport: ReadonlySet<string>;
  /**
   * Top-level fields a document may give and the interface may set (`x-kept-unless-given`: a
   * Service's owner and lifecycle): an import takes the document's value, else keeps the stored one.
   */
  readonly keptUnlessGiven: ReadonlySet<string>;
  /** The scope rule: between `min` and `max` of `fields` set. */
  readonly scope: Scope | undefined;
  /** What `$ref`s of the form `#/components/<section>/<name>` name in this collection, by its `key` field. */
  readonly component: Component | undefined;
  /** The vendor extension whose list items are this kind's records in an OpenAPI document (descriptions/extension-kinds.ts). */
  readonly extension: string | undefined;
  /** Validates a whole record (schema, then scope rule) and fills in schema defaults (mutates its argument). */
  readonly checkRecord: Check;
  readonly checkId: Check;
}

export interface Scope {
  readonly fields: readonly string[];
  readonly min: number;
  readonly max: number;
}

export interface Component {
  readonly section: string;
  readonly key: string;
}

/** A filter's query text as the field's value (`200` a number, `null` null), or the problem. */
export type FilterValue = (text: string) => { value: unknown } | { problem: string };

export interface SchemaRegistry {
  readonly collections: readonly CompiledCollection[];
  readonly ajv: Ajv2020;
  /** The same schemas on an Ajv that coerces text to the schema's types: for query values, which arrive as text (pipeline/query.ts). */
  readonly coercingAjv: Ajv2020;
  /** Checks for the route parameters and shapes shared by every collection. */
  readonly checkVersionId: Check;
  readonly checkVersionType: Check;
  readonly checkVersionSlug: Check;
  readonly checkProjectRef: Check;
  /** A service slug (the `service` of imports). */
  readonly checkServiceSlug: Check;
  /** A service by slug or id (the `service` of search, changes, insights, MCP; the export's route). */
  readonly checkServiceRef: Check;
  /** The compiled validator of any schema by `$id` (and JSON pointer). */
  check(ref: string): Check;
  /** The collection of this name (`services`), which the code names; throws when schemas/collections.json has none. */
  collection(name: string): CompiledCollection;
  /** The `x-id-prefix` of an identifier kind in defs/ids.json, e.g. `projectId` → `proj_`. */
  idPrefix(kind: string): string;
}

export function loadSchemaRegistry(schemaDir = path.join(repoRoot, 'schemas')): SchemaRegistry {
  const ajv = createAjv();
  const coercingAjv = createAjv(undefined, { coerceTypes: true });
  for (const file of schemaFiles(schemaDir)) {
    const schema = readJson(path.join(schemaDir, file)) as AnySchemaObject;
    ajv.addSchema(schema);
    coercingAjv.addSchema(schema);
  }
  const checks = new Map<string, Check>();
  const check = (ref: string): Check => {
    let found = checks.get(ref);
    if (!found) {
      found = checkOf(ajv, ref);
      checks.set(ref, found);
    }
    return found;
  };

  const descriptors = readJson(path.join(schemaDir, DESCRIPTORS_FILE));
  const problems = check(DESCRIPTORS_SCHEMA)(descriptors);
  if (problems.length > 0) throw new Error(`schemas/${DESCRIPTORS_FILE} is invalid: ${JSON.stringify(problems)}`);
  const collections = (descriptors as { collections: Descriptor[] }).collections
    .map((descriptor) => describeCollection(ajv, check, descriptor));

  const ids = `${SCHEMA_BASE}defs/ids.json#/$defs/`;
  return Object.freeze({
    collections: Object.freeze(collections),
    ajv,
    coercingAjv,
    checkVersionId: check(`${ids}versionId`),
    checkVersionType: check(`${ids}versionType`),
    checkVersionSlug: check(`${ids}versionSlug`),
    checkProjectRef: check(`${ids}projectRef`),
    checkServiceSlug: check(`${ids}serviceSlug`),
    checkServiceRef: check(`${ids}serviceRef`),
    check,
    collection(name: string) {
      const found = collections.find((collection) => collection.name === name);
      if (!found) throw new Error(`schemas/collections.json has no ${name} collection`);
      return found;
    },
    idPrefix(kind: string) {
      const prefix = (ajv.getSchema(`${ids}${kind}`)?.schema as AnySchemaObject | undefined)?.['x-id-prefix'];
      if (typeof prefix !== 'string') throw new Error(`defs/ids.json has no ${kind} with an x-id-prefix`);
      return prefix;
    },
  });
}

type Descriptor = CollectionDescriptor;

function describeCollection(ajv: Ajv2020, check: (ref: string) => Check, descriptor: Descriptor): CompiledCollection {
  const schema = ajv.getSchema(descriptor.schema)?.schema as AnySchemaObject | undefined;
  if (!schema) throw new Error(`collection ${descriptor.name}: no schema with $id ${descriptor.schema}`);
  const properties = (schema['properties'] ?? {}) as Record<string, AnySchemaObject>;
  const resolve = (field: string): AnySchemaObject => resolveRefs(ajv, descriptor.schema, properties[field]!);
  const fields = new Set(Object.keys(properties));

  for (const required of ['id', 'versionId']) {
    if (!fields.has(required)) throw new Error(`collection ${descriptor.name}: ${descriptor.record} has no ${required} property, which every served record needs`);
  }
  const idPrefix = resolve('id')['x-id-prefix'];
  if (typeof idPrefix !== 'string') throw new Error(`collection ${descriptor.name}: its id schema has no x-id-prefix`);
  const references = new Map(Object.entries(descriptor.references ?? {}));
  const naturalKey: readonly string[] = descriptor.naturalKey ?? [];
  const importKey: readonly string[] = descriptor.importKey ?? naturalKey;
  const topLevel = (dotted: readonly string[]): string[] => dotted.map((field) => field.split('.')[0]!);
  for (const [rule, names] of [['reference', [...references.keys()]], ['natural key', naturalKey], ['scope', descriptor.scope?.fields ?? []], ['filter', descriptor.filters ?? []], ['component key', descriptor.component ? [descriptor.component.key] : []],
    ['import key', topLevel(importKey)], ['owner', topLevel(descriptor.owner ? [descriptor.owner] : [])]] as const) {
    for (const field of names) {
      if (!fields.has(field)) throw new Error(`collection ${descriptor.name}: ${rule} field ${field} is not a field of ${descriptor.record}`);
    }
  }
  const filters = new Map<string, FilterValue>();
  for (const field of descriptor.filters ?? []) {
    if (!references.has(field) && !naturalKey.includes(field) && !isScalar(resolve(field))) {
      throw new Error(`collection ${descriptor.name}: filter ${field} is neither a reference, a natural-key field nor a scalar field`);
    }
    filters.set(field, filterValue(resolve(field), checkOf(ajv, `${descriptor.schema}#/properties/${field}`)));
  }
  const checkSchema = check(descriptor.schema);
  const scope = descriptor.scope && Object.freeze({ ...descriptor.scope, fields: Object.freeze([...descriptor.scope.fields]) });

  return Object.freeze({
    name: descriptor.name,
    title: descriptor.title,
    record: descriptor.record,
    schemaId: descriptor.schema,
    schema,
    notFound: descriptor.notFound,
    idPrefix,
    fields,
    sortable: new Set([...fields].filter((field) => isScalar(resolve(field)))),
    defaults: Object.freeze(Object.fromEntries([...fields]
      .filter((field) => properties[field]!['default'] !== undefined)
      .map((field) => [field, properties[field]!['default']]))),
    filters,
    references,
    naturalKey: Object.freeze([...naturalKey]),
    importKey: Object.freeze([...importKey]),
    owner: descriptor.owner,
    keptOnImport: new Set([...fields].filter((field) => properties[field]!['x-kept-on-import'] === true)),
    keptUnlessGiven: new Set([...fields].filter((field) => properties[field]!['x-kept-unless-given'] === true)),
    scope,
    component: descriptor.component && Object.freeze({ ...descriptor.component }),
    extension: descriptor.extension,
    checkRecord: (value: unknown) => {
      const problems = checkSchema(value);
      return problems.length > 0 || !scope ? problems : scopeProblems(scope, value as Record<string, unknown>);
    },
    checkId: checkOf(ajv, `${descriptor.schema}#/properties/id`),
  });
}

/** The scope rule's problem, at the first field that breaks it (none set, or one too many). */
function scopeProblems(scope: Scope, record: Record<string, unknown>): FieldProblem[] {
  const set = scope.fields.filter((field) => record[field] !== undefined);
  const names = scope.fields.join(', ');
  const rule = scope.min === scope.max ? `exactly ${scope.min}` : scope.min === 0 ? `at most ${scope.max}` : `${scope.min} to ${scope.max}`;
  if (set.length < scope.min) return [{ field: `/${scope.fields[0]}`, message: `is required: set ${rule} of ${names}` }];
  if (set.length > scope.max) {
    return [{ field: `/${set[scope.max]}`, message: `cannot be combined with ${set.slice(0, scope.max).join(', ')}: set ${rule} of ${names}` }];
  }
  return [];
}

/**
 * Query text → the field's type: `null` is null where the field may be null, numbers and
 * booleans where the field is one; otherwise the text itself. Then the field's own schema.
 */
function filterValue(schema: AnySchemaObject, check: Check): FilterValue {
  const types = new Set(schema['type'] === undefined ? [] : [schema['type']].flat() as string[]);
  return (text) => {
    let value: unknown = text;
    if (types.has('null') && text === 'null') value = null;
    else if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(text)) value = Number(text);
    else if (types.has('boolean') && (text === 'true' || text === 'false')) value = text === 'true';
    const problem = check(value)[0];
    return problem ? { problem: problem.message } : { value };
  };
}

/** The service's Ajv: strict, 2020-12, formats, and our annotation keywords (x-id-prefix, x-kept-on-import). */
export function createAjv(logger?: Logger, options: { coerceTypes?: boolean } = {}): Ajv2020 {
  // allErrors stays off: Ajv's own advice for untrusted input, since collecting every error
  // of a large body costs far more than stopping at the first one.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, useDefaults: true, allErrors: false, ...options, ...(logger && { logger }) });
  addFormats.default(ajv);
  // On identifier schemas: the prefix new ids of that kind are generated with. It is checked
  // before the length and pattern, so that another kind's id (an `op_` id where a `path_` id
  // belongs) is told by its prefix rather than by its length.
  ajv.addKeyword(idPrefixKeyword());
  ajv.addKeyword({ keyword: 'x-kept-on-import', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-kept-unless-given', schemaType: 'boolean' });
  return ajv;
}

function idPrefixKeyword(): FuncKeywordDefinition {
  const validate = (prefix: string, value: string): boolean => {
    validate.errors = value.startsWith(prefix) ? [] : [{ keyword: 'x-id-prefix', message: idPrefixProblem(prefix, value), params: { prefix } }];
    return validate.errors.length === 0;
  };
  validate.errors = [] as Partial<ErrorObject>[];
  return { keyword: 'x-id-prefix', type: 'string', schemaType: 'string', before: 'maxLength', errors: true, validate };
}

function checkOf(ajv: Ajv2020, ref: string): Check {
  const validate: ValidateFunction | undefined = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema ${ref}`);
  return (value) => (validate(value) ? [] : toProblems(validate.errors ?? [], validate.schema as AnySchemaObject));
}

/** Follows `$ref`s (relative to the schema that holds them) until a schema with content. */
function resolveRefs(ajv: Ajv2020, baseId: string, schema: AnySchemaObject): AnySchemaObject {
  let current = schema;
  let base = baseId;
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 16; hops++) {
    const target = new URL(current['$ref'], base).href;
    const resolved = ajv.getSchema(target)?.schema;
    if (typeof resolved !== 'object') throw new Error(`unresolvable $ref ${target}`);
    // Keywords beside the $ref (a description, a default) belong to the field; the target gives the type.
    current = { ...resolved, ...withoutRef(current) };
    base = target.split('#')[0]!;
  }
  return current;
}

function withoutRef(schema: AnySchemaObject): AnySchemaObject {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

function isScalar(schema: AnySchemaObject): boolean {
  const types = schema['type'] === undefined ? [] : [schema['type']].flat() as string[];
  return types.length > 0 && types.some((type) => type !== 'null') && types.every((type) => SCALAR_TYPES.has(type));
}

function schemaFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.json') && file !== DESCRIPTORS_FILE)
    .sort();
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
