// get_openapi's answer: a service's exported document sliced to what was asked (a path, an
// operation or a tag, with the components they reach) and cut into pages of at most
// MAX_ENDPOINT_BYTES, so that an agent's context holds each answer; a cursor leads to the next.
import { Buffer } from 'node:buffer';
import { InvalidRequest, RecordNotFound } from '../errors.ts';
import { componentRef, escapeToken } from '../json/pointer.ts';
import { isObject, type JsonObject } from '../json/values.ts';

export interface Slice {
  /** A path template, exactly as in the document: that path item. */
  path?: string | undefined;
  /** An operationId: that operation, in its path item. */
  operation?: string | undefined;
  /** A tag: the operations that carry it. */
  tag?: string | undefined;
  /** Where the page starts, as the previous page's `x-page.nextCursor` said. */
  cursor?: string | undefined;
}

/** One place of the document and what is there: a top-level field, a path item or a component. */
interface Part {
  keys: string[];
  value: unknown;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
// Every page carries what names the document; the rest is paged.
const ALWAYS = ['openapi', 'info'];
// The top-level fields a slice keeps: where to call and with which credentials.
const SLICE_HEAD = ['servers', 'security'];
// What a page's JSON adds around a part, at most: the key quoted, a colon, a comma and the
// braces of a section opened for it (`"paths":{`, `"components":{"schemas":{`).
const PART_OVERHEAD = 48;
// Room for `x-page` itself (its counts, cursor and the list of parts cut).
const PAGE_NOTE_BYTES = 1024;

/**
 * The page of `document` that `slice` asks for. A whole document (or slice) that fits is
 * answered as it is; otherwise in pages, each saying in `x-page` which parts of how many it
 * holds and the cursor of the next. A part larger than a page is cut by depth to the room
 * left (its deeper values replaced by `x-truncated`), named in `x-page.cut`.
 */
export function documentPage(document: JsonObject, slice: Slice, maxBytes: number, wholeAt: string): JsonObject {
  const parts = partsOf(document, slice);
  const start = slice.cursor === undefined ? 0 : startOf(slice.cursor, parts.length);
  const always: JsonObject = Object.fromEntries(ALWAYS.filter((key) => key in document).map((key) => [key, document[key]!]));
  const budget = maxBytes - bytesOf(always) - PAGE_NOTE_BYTES;
  const taken: Part[] = [];
  const cut: string[] = [];
  let used = 0;
  for (let index = start; index < parts.length; index++) {
    const part = parts[index]!;
    const size = bytesOf(part.value) + PART_OVERHEAD + part.keys.reduce((sum, key) => sum + Buffer.byteLength(key), 0);
    if (used + size <= budget) {
      taken.push(part);
      used += size;
      continue;
    }
    // A part no page can hold is cut to the room this one has left (a whole page when it is the
    // first); one that a page can hold starts the next page.
    if (size > budget) {
      taken.push({ keys: part.keys, value: cutToFit(part.value, budget - used - (size - bytesOf(part.value))) });
      cut.push(`/${part.keys.map(escapeToken).join('/')}`);
    }
    break;
  }
  const page = assemble(always, taken);
  const next = start + taken.length;
  if (start === 0 && next === parts.length && cut.length === 0) return page;
  return {
    ...page,
    'x-page': {
      parts: `${start + 1}-${next} of ${parts.length}`,
      ...(next < parts.length ? { nextCursor: cursorAt(next) } : {}),
      ...(cut.length > 0 ? { cut, whole: wholeAt } : {}),
      next: next < parts.length ? 'Call get_openapi again with the same arguments and `cursor` set to nextCursor.' : 'This is the last page.',
    },
  };
}

/** The parts the slice asks for, in document order: top-level fields, path items, webhooks, components. */
function partsOf(document: JsonObject, slice: Slice): Part[] {
  const sliced = slice.path !== undefined || slice.operation !== undefined || slice.tag !== undefined;
  // A slice carries of the top-level fields what a call needs (Bitbucket's root holds a 103 KB
  // `x-atlassian-narrative` that would push the path asked for onto a later page).
  const head = Object.entries(document).filter(([key]) => !ALWAYS.includes(key) && !['paths', 'webhooks', 'components'].includes(key))
    .filter(([key]) => !sliced || SLICE_HEAD.includes(key))
    .map(([key, value]) => ({ keys: [key], value }));
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const components = isObject(document['components']) ? document['components'] : {};
  if (!sliced) {
    const webhooks = isObject(document['webhooks']) ? document['webhooks'] : {};
    return [
      ...head,
      ...Object.entries(paths).map(([key, value]) => ({ keys: ['paths', key], value })),
      ...Object.entries(webhooks).map(([key, value]) => ({ keys: ['webhooks', key], value })),
      ...Object.entries(components).flatMap(([section, named]) => Object.entries(isObject(named) ? named : {}).map(([key, value]) => ({ keys: ['components', section, key], value }))),
    ];
  }
  const items = selectedItems(paths, slice);
  const reached = reachedComponents(components, [{ security: document['security'] }, ...items.map(([, item]) => item)]);
  return [
    ...head,
    ...(slice.tag !== undefined && Array.isArray(document['tags']) ? document['tags'].filter((tag) => isObject(tag) && tag['name'] === slice.tag).map((tag) => ({ keys: ['tags'], value: [tag] })) : []),
    ...items.map(([key, value]) => ({ keys: ['paths', key], value })),
    ...reached.map(([section, key]) => ({ keys: ['components', section, key], value: (components[section] as JsonObject)[key] })),
  ];
}

/** The path items the slice names, each keeping only the operations it asks for. */
function selectedItems(paths: JsonObject, slice: Slice): [string, JsonObject][] {
  const items: [string, JsonObject][] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item) || (slice.path !== undefined && template !== slice.path)) continue;
    const kept = Object.entries(item).filter(([key, operation]) => !METHODS.has(key) || (isObject(operation)
      && (slice.operation === undefined || operation['operationId'] === slice.operation)
      && (slice.tag === undefined || (Array.isArray(operation['tags']) && operation['tags'].includes(slice.tag)))));
    if (kept.some(([key]) => METHODS.has(key)) || (slice.operation === undefined && slice.tag === undefined)) items.push([template, Object.fromEntries(kept)]);
  }
  if (items.length > 0) return items;
  if (slice.operation !== undefined) throw new RecordNotFound('Operation not found');
  if (slice.path !== undefined) throw new RecordNotFound('Path not found');
  throw InvalidRequest.field('tag', 'no operation of the service (of the path, when given) has this tag');
}

/** The components the values reach through `$ref`s and security requirements, transitively, in the order found. */
function reachedComponents(components: JsonObject, from: unknown[]): [string, string][] {
  const found = new Map<string, [string, string]>();
  const pending = [...from];
  const reach = (section: string, name: string) => {
    const id = `${section}/${name}`;
    const value = isObject(components[section]) ? (components[section] as JsonObject)[name] : undefined;
    if (found.has(id) || value === undefined) return;
    found.set(id, [section, name]);
    pending.push(value);
  };
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        const named = key === '$ref' && typeof inner === 'string' ? componentRef(inner) : undefined;
        if (named) reach(named.section, named.name);
        // A security requirement names its schemes by key.
        else if (key === 'security' && Array.isArray(inner)) for (const requirement of inner) if (isObject(requirement)) for (const scheme of Object.keys(requirement)) reach('securitySchemes', scheme);
        pending.push(inner);
      }
    }
  }
  return [...found.values()];
}

function assemble(always: JsonObject, parts: readonly Part[]): JsonObject {
  const page: JsonObject = { ...always };
  for (const { keys, value } of parts) {
    let at = page;
    for (const key of keys.slice(0, -1)) {
      if (!isObject(at[key])) at[key] = {};
      at = at[key] as JsonObject;
    }
    const last = keys.at(-1)!;
    // A tag asked for is the one entry of `tags`.
    at[last] = Array.isArray(at[last]) && Array.isArray(value) ? [...at[last], ...value] : value as JsonObject[string];
  }
  return page;
}

/** The value with everything deeper than the deepest level that fits replaced by what it was. */
function cutToFit(value: unknown, maxBytes: number): unknown {
  for (let depth = 8; depth > 0; depth--) {
    const cut = cutAt(value, depth);
    if (bytesOf(cut) <= maxBytes) return cut;
  }
  return cutAt(value, 0);
}

function cutAt(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return depth === 0 ? { 'x-truncated': `${value.length} items` } : value.map((each) => cutAt(each, depth - 1));
  if (!isObject(value)) return value;
  if (depth === 0) return { 'x-truncated': `${Object.keys(value).length} keys` };
  return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, cutAt(each, depth - 1)]));
}

function cursorAt(index: number): string {
  return Buffer.from(JSON.stringify({ part: index })).toString('base64url');
}

function startOf(cursor: string, count: number): number {
  let index: unknown;
  try {
    index = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { part?: unknown }).part;
  } catch {
    index = undefined;
  }
  if (!Number.isInteger(index) || (index as number) < 1 || (index as number) >= count) throw InvalidRequest.field('cursor', 'is not a cursor of this document (pass back the `nextCursor` of the previous page, with the same arguments)');
  return index as number;
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
