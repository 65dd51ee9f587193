// Generates the TypeScript types of schemas/ (npm run types) and checks that the committed
// output is current (npm run types -- --check, part of npm test).
//
// json-schema-to-typescript does the schema → type work. We feed it one named schema at a time
// (each file's root and each `$defs` entry) with every `$ref` already replaced by the name of
// its target, so that shared defs stay shared types (the library would otherwise inline a copy
// for every `$ref` that carries a sibling `title`/`description`) and nothing is ever fetched:
// the absolute `$id`s (https://catalog.example/...) are resolved from the local files only.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

type Schema = { [keyword: string]: unknown };

const root = path.resolve(import.meta.dirname, '..');
const SCHEMA_DIR = path.join(root, 'schemas');
export const OUTPUT = path.join(root, 'server', 'schemas', 'generated', 'types.ts');
const DATA_FILES = new Set(['collections.json']); // data described by a schema, not a schema

const HEADER = `// Generated from schemas/ by \`npm run types\`; do not edit.
// Change the JSON Schema files instead and rerun \`npm run types\` (npm test fails when stale).
`;

// Keywords whose value is one subschema, an array of subschemas, or a map of subschemas. Only
// these are walked, so a property that happens to be called `title` or `$ref` is left alone.
const ONE = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties',
  'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
// Not expressible in TypeScript, or meaningless to the generator; `x-id-prefix` and `x-kept-on-import` are our own
// annotations. Dropping them keeps the library from guessing.
const DROPPED = ['$schema', '$id', '$comment', 'if', 'then', 'else', 'dependentSchemas', 'x-id-prefix', 'x-kept-on-import', 'x-kept-unless-given',
  'default', 'examples', 'format', 'pattern', 'minLength', 'maxLength', 'contentMediaType'];

// Keywords that say something about a value's type; a schema with none of them accepts anything.
const SHAPING = ['type', 'tsType', 'enum', 'const', 'properties', 'patternProperties', 'additionalProperties',
  'items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'];
// Keywords that only accept or reject values without saying what type they have. A branch of
// `allOf`/`anyOf`/`oneOf` made of these alone (`{"required": ["value"]}`, an if/then rule) is
// left out of the type; the generator would turn it into an open `{[k: string]: unknown}`.
const ASSERTING = ['required', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas',
  'minProperties', 'maxProperties', 'title', 'description', '$comment'];

/** One type to emit: a file's root schema or one of its `$defs`. */
interface Unit {
  /** Absolute URI other schemas use to refer to it. */
  readonly uri: string;
  readonly name: string;
  readonly schema: Schema;
  /** Where it comes from, for messages and the type's comment. */
  readonly source: string;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return schemaFiles(dir, relative);
      return entry.name.endsWith('.json') && !DATA_FILES.has(relative) ? [relative] : [];
    })
    .sort();
}

/** `Security scheme id` → `SecuritySchemeId`; `SecurityScheme` stays as it is. */
function typeName(title: string): string {
  return title.split(/[^0-9A-Za-z]+/).filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

function isAssertion(schema: Schema): boolean {
  return isSchema(schema) && typeof schema.$ref !== 'string' && Object.keys(schema).every((key) => ASSERTING.includes(key));
}

/** A root that only holds `$defs` (defs/*.json) is a container, not a type. */
function isContainer(schema: Schema): boolean {
  return Object.keys(schema).every((key) => ['$schema', '$id', 'title', 'description', '$defs'].includes(key));
}

/** Every named schema of schemas/, with names from titles; records and api shapes win a clash. */
function collectUnits(dir: string): Unit[] {
  const found: Array<Omit<Unit, 'name'> & { title: string; file: string; isDef: boolean }> = [];
  for (const file of schemaFiles(dir)) {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Schema;
    const id = schema.$id;
    if (typeof id !== 'string') throw new Error(`schemas/${file}: no $id`);
    const titleOf = (s: Schema, where: string): string => {
      if (typeof s.title !== 'string') throw new Error(`${where}: no title to name its type after`);
      return s.title;
    };
    if (!isContainer(schema)) {
      found.push({ uri: id, schema, source: `schemas/${file}`, title: titleOf(schema, `schemas/${file}`), file, isDef: false });
    }
    for (const [key, def] of Object.entries((schema.$defs ?? {}) as Record<string, Schema>)) {
      const source = `schemas/${file}#/$defs/${key}`;
      found.push({ uri: `${id}#/$defs/${key}`, schema: def, source, title: titleOf(def, source), file, isDef: true });
    }
  }
  const plain = new Map<string, number>();
  for (const unit of found) if (!unit.isDef) plain.set(typeName(unit.title), 1);
  const taken = new Map<string, string>();
  return found.map(({ title, file, isDef, ...unit }) => {
    let name = typeName(title);
    // A def named like a record (defs/common.json `example` vs records/example.json): the def
    // takes its file's name as a prefix, e.g. `CommonExample`.
    if (isDef && plain.has(name)) name = typeName(path.basename(file, '.json')) + name;
    const clash = taken.get(name);
    if (clash) throw new Error(`${unit.source} and ${clash} would both be named ${name}: change a title`);
    taken.set(name, unit.source);
    return { ...unit, name };
  });
}

/**
 * The schema as the generator should see it: `$ref`s replaced by their target's type name
 * (`tsType`), titles kept only on the unit itself (a titled property would otherwise become a
 * type of its own), `$defs` removed (they are units), `prefixItems` in the draft-07 form the
 * generator reads.
 */
function prepare(schema: Schema, base: string, names: ReadonlyMap<string, string>, where: string, isRoot: boolean): Schema {
  if (typeof schema.$ref === 'string') {
    const target = new URL(schema.$ref, base).href.replace(/#$/, '');
    const name = names.get(target);
    if (!name) throw new Error(`${where}: $ref ${schema.$ref} names no file root or $defs entry of schemas/`);
    return typeof schema.description === 'string' ? { tsType: name, description: schema.description } : { tsType: name };
  }
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.includes(keyword) || keyword === '$defs' || keyword === 'definitions') continue;
    if (keyword === 'title' && !isRoot) continue;
    if (ONE.includes(keyword) && isSchema(value)) {
      out[keyword] = prepare(value, base, names, `${where}/${keyword}`, false);
    } else if (MANY.includes(keyword) && Array.isArray(value)) {
      const branches = value
        .map((item, i) => prepare(item as Schema, base, names, `${where}/${keyword}/${i}`, false))
        .filter((branch, i) => keyword === 'prefixItems' || !isAssertion(value[i] as Schema));
      if (branches.length > 0) out[keyword] = branches;
    } else if (MAP.includes(keyword) && isSchema(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value)
        .map(([key, item]) => [key, prepare(item as Schema, base, names, `${where}/${keyword}/${key}`, false)]));
    } else {
      out[keyword] = value;
    }
  }
  // No keyword that constrains the type (error `details`, an example's `value`): any JSON value.
  // The generator would guess an object.
  if (!Object.keys(out).some((keyword) => SHAPING.includes(keyword))) out.tsType = 'unknown';
  if (Array.isArray(out.prefixItems)) {
    if (out.items !== undefined) out.additionalItems = out.items;
    else out.additionalItems = true;
    out.items = out.prefixItems;
    delete out.prefixItems;
  }
  return out;
}

/** The whole generated module, as text. */
export async function generate(dir = SCHEMA_DIR): Promise<string> {
  const units = collectUnits(dir);
  const names = new Map(units.map((unit) => [unit.uri, unit.name]));
  const parts = [HEADER];
  for (const unit of units) {
    const schema = prepare(unit.schema, unit.uri, names, unit.source, true);
    schema.title = unit.name;
    const description = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
    schema.description = `${description}From ${unit.source}.`;
    parts.push(await compile(schema as JSONSchema, unit.name, {
      bannerComment: '',
      declareExternallyReferenced: false,
      additionalProperties: true, // JSON Schema's own default
      unknownAny: true,
      enableConstEnums: false,
      strictIndexSignatures: false,
      format: true,
      cwd: dir,
      // Every $ref was replaced above; should one slip through, never go to the network.
      $refOptions: { resolve: { http: false, file: false } },
    }));
  }
  const records = units.filter((unit) => unit.source.startsWith('schemas/records/') && !unit.source.includes('#'));
  parts.push([
    '/** Record types by record kind (the schema title that collections.json names in `record`). */',
    'export interface RecordTypes {',
    ...records.map((unit) => `  ${JSON.stringify(String(unit.schema.title))}: ${unit.name};`),
    '}',
    '',
  ].join('\n'));
  return parts.join('\n');
}

/** Why `output` does not hold what `schemas` generate, or undefined when it is current. */
export async function staleness(dir = SCHEMA_DIR, output = OUTPUT): Promise<string | undefined> {
  const relative = path.relative(root, output);
  if (!fs.existsSync(output)) return `${relative} is missing. Run \`npm run types\` and commit the result.`;
  if (fs.readFileSync(output, 'utf8') === await generate(dir)) return undefined;
  return `${relative} is stale: it no longer matches schemas/. Run \`npm run types\` and commit the result.`;
}

/**
 * `--check`: exit 1 naming the file when it is stale. `--schemas DIR` and `--out FILE` stand for
 * schemas/ and the generated file (the tests run the generator on throwaway copies).
 */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { check: { type: 'boolean' }, schemas: { type: 'string' }, out: { type: 'string' } } });
  const dir = values.schemas ?? SCHEMA_DIR;
  const output = values.out ?? OUTPUT;
  if (values.check) {
    const problem = await staleness(dir, output);
    if (problem) console.error(problem);
    return problem ? 1 : 0;
  }
  const text = await generate(dir);
  const relative = path.relative(root, output);
  if (fs.existsSync(output) && fs.readFileSync(output, 'utf8') === text) {
    console.log(`${relative} is up to date`);
  } else {
    fs.mkdirSync(path.dirname(output), { recursive: true });
    fs.writeFileSync(output, text);
    console.log(`wrote ${relative}`);
  }
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
