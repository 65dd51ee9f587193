// Two OpenAPI documents of one service → what changed for its clients, per operation. The diff
// is api-smart-diff's (references resolved, so a shared schema's change shows under every
// operation that uses it); rules.ts names each finding and fixes its level.
import { apiCompare, type Diff } from 'api-smart-diff';
import { aligned, clientView } from './client-view.ts';
import { compareRules } from './library-rules.ts';
import { classify, type Level } from './rules.ts';
import { componentRef, refsIn } from '../json/pointer.ts';
import { isObject } from '../json/values.ts';

export interface Operation { method: string; path: string; operationId: string | null }

export interface ServiceChange {
  level: Level;
  rule: string;
  operation: Operation | null;
  message: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
type Segments = readonly (string | number)[];
type Doc = Record<string, unknown>;

export function compareDocuments(original: Doc, changed: Doc): ServiceChange[] {
  const [before, after] = [clientView(original), clientView(changed)];
  aligned(before, after);
  const { diffs, merged } = apiCompare(before, after, { rules: compareRules() });
  const changes: ServiceChange[] = [];
  const seen = new Set<string>();
  for (const diff of diffs) {
    for (const change of changesOf(diff, merged as Doc, before, after)) {
      const key = JSON.stringify([change.operation?.method, change.operation?.path, change.rule, change.message]);
      if (seen.has(key)) continue;
      seen.add(key);
      changes.push(change);
    }
  }
  return changes.sort(byPlace);
}

/**
 * compareDocuments with what cannot differ left out: nothing when the documents are the same
 * (a service against itself: the library takes 39 s on GitHub's to find nothing), and otherwise
 * only the paths that differ, or whose referenced components (followed through their own
 * references) differ. A change is found under the path where it is (or under `servers` and
 * `security`, which stay): a path whose item and references are the same on both sides holds none.
 */
export function compareUnlessSame(before: Record<string, unknown>, after: Record<string, unknown>): ServiceChange[] {
  if (before === after || JSON.stringify(before) === JSON.stringify(after)) return [];
  return compareDocuments(...withoutSamePaths(before, after));
}

function withoutSamePaths(before: Record<string, unknown>, after: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  if (!isObject(before['paths']) || !isObject(after['paths'])) return [before, after];
  const [was, is] = [before['paths'], after['paths']];
  const sameComponents = new Map<string, boolean>();
  // Whether everything `value` references is the same on both sides (a reference other than to a component: never).
  const referencesSame = (value: unknown, seen: Set<string>): boolean => {
    for (const { ref } of refsIn(value)) {
      const named = componentRef(ref);
      if (!named) return false;
      const key = `${named.section}/${named.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let same = sameComponents.get(key);
      if (same === undefined) {
        const [old, current] = [componentOf(before, named.section, named.name), componentOf(after, named.section, named.name)];
        same = old !== undefined && JSON.stringify(old) === JSON.stringify(current);
        sameComponents.set(key, same);
      }
      if (!same || !referencesSame(componentOf(before, named.section, named.name), seen)) return false;
    }
    return true;
  };
  const same = new Set(Object.keys(was).filter((path) => Object.hasOwn(is, path) && JSON.stringify(was[path]) === JSON.stringify(is[path]) && referencesSame(was[path], new Set())));
  if (same.size === 0) return [before, after];
  const left = (paths: Record<string, unknown>) => Object.fromEntries(Object.entries(paths).filter(([path]) => !same.has(path)));
  return [{ ...before, paths: left(was) }, { ...after, paths: left(is) }];
}

function componentOf(document: Record<string, unknown>, section: string, name: string): unknown {
  const components = isObject(document['components']) ? document['components'] : {};
  const entries = isObject(components[section]) ? components[section] : {};
  return Object.hasOwn(entries, name) ? entries[name] : undefined;
}

/**
 * What can still be said when the library cannot compare the documents (it recursed until the
 * stack overflowed): the operations added and removed, found by their path and method, and one
 * finding that says the rest was not examined. That finding is breaking, so that a
 * `failOn=breaking` gate refuses what it could not vouch for rather than letting it through.
 */
export function incompleteComparison(original: Doc, changed: Doc, reason: string): ServiceChange[] {
  const operations = (doc: Doc) => new Map(Object.entries(isObject(doc['paths']) ? doc['paths'] : {}).flatMap(([path, item]) => (isObject(item)
    ? Object.keys(item).filter((method) => METHODS.has(method)).map((method): [string, Operation] => [`${method} ${path}`, operationOf(path, method, item)])
    : [])));
  const [before, after] = [operations(original), operations(changed)];
  const comeOrGone = (from: Map<string, Operation>, to: Map<string, Operation>, action: 'add' | 'remove') => [...from]
    .filter(([key]) => !to.has(key))
    .flatMap(([, operation]) => found({ action, path: [], ...(action === 'add' ? { after: {} } : { before: {} }) } as unknown as Diff, operation, [], () => undefined));
  const unexamined: ServiceChange = {
    level: 'breaking', rule: 'comparison-incomplete', operation: null,
    message: `The two documents could not be compared in full (${reason}): only operations added and removed are listed, and any other change was not examined.`,
  };
  return [unexamined, ...comeOrGone(after, before, 'add'), ...comeOrGone(before, after, 'remove')].sort(byPlace);
}

/** A library finding as changes: one per operation it reaches (a whole path's, each of its operations). */
function changesOf(diff: Diff, merged: Doc, before: Doc, after: Doc): ServiceChange[] {
  const [root, path, method] = diff.path;
  if (root === 'servers' || root === 'security') return found(diff, null, diff.path, (at) => valueAt(merged, at));
  if (root !== 'paths' || typeof path !== 'string') return [];
  const item = (doc: Doc): Doc => (valueAt(doc, ['paths', path]) ?? {}) as Doc;
  if (method === undefined) {
    // A whole path came or went: each of its operations did.
    const side = diff.action === 'remove' ? item(before) : item(after);
    return Object.keys(side).filter((name) => METHODS.has(name))
      .flatMap((name) => found(diff, operationOf(path, name, side), [], () => undefined));
  }
  if (typeof method === 'string' && METHODS.has(method)) {
    const operation = operationOf(path, method, item(after)[method] ? item(after) : item(before));
    const base = ['paths', path, method];
    return found(diff, operation, diff.path.slice(3), (at) => valueAt(merged, [...base, ...at]));
  }
  // A path's own parameters and servers are its operations' by then (clientView): nothing else a client meets.
  return [];
}

function found(diff: Diff, operation: Operation | null, at: Segments, lookup: (at: Segments) => unknown): ServiceChange[] {
  // A parameter list that came or went whole is each of its parameters coming or going.
  const list = diff.action === 'add' ? diff.after : diff.action === 'remove' ? diff.before : undefined;
  if (at.at(-1) === 'parameters' && Array.isArray(list)) {
    const side = diff.action === 'add' ? 'after' : 'before';
    return list.flatMap((item: unknown, index) => found({ ...diff, path: [...diff.path, index], [side]: item }, operation, [...at, index], lookup));
  }
  const finding = classify({ diff, at, lookup, ...(operation && { label: `${operation.method} ${operation.path}` }) });
  return finding ? [{ ...finding, operation }] : [];
}

function operationOf(path: string, method: string, item: Doc): Operation {
  const operationId = (item[method] as { operationId?: unknown } | undefined)?.operationId;
  return { method: method.toUpperCase(), path, operationId: typeof operationId === 'string' ? operationId : null };
}

function valueAt(doc: unknown, at: Segments): unknown {
  let value = doc;
  for (const segment of at) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

/** By path, then method; document-wide changes (servers, security) first. */
export function byPlace(a: { operation: Operation | null; rule: string; message: string }, b: typeof a): number {
  return compare(a.operation?.path ?? '', b.operation?.path ?? '') || compare(a.operation?.method ?? '', b.operation?.method ?? '')
    || compare(a.rule, b.rule) || compare(a.message, b.message);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
