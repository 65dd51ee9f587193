// GET {prefix}/search on both families: operations matching words, ranked, each with what a
// caller needs to call it (servers, resolved security). Read access, run by the one pipeline.
import { InvalidRequest } from '../errors.ts';
import type { Endpoint } from '../pipeline.ts';
import { FAMILIES } from '../routes/table.ts';
import type { Tag } from '../openapi/documented-route.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import type { RecordStore } from '../store/records.ts';
import { withObserved } from '../insights/observed.ts';
import type { Observations } from '../insights/observations.ts';
import { SEARCH_COLLECTIONS, search, viewOf } from './endpoints.ts';
import { queryWords } from './score.ts';

const SEARCH_SEGMENT = '/search';
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const SEARCH_TAG: Tag = {
  name: 'Search',
  description: 'Find an endpoint and the credentials it needs: a ranked search over operations, and the same catalog as Model Context Protocol tools for agents.',
};

export function searchEndpoints(stores: ReadonlyMap<string, RecordStore>, observations: Observations): Endpoint[] {
  return FAMILIES.map((family): Endpoint => ({
    method: 'GET', path: `${family.prefix}${SEARCH_SEGMENT}`, target: family.name, access: 'read',
    body: false,
    // It reads the version's operations, paths, parameters and servers: its cost is the version's size.
    longRunning: true,
    doc: {
      operationId: `searchEndpoints${family.operationIdSuffix}`, tag: SEARCH_TAG.name, params: family.params,
      summary: 'Search endpoints',
      description: 'Operations whose operationId, path, summary, tags, parameter names or description have the query\'s words (a word also matches as the start, four letters or more, of a longer word), ranked by the sum of the matching fields\' weights: operationId and path 10, summary 5, tags and parameter names 3, description 1. Each hit carries its servers (the operation\'s, else the path\'s, else the service\'s) and the security requirement that applies (the operation\'s own, else the service\'s), resolved to the security schemes.',
      query: [
        { name: 'q', description: 'Words to look for: letters and digits, split at anything else (a `q` with neither is 400).', schema: { type: 'string', pattern: '[\\p{L}\\p{N}]' }, required: true },
        { name: 'limit', description: `At most this many hits; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
        { name: 'service', description: 'Only the operations of this service (slug); an unknown slug is 404.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceSlug` } },
      ],
      responses: [{ status: 200, description: 'The hits, best first.', schema: { $ref: `${SCHEMA_BASE}api/search.json` } }],
      errors: [404],
    },
    async run({ version, query }) {
      const options = searchOptions(query as Record<string, string | undefined>);
      const view = await viewOf(stores, version!.versionId, SEARCH_COLLECTIONS);
      return { status: 200, body: { hits: await withObserved(observations, version!.versionId, search(view, options)) } };
    },
  }));
}

/** The query parameters, each given once (the pipeline checked): `q` has words, `limit` is 1–100, `service` a slug. */
export function searchOptions(query: Readonly<Record<string, string | undefined>>): { query: string; limit: number; service?: string } {
  const q = query['q'];
  if (q === undefined || queryWords(q).length === 0) throw InvalidRequest.field('q', 'must have at least one word');
  const limitText = query['limit'];
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw InvalidRequest.field('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const service = query['service'];
  if (service !== undefined && !/^[a-z0-9-]+$/.test(service)) throw InvalidRequest.field('service', 'must be a service slug (lowercase letters, digits and hyphens)');
  return { query: q, limit, ...(service === undefined ? {} : { service }) };
}
