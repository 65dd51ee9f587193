// Compares an exported OpenAPI document with the one that was imported, after normalising both
// the same way the import does (validated, upgraded to 3.1, references other than schemas and
// headers resolved): per operation, identical or the JSON pointers where they differ.
import { prepareDocument } from '../../server/descriptions/document.ts';
import { isObject, sameJson, type Json, type JsonObject } from '../../server/json/values.ts';
import { pointer } from '../../server/json/pointer.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface Comparison {
  operations: number;
  identical: number;
  /** Pointers (in the original) of the first differences of each operation that differs. */
  differences: string[];
  /**
   * Named schemas and security schemes missing or different after the round trip: per
   * component, the pointers of its first differences (or the component's own pointer when the
   * difference is only absent against empty).
   */
  components: string[];
}

export async function compareDocuments(original: unknown, exported: unknown): Promise<Comparison> {
  const before = await prepareDocument(original);
  const after = await prepareDocument(exported);
  const result: Comparison = { operations: 0, identical: 0, differences: [], components: [] };
  const beforePaths = obj(before['paths']);
  const afterPaths = obj(after['paths']);
  for (const [path, value] of Object.entries(beforePaths)) {
    const item = obj(value);
    const other = obj(afterPaths[path]);
    const shared = ['summary', 'description', 'parameters', 'servers'];
    const pathDiffs: string[] = [];
    for (const key of shared) diff(item[key], other[key], pointer('paths', path, key), pathDiffs);
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      result.operations++;
      const found = [...pathDiffs];
      diff(item[method], other[method], pointer('paths', path, method), found);
      if (found.length === 0) result.identical++;
      else result.differences.push(...found.slice(0, 5));
    }
  }
  for (const kind of ['schemas', 'securitySchemes']) {
    const mine = obj(obj(before['components'])[kind]);
    const theirs = obj(obj(after['components'])[kind]);
    for (const [name, value] of Object.entries(mine)) {
      if (sameJson(value, theirs[name])) continue;
      const found: string[] = [];
      diff(value, theirs[name], pointer('components', kind, name), found);
      result.components.push(found.length > 0 ? found.slice(0, 3).join(', ') : pointer('components', kind, name));
    }
  }
  return result;
}

/** Appends the pointers where two JSON values differ (absent and empty containers count as equal). */
function diff(a: Json | undefined, b: Json | undefined, at: string, out: string[]): void {
  if (empty(a) && empty(b)) return;
  if (sameJson(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[key], b[key], `${at}${pointer(key)}`, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => diff(item, b[i], `${at}/${i}`, out));
    return;
  }
  out.push(at);
}

function empty(value: Json | undefined): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
}

function obj(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}
