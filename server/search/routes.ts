// GET {prefix}/search on both families: operations matching words, ranked, each with what a
// caller needs to call it (servers, resolved security). Read access, run by the one pipeline.
import { InvalidRequest } from '../errors.ts';
import type { Endpoint } from '../pipeline.ts';
import { FAMILIES } from '../routes/table.ts';
import { withObserved } from '../insights/observed.ts';
import type { Observations } from '../insights/observations.ts';
import type { SearchIndexes } from './indexes.ts';
import { wordsOf } from './text.ts';

export const SEARCH_SEGMENT = '/search';
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export function searchEndpoints(indexes: SearchIndexes, observations: Observations): Endpoint[] {
  return FAMILIES.map((family): Endpoint => ({
    method: 'GET', path: `${family.prefix}${SEARCH_SEGMENT}`, target: family.name, access: 'read',
    body: false, query: ['q', 'limit', 'service'], success: [200],
    // The first search after a write to the version builds its index from the version's
    // operations, paths, parameters and servers: that one costs the version's size.
    longRunning: true,
    summary: 'Search endpoints',
    async run({ version, query }) {
      const options = searchOptions(query);
      const index = await indexes.of(version!.versionId);
      return { status: 200, body: { hits: await withObserved(observations, version!.versionId, index.search(options)) } };
    },
  }));
}

/** The query parameters checked: `q` has words, `limit` is 1–100, `service` a slug. */
export function searchOptions(query: Readonly<Record<string, unknown>>): { query: string; limit: number; service?: string } {
  const q = single(query, 'q');
  if (q === undefined || wordsOf(q).length === 0) throw InvalidRequest.field('q', 'must have at least one word');
  const limitText = single(query, 'limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw InvalidRequest.field('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const service = single(query, 'service');
  if (service !== undefined && !/^[a-z0-9-]+$/.test(service)) throw InvalidRequest.field('service', 'must be a service slug (lowercase letters, digits and hyphens)');
  return { query: q, limit, ...(service === undefined ? {} : { service }) };
}

function single(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidRequest.field(name, 'must be given once');
  return value;
}
