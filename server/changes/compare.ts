// Two OpenAPI documents of one service → what changed for its clients, per operation. The diff
// is api-smart-diff's (references resolved, so a shared schema's change shows under every
// operation that uses it); rules.ts names each finding and fixes its level.
import { apiCompare, type Diff } from 'api-smart-diff';
import { aligned, clientView } from './client-view.ts';
import { compareRules } from './library-rules.ts';
import { classify, type Level } from './rules.ts';

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
