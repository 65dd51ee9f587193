// Keyset pagination: the filter that selects "this item and everything after it" under any
// sort, so a page costs the same however deep it is and no item is repeated or skipped.
import type { Document } from 'mongodb';

export interface SortKey {
  field: string;
  direction: 1 | -1;
}

/** The sort as given, with `id` appended as the final, unique tie-breaker. */
export function withTieBreaker(keys: readonly SortKey[]): SortKey[] {
  const idAt = keys.findIndex((key) => key.field === 'id');
  // Keys after `id` can never decide anything: `id` is unique.
  return idAt >= 0 ? keys.slice(0, idAt + 1) : [...keys, { field: 'id', direction: 1 }];
}

export function mongoSort(keys: readonly SortKey[]): Record<string, 1 | -1> {
  return Object.fromEntries(keys.map((key) => [key.field, key.direction]));
}

/**
 * Items at or after `cursor` (a stored document) in the order of `keys`, which must end with
 * `id`. Expanded as: (k1 after v1) or (k1 = v1 and k2 after v2) or ... or (all equal and id ≥).
 */
export function keysetFilter(keys: readonly SortKey[], cursor: Document): Document {
  const branches: Document[] = [];
  const equalSoFar: Document[] = [];
  keys.forEach((key, index) => {
    const value = cursor[key.field] ?? null;
    const last = index === keys.length - 1;
    const after = last ? atOrAfter(key, value) : strictlyAfter(key, value);
    if (after) branches.push(and([...equalSoFar, after]));
    equalSoFar.push({ [key.field]: value });
  });
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

function and(conditions: Document[]): Document {
  return conditions.length === 1 ? conditions[0]! : { $and: conditions };
}

function atOrAfter(key: SortKey, value: unknown): Document {
  return { [key.field]: { [key.direction === 1 ? '$gte' : '$lte']: value } };
}

// BSON orders values of different types by type (MongoDB's "comparison/sort order"), and
// $gt/$lt compare only within one type. A stored scalar field can hold these types (null
// stands for missing too; objects are the codec's wrappers for -0 and strings with NUL).
const TYPE_ORDER = ['null', 'number', 'string', 'object', 'bool', 'date'] as const;
type TypeName = (typeof TYPE_ORDER)[number];

function typeOf(value: unknown): TypeName {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return 'date';
  switch (typeof value) {
    case 'number': return 'number';
    case 'string': return 'string';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

/** Values that sort strictly after `value` in the key's direction; undefined when none can. */
function strictlyAfter(key: SortKey, value: unknown): Document | undefined {
  const rank = TYPE_ORDER.indexOf(typeOf(value));
  const laterTypes = key.direction === 1 ? TYPE_ORDER.slice(rank + 1) : TYPE_ORDER.slice(0, rank);
  const options: Document[] = [];
  if (value !== null) options.push({ [key.field]: { [key.direction === 1 ? '$gt' : '$lt']: value } });
  // `{field: null}` also matches a missing field, which `$type: 'null'` would not.
  if (laterTypes.includes('null')) options.push({ [key.field]: null });
  const nonNull = laterTypes.filter((type) => type !== 'null');
  if (nonNull.length > 0) options.push({ [key.field]: { $type: nonNull } });
  if (options.length === 0) return undefined;
  return options.length === 1 ? options[0]! : { $or: options };
}

/**
 * Where the cursors this process handed out pointed: the sort values of each `nextCursor`'s
 * item when its page was served. The interface's cursor is a bare item id, so resuming from
 * the item's *current* values would skip the records it jumps over if the item changed its
 * sort value between pages, and could not resume at all had it been deleted. Bounded in size
 * and time; a cursor this process did not issue (another instance, a restart, older than the
 * TTL) resumes from the item's current values instead.
 */
export class CursorPositions {
  readonly #entries = new Map<string, { values: Document; expires: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;

  constructor(maxEntries = 10_000, ttlMs = 15 * 60_000) {
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
  }

  remember(versionId: string, keys: readonly SortKey[], item: Document): void {
    const values = Object.fromEntries(keys.map((key) => [key.field, item[key.field] ?? null]));
    // Oldest first out: a Map iterates in insertion order.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(positionKey(versionId, keys, String(item['id'])), { values, expires: Date.now() + this.#ttlMs });
  }

  /** The remembered sort values of the item `id` under this sort, if this process issued it. */
  recall(versionId: string, keys: readonly SortKey[], id: string): Document | undefined {
    const key = positionKey(versionId, keys, id);
    const entry = this.#entries.get(key);
    if (entry && entry.expires <= Date.now()) this.#entries.delete(key);
    return entry && entry.expires > Date.now() ? entry.values : undefined;
  }
}

function positionKey(versionId: string, keys: readonly SortKey[], id: string): string {
  return `${versionId}\u0000${keys.map((key) => (key.direction === 1 ? key.field : `-${key.field}`)).join(',')}\u0000${id}`;
}
