// Two OpenAPI documents of one service → what changed for its clients, per operation. The diff
// is api-smart-diff's (references resolved, so a shared schema's change shows under every
// operation that uses it); rules.ts names each finding and fixes its level.
import { apiCompare, type Diff } from 'api-smart-diff';
import { aligned, clientView } from './client-view.ts';
import { compareRules } from './library-rules.ts';
import { classify, type Level } from './rules.ts';
import { judgedRemoval, lifecycleFinding, todayUtc, type Lifecycle } from './lifecycle.ts';
import { componentRef } from '../json/pointer.ts';
import { isObject, type JsonObject } from '../json/values.ts';

export interface Operation { method: string; path: string; operationId: string | null }

export interface ServiceChange {
  level: Level;
  rule: string;
  operation: Operation | null;
  message: string;
  /** Where the change stands in the life of what it reaches: a deprecation, a sunset date, a removal judged by them (lifecycle.ts). */
  lifecycle?: Lifecycle;
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
 * compareDocuments with what cannot differ left out (narrowed): nothing when the documents are
 * the same (a service against itself: the library takes 39 s on GitHub's to find nothing), and
 * otherwise only the paths that differ, or whose referenced components (followed through their
 * own references) differ, with only the components those paths reach.
 */
export function compareUnlessSame(before: Record<string, unknown>, after: Record<string, unknown>): ServiceChange[] {
  if (before === after || JSON.stringify(before) === JSON.stringify(after)) return [];
  return compareDocuments(...narrowed(before, after));
}

/**
 * Both documents without what holds no change: the paths whose item is the same on both sides
 * and whose references (`$ref`s, followed through components) all reach components that are
 * the same on both sides; then, of the components, only those the rest of either document reaches (security schemes, named rather than referenced, all kept).
 * A change is found under the path where it is (or under `servers` and `security`, which stay):
 * a path left out held none, and a component no kept path reaches is reported nowhere. Linear in
 * the documents' size: each component's references are read once (Graph beta: 22,361
 * operations over 5,000 schemas that reach one another, where following them per path took minutes).
 */
export function narrowed(before: Record<string, unknown>, after: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  if (!isObject(before['paths']) || !isObject(after['paths'])) return [before, after];
  const [was, is] = [before['paths'], after['paths']];
  const [old, current] = [componentsOf(before), componentsOf(after)];
  const differing = differingComponents(old, current);
  const sameReach = (value: unknown): boolean => {
    const { named, other } = referencesIn(value);
    return !other && [...named].every((key) => old.has(key) && !differing.has(key));
  };
  const same = new Set(Object.keys(was).filter((path) => Object.hasOwn(is, path) && JSON.stringify(was[path]) === JSON.stringify(is[path]) && sameReach(was[path])));
  // Of a path on both sides that differs, its operations the same on both sides as a client meets
  // them (the path's parameters and servers moved into each: clientView, which the comparison
  // applies again to no effect) are left out too: findings are each operation's own.
  const items = new Map<string, [JsonObject, JsonObject]>();
  for (const path of Object.keys(was)) {
    if (same.has(path) || !Object.hasOwn(is, path) || !isObject(was[path]) || !isObject(is[path])) continue;
    const [itemWas, itemIs] = [clientView({ paths: { [path]: was[path] } }), clientView({ paths: { [path]: is[path] } })]
      .map((view) => (view['paths'] as Record<string, JsonObject>)[path]!) as [JsonObject, JsonObject];
    for (const method of METHODS) {
      if (!Object.hasOwn(itemWas, method) || !Object.hasOwn(itemIs, method)) continue;
      if (JSON.stringify(itemWas[method]) !== JSON.stringify(itemIs[method]) || !sameReach(itemWas[method])) continue;
      delete itemWas[method];
      delete itemIs[method];
    }
    items.set(path, [itemWas, itemIs]);
  }
  // Each side in its own order: the library pairs paths of one template by it (library-rules.ts).
  const left = (paths: Record<string, unknown>, side: 0 | 1) => Object.fromEntries(Object.keys(paths).filter((path) => !same.has(path)).map((path) => [path, items.get(path)?.[side] ?? paths[path]]));
  const [leftWas, leftIs] = [left(was, 0), left(is, 1)];
  const [narrowBefore, narrowAfter] = [{ ...before, paths: leftWas }, { ...after, paths: leftIs }];
  const reached = new Set<string>();
  for (const [document, components] of [[narrowBefore, old], [narrowAfter, current]] as const) {
    const found = reachedFrom(document, components);
    if (!found) return [narrowBefore, narrowAfter];
    for (const key of found) reached.add(key);
  }
  return [withComponents(narrowBefore, reached), withComponents(narrowAfter, reached)];
}

/** `section/name` of a component, as referencesIn names it. */
type ComponentKey = string;

/** A document's components by `section/name`. */
function componentsOf(document: Record<string, unknown>): Map<ComponentKey, unknown> {
  const components = new Map<ComponentKey, unknown>();
  if (!isObject(document['components'])) return components;
  for (const [section, entries] of Object.entries(document['components'])) {
    if (!isObject(entries)) continue;
    for (const [name, value] of Object.entries(entries)) components.set(`${section}/${name}`, value);
  }
  return components;
}

/**
 * The components (of `before`'s) that differ on the two sides or reach one that does, or that
 * hold a reference other than to a component, or to one `before` does not have.
 */
function differingComponents(before: Map<ComponentKey, unknown>, after: Map<ComponentKey, unknown>): Set<ComponentKey> {
  const differing = new Set<ComponentKey>();
  const referredBy = new Map<ComponentKey, ComponentKey[]>();
  for (const [key, value] of before) {
    const { named, other } = referencesIn(value);
    if (other || !after.has(key) || JSON.stringify(value) !== JSON.stringify(after.get(key))) differing.add(key);
    for (const target of named) {
      if (!before.has(target)) differing.add(key);
      const referrers = referredBy.get(target);
      if (referrers) referrers.push(key);
      else referredBy.set(target, [key]);
    }
  }
  for (const key of after.keys()) if (!before.has(key)) differing.add(key);
  const pending = [...differing];
  while (pending.length > 0) {
    for (const referrer of referredBy.get(pending.pop()!) ?? []) {
      if (differing.has(referrer)) continue;
      differing.add(referrer);
      pending.push(referrer);
    }
  }
  return differing;
}

/**
 * The components the document outside its components reaches, through the components' own
 * references; undefined when something refers elsewhere than to a component (left whole then).
 */
function reachedFrom(document: Record<string, unknown>, components: Map<ComponentKey, unknown>): Set<ComponentKey> | undefined {
  const reached = new Set<ComponentKey>();
  const pending: ComponentKey[] = [];
  const follow = (value: unknown): boolean => {
    const { named, other } = referencesIn(value);
    for (const key of named) {
      if (reached.has(key)) continue;
      reached.add(key);
      pending.push(key);
    }
    return !other;
  };
  if (!follow(Object.entries(document).filter(([key]) => key !== 'components'))) return undefined;
  while (pending.length > 0) if (!follow(components.get(pending.pop()!))) return undefined;
  return reached;
}

/** The document with only the reached components (and every security scheme: requirements name them, not reference them). */
function withComponents(document: Record<string, unknown>, reached: Set<ComponentKey>): Record<string, unknown> {
  if (!isObject(document['components'])) return document;
  const components = Object.fromEntries(Object.entries(document['components']).map(([section, entries]) => [section,
    section === 'securitySchemes' || !isObject(entries) ? entries : Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`${section}/${name}`)))]));
  return { ...document, components };
}

/**
 * The components a value's `$ref`s name, by `section/name`, and whether one names anything else
 * (another part of the document, another file). Only `$ref`s: they are what the library resolves
 * (a discriminator's mapping it compares as text, and Graph beta's entity maps 3,000 schemas).
 */
function referencesIn(value: unknown): { named: Set<ComponentKey>; other: boolean } {
  const named = new Set<ComponentKey>();
  let other = false;
  const refer = (ref: string): void => {
    const component = componentRef(ref);
    if (component) named.add(`${component.section}/${component.name}`);
    else other = true;
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
    } else if (isObject(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (key === '$ref' && typeof item === 'string') refer(item);
        else walk(item);
      }
    }
  };
  walk(value);
  return { named, other };
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
    // Each operation as the one that came or went, so its removal is judged by its own deprecation.
    return Object.keys(side).filter((name) => METHODS.has(name))
      .flatMap((name) => found({ ...diff, [diff.action === 'remove' ? 'before' : 'after']: side[name] }, operationOf(path, name, side), [], () => undefined));
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
  const place = { diff, at, lookup, ...(operation && { label: `${operation.method} ${operation.path}` }) };
  const finding = lifecycleFinding(place) ?? classify(place);
  return finding ? [{ ...judgedRemoval(finding, place, todayUtc()), operation }] : [];
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
