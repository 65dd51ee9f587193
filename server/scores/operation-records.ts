// One operation's records out of its service's (records.ts), grouped once for the subscores, and
// the schema walks they share: depth, properties and polymorphism, following `$ref`s into the
// service's component schemas with a guard against cycles.
import { componentRef } from '../json/pointer.ts';
import { isObject } from '../json/values.ts';
import type { CatalogRecord } from '../store/records.ts';
import type { ServiceRecords } from './records.ts';

export interface OperationParts {
  operation: CatalogRecord;
  path: CatalogRecord | undefined;
  /** The operation's own parameters and its path's. */
  parameters: CatalogRecord[];
  requests: CatalogRecord[];
  responses: CatalogRecord[];
  /** The servers that apply: the operation's, else its path's, else the service's. */
  servers: CatalogRecord[];
}

/** Each operation's parts, in the service's order. */
export function operationParts(records: ServiceRecords): OperationParts[] {
  const group = (list: readonly CatalogRecord[], field: string) => Map.groupBy(list.filter((record) => typeof record[field] === 'string'), (record) => record[field] as string);
  const paths = new Map(records.paths.map((path) => [path.id, path]));
  const [byOperation, byPath] = [group(records.parameters, 'operationId'), group(records.parameters, 'pathId')];
  const [requests, responses] = [group(records.requests, 'operationId'), group(records.responses, 'operationId')];
  const [serversOfOperation, serversOfPath] = [group(records.servers, 'operationId'), group(records.servers, 'pathId')];
  const serviceServers = records.servers.filter((server) => server['serviceId'] === records.service.id);
  return records.operations.map((operation) => {
    const path = paths.get(String(operation['pathId']));
    const own = byOperation.get(operation.id) ?? [];
    const names = new Set(own.map((parameter) => `${String(parameter['in'])}:${String(parameter['name'])}`));
    const inherited = (path ? byPath.get(path.id) ?? [] : []).filter((parameter) => !names.has(`${String(parameter['in'])}:${String(parameter['name'])}`));
    const servers = [serversOfOperation.get(operation.id), path && serversOfPath.get(path.id), serviceServers].find((list) => list && list.length > 0) ?? [];
    return { operation, path, parameters: [...own, ...inherited], requests: requests.get(operation.id) ?? [], responses: responses.get(operation.id) ?? [], servers };
  });
}

export interface SchemaShape {
  /** Nesting of objects and arrays, the top schema counting 1. */
  depth: number;
  /** Properties declared, at every level. */
  properties: number;
  /** oneOf / anyOf alternatives met (allOf merges and is not counted). */
  polymorphic: number;
  /** Whether an example is given anywhere in it (`example` or `examples`). */
  example: boolean;
}

/** Shapes of named component schemas, per map of them: a schema reached by many operations is walked once. */
const named = new WeakMap<ReadonlyMap<string, unknown>, Map<string, SchemaShape>>();
const NONE: SchemaShape = { depth: 0, properties: 0, polymorphic: 0, example: false };

/** The shape of a schema, `$ref`s into `schemas` followed (a cycle counts nothing more the second time round). */
export function shapeOf(schema: unknown, schemas: ReadonlyMap<string, unknown>): SchemaShape {
  let memo = named.get(schemas);
  if (!memo) named.set(schemas, memo = new Map());
  const known = memo;
  const walk = (value: unknown): SchemaShape => {
    if (!isObject(value)) return NONE;
    const ref = typeof value['$ref'] === 'string' ? componentRef(value['$ref']) : undefined;
    let shape: SchemaShape = { ...NONE, example: 'example' in value || Array.isArray(value['examples']) };
    if (ref?.section === 'schemas') {
      let target = known.get(ref.name);
      if (!target) {
        known.set(ref.name, NONE);
        target = walk(schemas.get(ref.name));
        known.set(ref.name, target);
      }
      shape = merged(shape, target);
    }
    const nests = isObject(value['properties']) || isObject(value['items']) || value['type'] === 'object' || value['type'] === 'array';
    if (nests) shape.depth = Math.max(shape.depth, 1);
    const children = [...isObject(value['properties']) ? Object.values(value['properties']) : [], value['items'], value['additionalProperties']];
    if (isObject(value['properties'])) shape.properties += Object.keys(value['properties']).length;
    for (const child of children) {
      const inner = walk(child);
      shape = merged(shape, { ...inner, depth: inner.depth > 0 ? inner.depth + 1 : 0 });
    }
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const alternatives = value[key];
      if (!Array.isArray(alternatives)) continue;
      if (key !== 'allOf' && alternatives.length > 1) shape.polymorphic += 1;
      for (const alternative of alternatives) shape = merged(shape, walk(alternative));
    }
    return shape;
  };
  return walk(schema);
}

function merged(a: SchemaShape, b: SchemaShape): SchemaShape {
  return { depth: Math.max(a.depth, b.depth), properties: a.properties + b.properties, polymorphic: a.polymorphic + b.polymorphic, example: a.example || b.example };
}

/** Whether a record (request, response, parameter) has an example of its own or in its schema. */
export function hasExample(record: CatalogRecord, schemas: ReadonlyMap<string, unknown>): boolean {
  if (isObject(record['examples']) && Object.keys(record['examples']).length > 0) return true;
  if ('example' in record) return true;
  return shapeOf(record['schema'], schemas).example;
}

/** A text with at least `words` words, else undefined. */
export function wordy(value: unknown, words = 1): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.split(/\s+/).filter(Boolean).length >= words ? text : undefined;
}
