// Example records derived from the record schemas: required fields, ids and defaults, filled
// from each field's schema (its `examples`, enum, format or pattern). An example is used only
// if the service's own validator accepts it, so the document never shows a body it would refuse.
import type { AnySchemaObject } from 'ajv/dist/2020.js';
import type { SchemaRegistry } from '../schemas/registry.ts';

/** A fixed ULID, so the generated document is the same on every run. */
const SAMPLE_ULID = '01JD2Q6Z8M3N4P5R6S7T8V9W0X';
const SAMPLE_TIME = '2026-01-15T09:30:00.000Z';

/** An example of the record schema `schemaId` as the service returns it, with `also` set too (a scope rule's fields), or undefined. */
export function exampleRecord(schemas: SchemaRegistry, schemaId: string, also: readonly string[] = []): Record<string, unknown> | undefined {
  const schema = resolved(schemas, schemaId, { $ref: schemaId });
  const properties = (schema['properties'] ?? {}) as Record<string, AnySchemaObject>;
  const wanted = new Set<string>(['id', ...((schema['required'] ?? []) as string[]), ...also, 'updatedAt']);
  // Rules across fields (a scheme of type apiKey needs `in`) may want more than `required`:
  // the fields the validator names as missing are added, a few rounds at most.
  for (let round = 0; round < 4; round++) {
    const record: Record<string, unknown> = {};
    for (const field of Object.keys(properties)) {
      if (!wanted.has(field)) continue;
      const value = sample(schemas, schemaId, properties[field]!, field);
      if (value !== undefined) record[field] = value;
    }
    // The validator fills in the top-level defaults, as the service does before it stores.
    const missing = schemas.check(schemaId)(record).map((problem) => problem.field.slice(1)).filter((field) => field in properties && !wanted.has(field));
    if (missing.length === 0) return schemas.check(schemaId)(structuredClone(record)).length === 0 ? record : undefined;
    for (const field of missing) wanted.add(field);
  }
  return undefined;
}

function sample(schemas: SchemaRegistry, base: string, schema: AnySchemaObject, field: string, depth = 0): unknown {
  if (depth > 8) return undefined;
  const full = resolved(schemas, base, schema);
  if (Array.isArray(full['examples']) && full['examples'].length > 0) return full['examples'][0];
  if (full['const'] !== undefined) return full['const'];
  if (Array.isArray(full['enum'])) return full['enum'][0];
  if (full['default'] !== undefined) return full['default'];
  const branches = (full['anyOf'] ?? full['oneOf']) as AnySchemaObject[] | undefined;
  if (branches?.[0]) return sample(schemas, base, branches[0], field, depth + 1);
  const type = [full['type']].flat()[0];
  switch (type) {
    case 'string': return sampleString(full, field);
    case 'integer': case 'number': return typeof full['minimum'] === 'number' ? full['minimum'] : 1;
    case 'boolean': return false;
    case 'array': return [];
    case 'object': return {};
    default: return undefined;
  }
}

function sampleString(schema: AnySchemaObject, field: string): string {
  const prefix = schema['x-id-prefix'];
  if (typeof prefix === 'string') return prefix + SAMPLE_ULID;
  if (schema['format'] === 'date-time') return SAMPLE_TIME;
  if (schema['format'] === 'uri') return 'https://api.example.com/v1';
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') {
    // The literal start of an anchored pattern (`^/` → `/`), then a plain word.
    const literal = /^\^([^\\^$.|?*+()[\]{}]*)/.exec(pattern)?.[1] ?? '';
    return `${literal}example`;
  }
  return field === 'name' || field === 'slug' ? 'example' : `Example ${field}`;
}

/** Follows `$ref`s, keeping the keywords beside each one (they describe the field). */
function resolved(schemas: SchemaRegistry, base: string, schema: AnySchemaObject): AnySchemaObject {
  let current = schema;
  let currentBase = base;
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 16; hops++) {
    const target = new URL(current['$ref'], currentBase).href;
    const { $ref: _ref, ...beside } = current;
    current = { ...(schemas.ajv.getSchema(target)?.schema as AnySchemaObject), ...beside };
    currentBase = target.split('#')[0]!;
  }
  return current;
}
