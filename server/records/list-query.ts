// The list operation's query string: `cursor`, `limit`, `sort`, `updatedAfter` and the
// collection's equality filters; anything else, or any malformed value, is 400 naming the parameter.
import { InvalidRequest } from '../errors.ts';
import { singleValue } from '../pipeline/query.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { withTieBreaker, type SortKey } from '../store/cursor.ts';
import type { ListQuery } from '../store/records.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
const CONTROL_PARAMETERS = new Set(['cursor', 'limit', 'sort', 'updatedAfter']);
/** RFC 3339 date-time with a time zone (what `format: date-time` means), fractions to the millisecond or beyond. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseListQuery(collection: CompiledCollection, versionId: string, query: Readonly<Record<string, unknown>>): ListQuery {
  for (const name of Object.keys(query)) {
    if (!CONTROL_PARAMETERS.has(name) && !collection.filters.has(name)) {
      throw InvalidRequest.field(name, `is not a query parameter of this list (use cursor, limit, sort${[...collection.filters.keys()].map((f) => `, ${f}`).join('')}, updatedAfter)`);
    }
  }
  return {
    versionId,
    filters: parseFilters(collection, query),
    ...optional('updatedAfter', parseUpdatedAfter(query['updatedAfter'])),
    sort: withTieBreaker(parseSort(collection, query['sort'])),
    cursor: parseCursor(collection, query['cursor']),
    limit: parseLimit(query['limit']),
  };
}

function optional<K extends string, V>(name: K, value: V | undefined): { [key in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [key in K]?: V };
}

/** `limit`: 1..MAX_LIMIT, default DEFAULT_LIMIT (lists and the insights view alike). */
export function parseLimit(value: unknown): number {
  const raw = singleValue('limit', value);
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw InvalidRequest.field('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

function parseCursor(collection: CompiledCollection, value: unknown): string | undefined {
  const cursor = singleValue('cursor', value);
  if (cursor === undefined) return undefined;
  if (collection.checkId(cursor).length > 0) throw InvalidRequest.field('cursor', `must be a ${collection.record} id (${collection.idPrefix}…)`);
  return cursor;
}

/** Each filter's text typed as its field (`statusCode=200` a number, `contentMediaType=null` null). */
function parseFilters(collection: CompiledCollection, query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const [field, valueOf] of collection.filters) {
    const text = singleValue(field, query[field]);
    if (text === undefined) continue;
    const parsed = valueOf(text);
    if ('problem' in parsed) throw InvalidRequest.field(field, parsed.problem);
    filters[field] = parsed.value;
  }
  return filters;
}

/** Exclusive lower bound on `updatedAt`. */
function parseUpdatedAfter(value: unknown): Date | undefined {
  return parseDateTime('updatedAfter', value);
}

/** A date-time query parameter: ISO 8601 with a time zone; 400 naming the parameter otherwise. */
export function parseDateTime(name: string, value: unknown): Date | undefined {
  const text = singleValue(name, value);
  if (text === undefined) return undefined;
  const time = DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) throw InvalidRequest.field(name, 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00.000Z');
  return new Date(time);
}

/** `sort=path,-updatedAt` or `sort=path&sort=-updatedAt`: `-` for descending. */
function parseSort(collection: CompiledCollection, value: unknown): SortKey[] {
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
