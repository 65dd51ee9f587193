// The side panel of a service's operations on the service and operation pages: grouped by tag,
// each with its method and summary (else its path), the current one marked, narrowed by
// `?filter=` on the server (a plain GET form) and as one types by /assets/pages/nav.js. A
// service of thousands of operations (GitHub's 1,000 and more, Graph beta's 22,000) shows a
// window of NAV_LIMIT of them around the current one, so the page stays light; the filter
// reaches every operation.
import type { CatalogRecord } from '../store/records.ts';

/** An operation with its path, in the service page's order (by path, then method). */
export interface Listed { operation: CatalogRecord; path: CatalogRecord }

/** Entries shown at most: about 20 KB of HTML, a few KB compressed. */
export const NAV_LIMIT = 250;
/** At most this many matches, every group starts open. */
const OPEN_ALL_UP_TO = 40;
const UNTAGGED = '(untagged)';

interface Item {
  id: string;
  method: string;
  path: string;
  /** The summary, else the path. */
  label: string;
  /** What the operation's address names it by. */
  name: string;
  tags: string[];
  deprecated: boolean;
  /** What the filter's words are looked for in, lower case. */
  haystack: string;
}

export interface NavEntry { method: string; label: string; path: string; href: string; current: boolean; deprecated: boolean }
export interface NavGroup { tag: string; count: number; open: boolean; entries: NavEntry[]; elsewhere: string }
export interface Navigation {
  action: string;
  filter: string;
  total: number;
  matched: number;
  shown: number;
  groups: NavGroup[];
}

export interface NavigationAsked {
  /** The words asked for (`?filter=`), '' for every operation. */
  filter: string;
  /** Only the operations of this tag (`?tag=`, the service page's), '' for every tag. */
  tag?: string;
  /** The id of the operation the page shows. */
  current?: string;
  /** The page the filter form asks again. */
  action: string;
  /** The service page, where a group outside the window is listed whole (filtered by its tag). */
  service: string;
  hrefOf: (name: string) => string;
}

const items = new WeakMap<readonly Listed[], Item[]>();

/** The panel for this listing (kept per listing, which the catalog keeps per version revision). */
export function navigationOf(listed: readonly Listed[], asked: NavigationAsked): Navigation {
  const all = itemsOf(listed);
  const words = wordsOf(asked.filter);
  const matched = words.length === 0 && !asked.tag ? all : all.filter((item) => matches(item, words, asked.tag ?? ''));
  const byTag = new Map<string, Item[]>();
  for (const item of matched) {
    for (const tag of item.tags) {
      const group = byTag.get(tag);
      if (group) group.push(item);
      else byTag.set(tag, [item]);
    }
  }
  const tags = [...byTag.keys()].sort((a, b) => a.localeCompare(b));
  const entries = tags.flatMap((tag) => byTag.get(tag)!.map((item) => ({ tag, item })));
  const window = windowAround(entries, asked.current);
  const groups = tags.map((tag): NavGroup => {
    const shown = window.filter((entry) => entry.tag === tag).map(({ item }): NavEntry => ({
      method: item.method, label: item.label, path: item.path, href: asked.hrefOf(item.name), current: item.id === asked.current, deprecated: item.deprecated,
    }));
    return {
      tag, count: byTag.get(tag)!.length, entries: shown,
      open: shown.some((entry) => entry.current) || words.length > 0 || matched.length <= OPEN_ALL_UP_TO,
      elsewhere: `${asked.service}?tag=${encodeURIComponent(tag)}`,
    };
  });
  return { action: asked.action, filter: asked.filter, total: all.length, matched: matched.length, shown: window.length, groups };
}

/** The words `?filter=` asks for ('' when absent), cut to a sane length. */
export function filterAsked(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

/** Whether an operation matches the filter's words and has the tag (when one is asked), as the panel matches them (the service page's list uses it too). */
export function matchesFilter(listed: Listed, filter: string, tag = ''): boolean {
  return matches(itemOf(listed), wordsOf(filter), tag);
}

function matches(item: Item, words: readonly string[], tag: string): boolean {
  return (tag === '' || item.tags.includes(tag)) && words.every((word) => item.haystack.includes(word));
}

function wordsOf(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter((word) => word !== '');
}

/** NAV_LIMIT entries around the current one (else the first ones). */
function windowAround<T extends { item: Item }>(entries: readonly T[], current: string | undefined): readonly T[] {
  if (entries.length <= NAV_LIMIT) return entries;
  const at = Math.max(0, entries.findIndex((entry) => entry.item.id === current));
  const start = Math.min(Math.max(0, at - NAV_LIMIT / 2), entries.length - NAV_LIMIT);
  return entries.slice(start, start + NAV_LIMIT);
}

function itemsOf(listed: readonly Listed[]): Item[] {
  let made = items.get(listed);
  if (!made) {
    made = listed.map(itemOf);
    items.set(listed, made);
  }
  return made;
}

function itemOf({ operation, path }: Listed): Item {
  const method = String(operation['method']).toUpperCase();
  const text = String(path['path']);
  const summary = typeof operation['summary'] === 'string' ? operation['summary'].trim() : '';
  const tags = Array.isArray(operation['tags']) && operation['tags'].length > 0 ? operation['tags'].map(String) : [UNTAGGED];
  const named = operation['operationId'];
  const name = typeof named === 'string' && named !== '' ? named : operation.id;
  return {
    id: operation.id, method, path: text, label: summary || text, name, tags, deprecated: operation['deprecated'] === true,
    haystack: [method, text, summary, name, ...tags].join(' ').toLowerCase(),
  };
}

/** Operations with their paths, by path then method (the order listingOf makes). */
export function inPageOrder(operations: readonly CatalogRecord[], paths: readonly CatalogRecord[]): Listed[] {
  const byId = new Map(paths.map((path) => [path.id, path]));
  return operations.flatMap((operation) => {
    const path = byId.get(String(operation['pathId']));
    return path ? [{ operation, path }] : [];
  }).sort((a, b) => String(a.path['path']).localeCompare(String(b.path['path'])) || String(a.operation['method']).toUpperCase().localeCompare(String(b.operation['method']).toUpperCase()));
}

/** The operations before and after this one in the listing (the service page's order). */
export function neighboursIn(listed: readonly Listed[], operation: CatalogRecord): { previous?: CatalogRecord; next?: CatalogRecord } {
  const at = listed.findIndex((entry) => entry.operation.id === operation.id);
  return { ...(at > 0 && { previous: listed[at - 1]!.operation }), ...(at >= 0 && at < listed.length - 1 && { next: listed[at + 1]!.operation }) };
}
