// The collection route table as documented routes: what each of the six operations takes and
// answers, for every collection on both families. New collections need no change here.
import { RecordNotFound } from '../errors.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from './list-query.ts';
import type { RecordRoute } from './table.ts';
import { CURSOR_POSITION_TTL_MS } from '../store/positions.ts';
import { SCHEMA_BASE, type SchemaRegistry, type CompiledCollection } from '../schemas/registry.ts';
import type { QueryParameter, RouteDoc, Schema, SuccessResponse, Tag } from '../routes/documentation.ts';
import { exampleRecord } from '../openapi/examples.ts';
import { bodyComponentName, bodySchema, type BodyKind } from '../openapi/request-bodies.ts';

const PAGINATION = `${SCHEMA_BASE}api/pagination.json`;

const FAMILY_NOTE: Readonly<Record<string, string>> = {
  V: 'The version is named by its id.',
  P: 'The version is named by project (id or slug), version type and version slug; it resolves to the same records as the version id.',
};

export function collectionTags(collections: readonly CompiledCollection[]): Tag[] {
  return collections.map((collection) => ({ name: collection.title, description: String(collection.schema['description'] ?? collection.title) }));
}

/** The documentation of each route of the table, in the table's order. */
export function collectionRouteDocs(schemas: SchemaRegistry, routes: readonly RecordRoute[]): RouteDoc[] {
  // A scope rule's fewest fields are set, so the example keeps it too (a Parameter names its path).
  const examples = new Map(schemas.collections.map((collection) =>
    [collection.name, exampleRecord(schemas, collection.schemaId, collection.scope?.fields.slice(0, collection.scope.min))]));
  return routes.map((route) => documentRoute(route, examples.get(route.collection.name)));
}

function documentRoute(route: RecordRoute, example: Record<string, unknown> | undefined): RouteDoc {
  const { collection, action, family } = route;
  const record = { $ref: collection.schemaId };
  const one = collection.record.toLowerCase();
  const many = collection.title.toLowerCase();
  const params = { ...family.params, ...(action.item && { id: { $ref: `${collection.schemaId}#/properties/id` } }) };
  // Valid for any route: the service takes id (on replace and update) and versionId from the route.
  const bodyExample = example && withoutFields(example, ['id', 'versionId', 'updatedAt']);
  const body = (kind: BodyKind) => ({ $ref: `#/components/schemas/${bodyComponentName(collection, kind)}` });
  const common = { tag: collection.title, params } as const;
  const suffix = family.operationIdSuffix;
  const responses = action.success.map((success): SuccessResponse => {
    const description = success.says(one, many);
    switch (success.body) {
      case 'page': return { status: success.status, description, schema: pageSchema(record), example: { items: example ? [example] : [], pagination: { nextCursor: null, hasMore: false, limit: DEFAULT_LIMIT } } };
      case 'record': return { status: success.status, description, schema: record, example };
      case 'none': return { status: success.status, description };
    }
  });

  const documented = ((): Omit<RouteDoc, keyof typeof common | 'description' | 'responses'> => {
    switch (action.name) {
      case 'list':
        return {
          operationId: `list${pascal(collection.title)}${suffix}`,
          summary: `List ${many}`,
          query: listParameters(collection),
          errors: [],
        };
      case 'create':
        return {
          operationId: `create${pascal(collection.record)}${suffix}`,
          summary: `Create ${aOrAn(one)}`,
          body: { schema: body('create'), example: bodyExample },
          errors: [409, 413, 415],
        };
      case 'get':
        return {
          operationId: `get${pascal(collection.record)}${suffix}`,
          summary: `Get ${aOrAn(one)}`,
          errors: [new RecordNotFound(collection.notFound)],
        };
      case 'replace':
        return {
          operationId: `replace${pascal(collection.record)}${suffix}`,
          summary: `Replace ${aOrAn(one)}`,
          body: { schema: body('replace'), example: bodyExample },
          errors: [409, 413, 415],
        };
      case 'update':
        return {
          operationId: `update${pascal(collection.record)}${suffix}`,
          summary: `Update ${aOrAn(one)} partially`,
          body: { schema: body('update'), example: bodyExample && patchExample(collection, bodyExample) },
          errors: [new RecordNotFound(collection.notFound), 409, 413, 415],
        };
      case 'delete':
        return {
          operationId: `delete${pascal(collection.record)}${suffix}`,
          summary: `Delete ${aOrAn(one)}`,
          errors: [new RecordNotFound(collection.notFound)],
        };
    }
  })();
  return { ...common, ...documented, responses, description: `${ACTION_NOTES[action.name]} ${FAMILY_NOTE[family.name]}` };
}

/**
 * The noun with its indefinite article. The nouns are the record names of schemas/collections.json,
 * none of which is pronounced against its spelling (no "hour", no "user"), so the first letter decides.
 */
export function aOrAn(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function pageSchema(record: Schema): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'pagination'],
    properties: { items: { type: 'array', items: record }, pagination: { $ref: PAGINATION } },
  };
}

const ACTION_NOTES: Readonly<Record<RecordRoute['action']['name'], string>> = {
  list: 'Keyset pagination: follow `pagination.nextCursor` while `pagination.hasMore`. Any query parameter not listed is 400.',
  create: 'Without `id` the service generates one; an `id` that already exists in the version is 409. `versionId` comes from the route (a body `versionId` other than the routed version\'s is 400); `updatedAt` is assigned by the service.',
  get: 'A malformed id is 400; an id not in the version is 404.',
  replace: 'The body is a whole record: fields not sent are gone afterwards (defaults re-applied). `id` and `versionId` come from the route: a body `id` or `versionId` other than the route\'s is 400.',
  update: 'Each top-level field sent replaces that field\'s whole value; the result must still be a valid record. `id` and `versionId` may appear only with their current values.',
  delete: 'A second delete of the same id is 404.',
};

/** The list's query parameters: the pipeline checks each by its schema here and hands the work typed values. */
export function listParameters(collection: CompiledCollection): QueryParameter[] {
  const sortable = [...collection.sortable].join(', ');
  return [
    {
      name: 'cursor',
      description: `Continue from this ${collection.record} id: the \`nextCursor\` of the previous page. Sorted by \`id\` alone, any id resumes, even one whose ${collection.record} is gone. Under any other sort the service must know where the id sat: a \`nextCursor\` it handed out in the last ${CURSOR_POSITION_TTL_MS / 60_000} minutes, or the id of ${aOrAn(collection.record)} that exists; else 400 (\`details\` names \`cursor\`): start again from the first page.`,
      schema: { $ref: `${collection.schemaId}#/properties/id` },
      invalid: `must be ${aOrAn(collection.record)} id (${collection.idPrefix}…)`,
    },
    {
      name: 'limit',
      description: `Page size, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
      invalid: `must be an integer from 1 to ${MAX_LIMIT}`,
    },
    {
      name: 'sort',
      description: `Sort keys, comma-separated (or the parameter repeated): a field for ascending, \`-field\` for descending. Sortable: ${sortable}. A field given twice is 400. \`id\` is always the last tie-breaker; the default order is \`id\` ascending.`,
      schema: { type: 'array', items: { type: 'string', pattern: sortPattern(collection) }, examples: [[collection.sortable.has('updatedAt') ? '-updatedAt' : '-id']] },
      invalid: `must be sortable fields, comma-separated, each with - for descending; sortable: ${sortable}`,
    },
    {
      name: 'updatedAfter',
      description: 'Only records written after this instant (exclusive; RFC 3339 date-time with a time zone), for sync clients pulling what changed since their last sync.',
      schema: { type: 'string', format: 'date-time' },
      invalid: 'must be an RFC 3339 date-time with a time zone, e.g. 2026-01-31T12:00:00.000Z',
    },
    ...[...collection.filters].map(([field, fromText]): QueryParameter => ({
      name: field,
      description: `Only ${collection.title.toLowerCase()} whose \`${field}\` equals this value (typed by the field: numbers and booleans as such, \`null\` for null or missing).`,
      schema: { $ref: `${collection.schemaId}#/properties/${field}` },
      fromText,
    })),
  ];
}

/** Comma-separated sortable fields, each with an optional `-` (that none is given twice, no pattern can say). */
function sortPattern(collection: CompiledCollection): string {
  const key = `-?(?:${[...collection.sortable].map((field) => field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  return `^${key}(?:,${key})*$`;
}

/** The body schemas of every collection's create, replace and update, by component name. */
export function collectionBodySchemas(collections: readonly CompiledCollection[]): Record<string, Schema> {
  return Object.fromEntries(collections.flatMap((collection) => (['create', 'replace', 'update'] as const)
    .map((kind) => [bodyComponentName(collection, kind), bodySchema(collection, kind)])));
}

/** A patch that sets the record's required fields (other than its address) and nothing else. */
function patchExample(collection: CompiledCollection, example: Record<string, unknown>): Record<string, unknown> {
  const required = new Set((collection.schema['required'] ?? []) as string[]);
  return Object.fromEntries(Object.entries(example).filter(([field]) => required.has(field) && field !== 'id' && field !== 'versionId'));
}

function withoutFields(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => !fields.includes(field)));
}

function pascal(words: string): string {
  return words.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}
