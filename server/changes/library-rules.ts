// api-smart-diff's OpenAPI rules as the comparison runs them, with its pairing of paths and of
// media types corrected: the one place where the library's own rules are changed.
import { contentMediaTypeMappingResolver, openapi3Rules, pathMappingResolver, transformPaths, type CompareRules, type MapKeysResult } from 'api-smart-diff';

type Keyed = Record<string, unknown>;
type Same = (before: string, after: string) => boolean;

/**
 * Which key of the newer object each older one is: pass by pass, each key paired at most once, so
 * the exact spelling is found first and a looser likeness only pairs what is left. The library
 * pairs each older key with the first newer key alike, taken or not: a second key alike was then
 * "removed" and its twin "added" between identical documents.
 */
function pairOnce(before: Keyed, after: Keyed, passes: readonly Same[]): MapKeysResult<string> {
  const unpaired = new Set(Object.keys(after));
  const mapped: Record<string, string> = {};
  for (const same of passes) {
    for (const key of Object.keys(before)) {
      if (key in mapped) continue;
      const other = unpaired.has(key) && same(key, key) ? key : [...unpaired].find((candidate) => same(key, candidate));
      if (other === undefined) continue;
      mapped[key] = other;
      unpaired.delete(other);
    }
  }
  return { added: [...unpaired], removed: Object.keys(before).filter((key) => !(key in mapped)), mapped };
}

const exact: Same = (before, after) => before === after;

/** `/pets/{id}` and `/pets/{petId}` are one path to a client: the template with its parameters unnamed. */
const sameTemplate: Same = (before, after) => before.replace(/{.*?}/g, '*') === after.replace(/{.*?}/g, '*');

/** Google's `/v1beta1/{name}` beside `/v1beta1/{groupName}`: two paths, each itself. */
export function pairPaths(before: Keyed, after: Keyed): MapKeysResult<string> {
  return pairOnce(before, after, [exact, sameTemplate]);
}

const essence = (mediaType: string): string => (mediaType.split(';')[0] ?? '').trim().toLowerCase();
const sameEssence: Same = (before, after) => essence(before) === essence(after);
const sameByWildcard: Same = (before, after) => {
  const [[type, subtype], [otherType, otherSubtype]] = [essence(before).split('/'), essence(after).split('/')];
  return (type === otherType || type === '*' || otherType === '*') && (subtype === otherSubtype || subtype === '*' || otherSubtype === '*');
};

/** osf.io answers `*∕*` beside `application/json`: two media types, each itself (parameters and wildcards only pair what is left). */
export function pairMediaTypes(before: Keyed, after: Keyed): MapKeysResult<string> {
  return pairOnce(before, after, [exact, sameEssence, sameByWildcard]);
}

/**
 * The library's transform of `paths`, with the pairing above: a path on one side only is given an
 * empty placeholder on the other, so that its operations are reported as each added or removed.
 */
function withPlaceholders(before: unknown, after: unknown): [unknown, unknown] {
  if (!isKeyed(before) || !isKeyed(after)) return [before, after];
  const { added, removed } = pairPaths(before, after);
  const placeholders = (paths: readonly string[]) => Object.fromEntries(paths.map((path) => [path, { [path]: {} }]));
  return [{ ...before, ...placeholders(added) }, { ...after, ...placeholders(removed) }];
}

function isKeyed(value: unknown): value is Keyed {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const REPLACED = new Map<unknown, unknown>([
  [pathMappingResolver, pairPaths],
  [contentMediaTypeMappingResolver, pairMediaTypes],
  [transformPaths, withPlaceholders],
]);

/**
 * Made for each comparison (the library's rules keep state: one set reused missed every schema change),
 * with each of the library's pairings above replaced wherever its rules use it: media types are
 * paired under request bodies and responses, of operations and of components alike.
 */
export function compareRules(): CompareRules {
  const rules = openapi3Rules();
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (!isKeyed(node) || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (REPLACED.has(value)) node[key] = REPLACED.get(value);
      else if (key === 'transform' && Array.isArray(value)) node[key] = value.map((step) => REPLACED.get(step) ?? step);
      else visit(value);
    }
  };
  visit(rules);
  return rules;
}
