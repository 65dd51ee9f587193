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
