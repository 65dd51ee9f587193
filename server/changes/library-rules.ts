// api-smart-diff's OpenAPI rules as the comparison runs them, with the pairing of paths corrected:
// the one place where the library's own rules are changed.
import { openapi3Rules, type CompareRule, type CompareRules, type MapKeysResult } from 'api-smart-diff';

type Paths = Record<string, unknown>;

/** `/pets/{id}` and `/pets/{petId}` are one path to a client: the template with its parameters unnamed. */
function template(path: string): string {
  return path.replace(/{.*?}/g, '*');
}

/**
 * Which path of the newer document each older one is. The library pairs each older path with the
 * first newer one of the same template, taken or not, so a document holding two paths of one
 * template (Google's `/v1beta1/{name}` beside `/v1beta1/{groupName}`) paired both with the first
 * and reported the second "added" against itself. Here a path keeps its exact spelling first, and
 * only the paths left are paired by template (a renamed path parameter is the same path), each once.
 */
export function pairPaths(before: Paths, after: Paths): MapKeysResult<string> {
  const unpaired = new Set(Object.keys(after));
  const mapped: Record<string, string> = {};
  for (const path of Object.keys(before)) {
    if (!unpaired.has(path)) continue;
    mapped[path] = path;
    unpaired.delete(path);
  }
  const removed: string[] = [];
  for (const path of Object.keys(before)) {
    if (path in mapped) continue;
    const same = [...unpaired].find((candidate) => template(candidate) === template(path));
    if (same === undefined) {
      removed.push(path);
      continue;
    }
    mapped[path] = same;
    unpaired.delete(same);
  }
  return { added: [...unpaired], removed, mapped };
}

/**
 * The library's transform of `paths`, with the pairing above: a path on one side only is given an
 * empty placeholder on the other, so that its operations are reported as each added or removed.
 */
function withPlaceholders(before: unknown, after: unknown): [unknown, unknown] {
  if (!isPaths(before) || !isPaths(after)) return [before, after];
  const { added, removed } = pairPaths(before, after);
  const placeholders = (paths: readonly string[]) => Object.fromEntries(paths.map((path) => [path, { [path]: {} }]));
  return [{ ...before, ...placeholders(added) }, { ...after, ...placeholders(removed) }];
}

function isPaths(value: unknown): value is Paths {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Made for each comparison: the library's rules keep a cache of the references they compared. */
export function compareRules(): CompareRules {
  const base = openapi3Rules() as Record<string, unknown>;
  const paths = base['/paths'] as CompareRule & Record<string, unknown>;
  return { ...base, '/paths': { ...paths, transform: [withPlaceholders], mapping: pairPaths } } as CompareRules;
}
