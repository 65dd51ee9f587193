// The list operation's query string: `cursor`, `limit`, `sort` and the collection's equality
// filters; anything else, or any malformed value, is 400 naming the parameter.
import { InvalidRequest } from '../errors.ts';
import type { Collection } from '../schemas/registry.ts';
import { withTieBreaker, type SortKey } from '../store/cursor.ts';
import type { ListQuery } from '../store/records.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
const CONTROL_PARAMETERS = new Set(['cursor', 'limit', 'sort']);

export function parseListQuery(collection: Collection, versionId: string, query: Readonly<Record<string, unknown>>): ListQuery {
  for (const name of Object.keys(query)) {
    if (!CONTROL_PARAMETERS.has(name) && !collection.filters.has(name)) {
      throw InvalidRequest.field(name, `is not a query parameter of this list (use cursor, limit, sort${[...collection.filters.keys()].map((f) => `, ${f}`).join('')})`);
    }
  }
  return {
    versionId,
    filters: parseFilters(collection, query),
    sort: withTieBreaker(parseSort(collection, query['sort'])),
    cursor: parseCursor(collection, query['cursor']),
    limit: parseLimit(query['limit']),
  };
}

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}

function parseLimit(value: unknown): number {
  const raw = single('limit', value);
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw InvalidRequest.field('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

function parseCursor(collection: Collection, value: unknown): string | undefined {
  const cursor = single('cursor', value);
  if (cursor === undefined) return undefined;
  if (collection.checkId(cursor).length > 0) throw InvalidRequest.field('cursor', `must be a ${collection.record} id (${collection.idPrefix}…)`);
  return cursor;
}

function parseFilters(collection: Collection, query: Readonly<Record<string, unknown>>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [field, check] of collection.filters) {
    const value = single(field, query[field]);
    if (value === undefined) continue;
    const problem = check(value)[0];
    if (problem) throw InvalidRequest.field(field, problem.message);
    filters[field] = value;
  }
  return filters;
}

/** `sort=path,-updatedAt` or `sort=path&sort=-updatedAt`: `-` for descending. */
function parseSort(collection: Collection, value: unknown): SortKey[] {
  if (value === undefined) return [];
  const items = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(','));
  const seen = new Set<string>();
  return items.map((item) => {
    const descending = item.startsWith('-');
    const field = descending ? item.slice(1) : item;
    if (!collection.sortable.has(field)) {
      throw InvalidRequest.field('sort', `"${item}" is not a sortable field; sortable: ${[...collection.sortable].join(', ')} (prefix - for descending)`);
    }
    if (seen.has(field)) throw InvalidRequest.field('sort', `"${field}" is given twice`);
    seen.add(field);
    return { field, direction: descending ? -1 : 1 };
  });
}
