// A real description split into the files a team keeps in its repository: the entry
// `openapi.yaml`, one file per path item under `paths/` and one per schema under `schemas/`,
// joined by relative `$ref`s (a moved part that points back at the entry's other components
// says `../openapi.yaml#/…`). The push tests and the push benchmark bundle such trees back
// into one document. Also a command: `node spec/support/split-description.ts <in.json> <dir>`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SCHEMAS = '#/components/schemas/';
export const ENTRY = 'openapi.yaml';

/** Writes `document` split into `dir` (made if missing); answers the entry file's path and how many files were written. */
export async function splitDescription(document: JsonObject, dir: string): Promise<{ entry: string; files: number }> {
  const files = new Map<string, Json>();
  const schemas = (document['components'] as JsonObject | undefined)?.['schemas'] as JsonObject | undefined;
  const root = structuredClone(document);
  if (schemas) {
    const rootSchemas = (root['components'] as JsonObject)['schemas'] as JsonObject;
    for (const [name, schema] of Object.entries(schemas)) {
      files.set(`schemas/${name}.yaml`, relocated(schema, 'schemas'));
      rootSchemas[name] = { $ref: `./schemas/${name}.yaml` };
    }
  }
  const paths = document['paths'] as JsonObject | undefined;
  if (paths) {
    const taken = new Set<string>();
    const rootPaths = root['paths'] as JsonObject;
    for (const [template, item] of Object.entries(paths)) {
      const file = `paths/${uniqueName(template, taken)}.yaml`;
      files.set(file, relocated(item, 'paths'));
      rootPaths[template] = { $ref: `./${file}` };
    }
  }
  files.set(ENTRY, root);
  for (const [file, content] of files) {
    const target = path.join(dir, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, stringify(content, { aliasDuplicateObjects: false }));
  }
  return { entry: path.join(dir, ENTRY), files: files.size };
}

/** A part moved into `folder/`: its references rewritten to say where their targets now are. */
function relocated(value: Json, folder: 'schemas' | 'paths'): Json {
  if (Array.isArray(value)) return value.map((item) => relocated(item, folder));
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' ? movedRef(item, folder)
      : key === 'discriminator' ? relocatedDiscriminator(item, folder) : relocated(item, folder);
  }
  return out;
}

/** A discriminator's mapping names its schemas by reference too (GitHub's content types). */
function relocatedDiscriminator(value: Json, folder: 'schemas' | 'paths'): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value['mapping'] !== 'object' || value['mapping'] === null) return value;
  const mapping = Object.fromEntries(Object.entries(value['mapping']).map(([name, ref]) => [name, typeof ref === 'string' ? movedRef(ref, folder) : ref]));
  return { ...value, mapping };
}

function movedRef(ref: string, folder: 'schemas' | 'paths'): string {
  if (ref.startsWith(SCHEMAS) && !ref.slice(SCHEMAS.length).includes('/')) {
    const name = decodeURIComponent(ref.slice(SCHEMAS.length)).replaceAll('~1', '/').replaceAll('~0', '~');
    return folder === 'schemas' ? `./${name}.yaml` : `../schemas/${name}.yaml`;
  }
  return ref.startsWith('#') ? `../${ENTRY}${ref}` : ref;
}

/** A file name for a path template: its readable characters, numbered when two templates come out alike. */
function uniqueName(template: string, taken: Set<string>): string {
  const base = template.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'root';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
  taken.add(name.toLowerCase());
  return name;
}

if (import.meta.main) {
  const [input, dir] = process.argv.slice(2);
  if (!input || !dir) {
    process.stderr.write('usage: node spec/support/split-description.ts <description.json> <dir>\n');
    process.exit(2);
  }
  const { entry, files } = await splitDescription(JSON.parse(await fs.readFile(input, 'utf8')) as JsonObject, dir);
  process.stdout.write(`${files} files; entry ${entry}\n`);
}
