// MongoDB's sort order, written out independently of server/store/cursor.ts so tests can check
// what the database returns: BSON type order first (null and missing < numbers < strings <
// objects < booleans < dates), then within a type; strings by UTF-8 bytes (the simple
// collation), objects field by field (type, then name, then value; fewer fields first).
import { encodeValue } from '../../server/store/codec.ts';

const TYPE_RANK = ['null', 'number', 'string', 'object', 'boolean', 'date'] as const;

/** The value's place in the BSON type order: 0 null or missing, 1 number, 2 string, 3 object, 4 boolean, 5 date. */
export function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return 5;
  if (typeof value === 'object' && !Array.isArray(value)) return 3;
  const index = TYPE_RANK.indexOf(typeof value as (typeof TYPE_RANK)[number]);
  if (index < 0) throw new Error(`bson-order: no rank for ${String(value)}`);
  return index;
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** <0, 0 or >0 as MongoDB orders two stored (already encoded) scalar values. */
export function compareBson(a: unknown, b: unknown): number {
  const byType = typeRank(a) - typeRank(b);
  if (byType !== 0) return sign(byType);
  if (a === null || a === undefined) return 0;
  if (typeof a === 'number') return sign(a - (b as number));
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b as string, 'utf8'));
  if (typeof a === 'boolean') return Number(a) - Number(b as boolean);
  if (a instanceof Date) return sign(a.getTime() - (b as Date).getTime());
  const left = Object.entries(a as object);
  const right = Object.entries(b as object);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [leftKey, leftValue] = left[i]!;
    const [rightKey, rightValue] = right[i]!;
    const order = sign(typeRank(leftValue) - typeRank(rightValue))
      || compareBson(leftKey, rightKey)
      || compareBson(leftValue, rightValue);
    if (order !== 0) return order;
  }
  return sign(left.length - right.length);
}

export interface SortKey {
  field: string;
  direction: 1 | -1;
}

/**
 * A comparator of records (API values; dates as Date) in the order of `keys` as the database
 * sorts their stored form, with ascending `id` as the final tie-breaker unless `keys` has it.
 */
export function recordOrder(keys: readonly SortKey[]): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const all = keys.some((key) => key.field === 'id') ? keys : [...keys, { field: 'id', direction: 1 as const }];
  return (a, b) => {
    for (const { field, direction } of all) {
      const order = compareBson(encodeValue(a[field]), encodeValue(b[field]));
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}
