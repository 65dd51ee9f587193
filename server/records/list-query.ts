// The list operation's query, from the values the pipeline checked and typed by the list's
// documented schemas (records/documentation.ts): the page size, the cursor, the sort keys and the
// equality filters, as the store takes them.
import { InvalidRequest } from '../errors.ts';
import type { QueryValues } from '../routes/route.ts';
import type { CompiledCollection } from '../schemas/registry.ts';
import { withTieBreaker, type SortKey } from '../store/cursor.ts';
import type { ListQuery } from '../store/records.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

/** The typed values of a list's query (records/documentation.ts documents each). */
export interface ListValues extends QueryValues {
  limit: number;
  cursor?: string;
  sort?: readonly string[];
  updatedAfter?: string;
}

export function listQueryOf(collection: CompiledCollection, versionId: string, values: ListValues): ListQuery {
  const filters = Object.fromEntries([...collection.filters.keys()].filter((field) => field in values).map((field) => [field, values[field]]));
  return {
    versionId,
    filters,
    ...(values.updatedAfter !== undefined && { updatedAfter: new Date(values.updatedAfter) }),
    sort: withTieBreaker(sortKeys(values.sort ?? [])),
    cursor: values.cursor,
    limit: values.limit,
  };
}

/** `sort=path,-updatedAt` or `sort=path&sort=-updatedAt`: `-` for descending. The schema has checked each field. */
function sortKeys(given: readonly string[]): SortKey[] {
  const seen = new Set<string>();
  return given.flatMap((item) => item.split(',')).map((item) => {
    const descending = item.startsWith('-');
    const field = descending ? item.slice(1) : item;
    // That no field is given twice is the one rule no pattern can say.
    if (seen.has(field)) throw InvalidRequest.field('sort', `"${field}" is given twice`);
    seen.add(field);
    return { field, direction: descending ? -1 : 1 };
  });
}
