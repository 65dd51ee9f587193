// The search route (server/search/routes.ts) on both families as documented routes; POST /mcp is
// in mcp-routes.ts.
import { FAMILIES } from '../routes/table.ts';
import { SCHEMA_BASE } from '../schemas/registry.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, SEARCH_SEGMENT } from '../search/routes.ts';
import { FAMILY_PARAMS } from './collection-routes.ts';
import type { DocumentedRoute, Tag } from './documented-route.ts';

export const SEARCH_TAG: Tag = {
  name: 'Search',
  description: 'Find an endpoint and the credentials it needs: a ranked search over operations, and the same catalog as Model Context Protocol tools for agents.',
};

export const searchRouteDocs: readonly DocumentedRoute[] = [
  ...FAMILIES.map((family): DocumentedRoute => ({
    method: 'GET', path: `${family.prefix}${SEARCH_SEGMENT}`, operationId: `searchEndpoints${family.name === 'V' ? '' : 'ByProject'}`,
    tag: SEARCH_TAG.name, access: 'read', params: FAMILY_PARAMS[family.name]!,
    summary: 'Search endpoints',
    description: 'Operations matching the query\'s words, best first. Each operation is a document of a BM25 index (MiniSearch) with per-field boosts: operationId (split at camelCase, `_`, `-` and `/`) and summary 2, path segments 1.5, tags, service name and slug, and the method with the verbs people use for it (create/add/new/open/make for POST, list/get/find/show/read/retrieve for GET, update/edit/change/set/modify for PUT and PATCH, delete/remove/cancel for DELETE) 1, parameter names and description 0.5. Words are stemmed (Porter2: `repositories` finds `repository`), English stop words dropped, a word of four letters or more also matches as a prefix and one of five or more with one typo. The best 100 are then ordered again by how well the query names each operation: all its words in the operationId, summary or method, and little else there (a verb counts as its action, an abbreviation such as `repo` as its word), and a path ending in a parameter for update and delete, in a name for create and list. `score` is that final relevance (higher is better; comparable within one answer only); ties go by operationId. Each version\'s index is kept in the instance and rebuilt on the first search after any write to the version, so answers always include every write. Each hit carries its servers (the operation\'s, else the path\'s, else the service\'s) and the security requirement that applies (the operation\'s own, else the service\'s), resolved to the security schemes.',
    query: [
      { name: 'q', description: 'What to look for, in plain words ("delete a repository"); a `q` with no letter or digit is 400.', schema: { type: 'string', pattern: '[\\p{L}\\p{N}]' }, required: true },
      { name: 'limit', description: `At most this many hits; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
      { name: 'service', description: 'Only the operations of this service (slug); an unknown slug is 404.', schema: { $ref: `${SCHEMA_BASE}defs/ids.json#/$defs/serviceSlug` } },
    ],
    responses: [{ status: 200, description: 'The hits, best first.', schema: { $ref: `${SCHEMA_BASE}api/search.json` } }],
    errors: [400, 401, 403, 404, 500, 503],
  })),
];
