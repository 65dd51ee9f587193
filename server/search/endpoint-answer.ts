// get_endpoint's answer: one operation's detail made compact (one schema per distinct body, no
// internal fields) and bounded in size, cutting the least useful first and saying what was cut.
import { componentRef } from '../json/pointer.ts';
import { isObject } from '../json/values.ts';
import { operationTitle } from './title.ts';
import type { CatalogRecord } from '../store/records.ts';

/** An answer larger than this (its JSON, in bytes) is cut down: an agent's context is the budget. */
export const MAX_ENDPOINT_BYTES = 16 * 1024;

export interface EndpointParts {
  /** The hit form (endpointOf), with `observed`. */
  endpoint: Record<string, unknown>;
  operation: CatalogRecord;
  parameters: readonly CatalogRecord[];
  requests: readonly CatalogRecord[];
  responses: readonly CatalogRecord[];
  /** The version's component schemas by name (Resources). */
  components: ReadonlyMap<string, unknown>;
  /** The records of the kinds a schema author mapped from an extension on the operation, with the extension's name. */
  extended?: ReadonlyArray<{ kind: { extension: string }; records: readonly CatalogRecord[] }>;
}

/** How much of the detail an answer keeps; the ladder below goes from all to least. */
interface Keep {
  examples: boolean;
  descriptions: 'full' | 'sentence' | 'none';
  errorSchemas: boolean;
  /** Schemas nested deeper than this (across `$ref`s) are cut to a stub naming their type. */
  depth: number;
}

const LADDER: readonly Keep[] = [
  { examples: true, descriptions: 'full', errorSchemas: true, depth: Infinity },
  { examples: false, descriptions: 'full', errorSchemas: true, depth: Infinity },
  { examples: false, descriptions: 'sentence', errorSchemas: true, depth: Infinity },
  { examples: false, descriptions: 'sentence', errorSchemas: false, depth: Infinity },
  ...[8, 6, 5, 4, 3, 2].map((depth) => ({ examples: false, descriptions: 'sentence' as const, errorSchemas: false, depth })),
  { examples: false, descriptions: 'none', errorSchemas: false, depth: 2 },
  { examples: false, descriptions: 'none', errorSchemas: false, depth: 1 },
];

// Record fields that are the catalog's bookkeeping, not the API's: ids, owners, timestamps.
const INTERNAL = new Set(['id', 'versionId', 'updatedAt', 'kvStorage', 'operationId', 'pathId', 'serviceId', 'descriptionBlocks']);
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_ONES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];

/**
 * The answer: the first rung of the ladder whose JSON fits MAX_ENDPOINT_BYTES (else the last).
 * Each rung cuts what the one before did and more, so sizes only fall along the ladder and the
 * rung is found by bisection: a few builds of a large operation's answer, not one per rung.
 */
export function endpointAnswer(parts: EndpointParts, maxBytes = MAX_ENDPOINT_BYTES): Record<string, unknown> {
  const fits = (answer: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(answer)) <= maxBytes;
  const whole = answerKeeping(parts, LADDER[0]!);
  if (fits(whole)) return whole;
  let [low, high] = [1, LADDER.length - 1];
  let best: Record<string, unknown> | undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const answer = answerKeeping(parts, LADDER[middle]!);
    if (fits(answer)) [high, best] = [middle, answer];
    else low = middle + 1;
  }
  // None before the last fitted: the last is the answer, whether it fits or not.
  return best ?? answerKeeping(parts, LADDER[high]!);
}

function answerKeeping(parts: EndpointParts, keep: Keep): Record<string, unknown> {
  const cut = new Set<string>();
  const cutter = new SchemaCutter(parts.components, keep, cut);
  // The operation's own `security` is answered resolved (`security`), its operationId kept.
  const { security: _security, ...operation } = compact(parts.operation, keep, cut);
  const parameters = parts.parameters.map((record) => ({ ...compact(record, keep, cut), ...withSchema(cutter, record['schema']) }));
  const requests = distinctBodies(parts.requests).map(({ record, mediaTypes }) => ({ mediaTypes, ...compact(record, keep, cut), ...withSchema(cutter, record['schema']) }));
  const responses = distinctBodies(parts.responses).map(({ record, mediaTypes }) => {
    const success = typeof record['statusCode'] === 'number' && record['statusCode'] < 400;
    if (!success && !keep.errorSchemas && record['schema'] !== undefined) cut.add('the schemas of error responses');
    return {
      ...(record['statusCode'] === null ? { statusCode: 'default' } : {}), ...compact(record, keep, cut),
      ...(mediaTypes.length > 0 ? { mediaTypes } : {}),
      // A response's schema counts one level deeper than a body's: what a call sends matters more than what it gets.
      ...(success || keep.errorSchemas ? withSchema(cutter, record['schema'], 1) : {}),
    };
  });
  const schemas = cutter.components();
  const extended = parts.extended ?? [];
  return {
    ...parts.endpoint,
    operation: { id: parts.operation.id, operationId: parts.operation['operationId'], ...operation },
    parameters, requests, responses, schemas,
    ...(extended.length > 0 ? { extensions: Object.fromEntries(extended.map(({ kind, records }) => [kind.extension, records.map((record) => compact(record, keep, cut))])) } : {}),
    ...(cut.size > 0 ? { truncated: truncation(parts, [...cut]) } : {}),
  };
}

/** Request bodies or responses grouped by status and schema: one entry per distinct body, with its media types. */
function distinctBodies(records: readonly CatalogRecord[]): { record: CatalogRecord; mediaTypes: string[] }[] {
  const groups = new Map<string, { record: CatalogRecord; mediaTypes: string[] }>();
  for (const record of records) {
    const key = JSON.stringify([record['statusCode'], record['description'], record['schema']]);
    const group = groups.get(key) ?? { record, mediaTypes: [] };
    if (typeof record['contentMediaType'] === 'string') group.mediaTypes.push(record['contentMediaType']);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A record's own fields without bookkeeping, empty defaults and, as kept, examples and long descriptions. */
function compact(record: CatalogRecord, keep: Keep, cut: Set<string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (INTERNAL.has(key) || key === 'schema' || key === 'contentMediaType' || isEmpty(value)) continue;
    if ((key === 'examples' || key === 'example') && !keep.examples) {
      cut.add('examples');
      continue;
    }
    fields[key] = key === 'description' && typeof value === 'string' ? described(value, keep, cut) : value;
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function withSchema(cutter: SchemaCutter, schema: unknown, depth = 0): Record<string, unknown> {
  return schema === undefined ? {} : { schema: cutter.cut(schema, depth) };
}

function described(text: string, keep: Keep, cut: Set<string>): string | undefined {
  if (keep.descriptions === 'full') return text;
  if (keep.descriptions === 'none') {
    cut.add('descriptions');
    return undefined;
  }
  const sentence = operationTitle({ description: text });
  if (sentence !== text) cut.add('descriptions after their first sentence');
  return sentence;
}

/**
 * Cuts schemas to the kept depth, counted from the body, parameter or response across `$ref`s:
 * a component is included with the depth it is first needed at, the deepest reach kept; one
 * reached at the limit stays named by its `$ref` and is listed in `truncated`.
 */
class SchemaCutter {
  readonly #found = new Map<string, number>();
  readonly #all: ReadonlyMap<string, unknown>;
  readonly #keep: Keep;
  readonly #cutNotes: Set<string>;

  constructor(all: ReadonlyMap<string, unknown>, keep: Keep, cut: Set<string>) {
    this.#all = all;
    this.#keep = keep;
    this.#cutNotes = cut;
  }

  cut(schema: unknown, depth: number): unknown {
    if (Array.isArray(schema)) return schema.map((each) => this.cut(each, depth));
    if (!isObject(schema)) return schema;
    const named = typeof schema['$ref'] === 'string' ? componentRef(schema['$ref']) : undefined;
    if (named?.section === 'schemas') this.#reach(named.name, depth);
    if (depth >= this.#keep.depth && hasSubschemas(schema)) {
      this.#cutNotes.add(`schemas nested deeper than ${this.#keep.depth} levels (${this.#keep.depth - 1} in responses; the cut ones say \`x-truncated\`)`);
      return stub(schema);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if ((key === 'examples' || key === 'example') && !this.#keep.examples) this.#cutNotes.add('examples');
      else if (key === 'description' && typeof value === 'string') {
        const text = described(value, this.#keep, this.#cutNotes);
        if (text !== undefined) out[key] = text;
      } else if (SCHEMA_MAPS.includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, each]) => [name, this.cut(each, depth + 1)]));
      else if (SCHEMA_LISTS.includes(key) || SCHEMA_ONES.includes(key)) out[key] = this.cut(value, depth + 1);
      else out[key] = value;
    }
    return out;
  }

  /** The components reached, each cut from the depth it was reached at, by name in the order found. */
  components(): Record<string, unknown> {
    const done = new Map<string, unknown>();
    // A component's own references are found while cutting it, so this runs until none is new.
    for (let pending = this.#pending(done); pending.length > 0; pending = this.#pending(done)) {
      for (const name of pending) done.set(name, this.#cutComponent(name));
    }
    const omitted = [...this.#found].filter(([name]) => !done.has(name)).map(([name]) => name);
    if (omitted.length > 0) this.#cutNotes.add(`the definitions of schemas ${omitted.join(', ')}`);
    return Object.fromEntries(done);
  }

  #pending(done: ReadonlyMap<string, unknown>): string[] {
    return [...this.#found].filter(([name, depth]) => !done.has(name) && depth < this.#keep.depth).map(([name]) => name);
  }

  #cutComponent(name: string): unknown {
    const schema = this.#all.get(name);
    return schema === undefined ? null : this.cut(schema, this.#found.get(name)!);
  }

  #reach(name: string, depth: number): void {
    const known = this.#found.get(name);
    if (known === undefined || depth < known) this.#found.set(name, depth);
  }
}

function hasSubschemas(schema: Record<string, unknown>): boolean {
  return [...SCHEMA_MAPS, ...SCHEMA_LISTS, ...SCHEMA_ONES].some((key) => key in schema);
}

/** What stays of a schema cut at the depth limit: what it is, not what it holds. */
function stub(schema: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(['$ref', 'type', 'title', 'format'].filter((key) => key in schema).map((key) => [key, schema[key]]));
  const properties = isObject(schema['properties']) ? Object.keys(schema['properties']).length : 0;
  return { ...kept, 'x-truncated': properties > 0 ? `${properties} properties` : 'nested schema' };
}

function truncation(parts: EndpointParts, cut: string[]): Record<string, unknown> {
  const service = parts.endpoint['service'] as { slug?: unknown } | null;
  const path = (parts.endpoint['path'] as { path?: unknown }).path;
  return {
    cut,
    rest: `The whole operation is in the service's OpenAPI document: get_openapi {version, service: ${JSON.stringify(service?.slug ?? null)}, path: ${JSON.stringify(path)}}, at paths[${JSON.stringify(path)}].${String(parts.operation['method'])}.`,
  };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === false || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
}
