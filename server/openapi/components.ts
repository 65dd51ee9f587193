// schemas/ as OpenAPI `components.schemas`: one component per record/api schema (named by its
// title), one per `$defs` entry of the files under defs/, and every `$ref` rewritten from the
// schema's `$id` form to `#/components/schemas/...` so the document needs nothing outside itself.
import type { AnySchemaObject } from 'ajv/dist/2020.js';
import { SCHEMA_BASE, type SchemaRegistry } from '../schemas/registry.ts';
import type { Schema } from '../routes/documentation.ts';

/** Files of schemas/ that describe the service itself, not its resources. */
const INTERNAL = new Set([`${SCHEMA_BASE}collection-descriptors.schema.json`]);
const DEFS_FOLDER = `${SCHEMA_BASE}defs/`;
/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);
/** Keywords whose values map names (which may be any word, `examples` too) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

export interface SchemaComponents {
  /** `components.schemas`, in a stable order. */
  readonly schemas: Readonly<Record<string, Schema>>;
  /** Rewrites the `$ref`s of a schema whose relative refs resolve against `base`. */
  rewrite(schema: Schema, base?: string): Schema;
  /** The component reference of a schema `$id` (with optional fragment). */
  refOf(absoluteRef: string): string;
}

export function schemaComponents(registry: SchemaRegistry): SchemaComponents {
  const files = Object.keys(registry.ajv.schemas)
    .filter((id) => id.startsWith(SCHEMA_BASE) && !INTERNAL.has(id))
    .sort();
  const fileSchema = (id: string): AnySchemaObject => registry.ajv.getSchema(id)!.schema as AnySchemaObject;
  const names = new Map<string, string>();
  const taken = new Map<string, string>();
  const claim = (name: string, owner: string): string => {
    const previous = taken.get(name);
    if (previous) throw new Error(`OpenAPI component name ${name} is claimed by both ${previous} and ${owner}`);
    taken.set(name, owner);
    return name;
  };
  for (const id of files) {
    if (id.startsWith(DEFS_FOLDER)) {
      for (const def of Object.keys(fileSchema(id)['$defs'] ?? {})) claim(def, `${id}#/$defs/${def}`);
    } else {
      names.set(id, claim(componentName(fileSchema(id), id), id));
    }
  }

  const refOf = (absoluteRef: string): string => {
    const [file = '', fragment = ''] = absoluteRef.split('#');
    const pointer = decodeURIComponent(fragment);
    if (file.startsWith(DEFS_FOLDER) && files.includes(file)) {
      const match = /^\/\$defs\/([^/]+)(.*)$/.exec(pointer);
      if (!match) throw new Error(`$ref ${absoluteRef}: only $defs entries of defs/ files can be referenced`);
      return `#/components/schemas/${match[1]}${match[2]}`;
    }
    const name = names.get(file);
    if (!name) throw new Error(`$ref ${absoluteRef} names no schema of schemas/`);
    return `#/components/schemas/${name}${pointer}`;
  };

  const rewrite = (schema: Schema, base = SCHEMA_BASE): Schema => rewriteNode(schema, base, refOf) as Schema;

  const schemas: Record<string, Schema> = {};
  for (const id of files) {
    const { $id: _id, $schema: _schema, $defs, ...rest } = fileSchema(id);
    if (id.startsWith(DEFS_FOLDER)) {
      for (const [def, schema] of Object.entries(($defs ?? {}) as Record<string, Schema>)) schemas[def] = rewrite(schema, id);
    } else {
      schemas[names.get(id)!] = rewrite($defs === undefined ? rest : { ...rest, $defs }, id);
    }
  }
  return { schemas: sortedByKey(schemas), rewrite, refOf };
}

/** A schema whose relative `$ref`s (resolved against `base`) are made absolute `$id`s, to be placed outside its file. */
export function absoluteRefs(schema: Schema, base: string): Schema {
  return rewriteNode(schema, base, (ref) => ref) as Schema;
}

/** `Pagination metadata` → `PaginationMetadata`: OpenAPI component names allow no spaces. */
function componentName(schema: AnySchemaObject, id: string): string {
  const title = typeof schema['title'] === 'string' ? schema['title'] : id.slice(id.lastIndexOf('/') + 1, -'.json'.length);
  return title.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function rewriteNode(node: unknown, base: string, refOf: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteNode(item, base, refOf));
  if (node === null || typeof node !== 'object') return node;
  if (typeof (node as Schema)['$id'] === 'string') throw new Error(`nested $id ${String((node as Schema)['$id'])} is not supported`);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => {
    if (key === '$ref' && typeof value === 'string') {
      return [key, value.startsWith('#/components/') ? value : refOf(new URL(value, base).href)];
    }
    if (DATA_KEYWORDS.has(key)) return [key, value];
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      return [key, Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewriteNode(schema, base, refOf)]))];
    }
    return [key, rewriteNode(value, base, refOf)];
  }));
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
