// The search route (server/search/routes.ts) on both families and POST /mcp (server/mcp/route.ts)
// as documented routes.
import { MCP_PATH } from '../mcp/route.ts';
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
      { name: 'q', description: 'What to look for, in plain words ("delete a repository").', schema: { type: 'string', minLength: 1 }, required: true },
      { name: 'limit', description: `At most this many hits; default ${DEFAULT_LIMIT}.`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
      { name: 'service', description: 'Only the operations of this service (slug); an unknown slug is 404.', schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    ],
    responses: [{ status: 200, description: 'The hits, best first.', schema: { $ref: `${SCHEMA_BASE}api/search.json` } }],
    errors: [400, 401, 403, 404, 500, 503],
  })),
  {
    method: 'POST', path: MCP_PATH, operationId: 'mcp', tag: SEARCH_TAG.name, access: 'read',
    summary: 'Model Context Protocol (Streamable HTTP)',
    description: 'JSON-RPC messages of the Model Context Protocol, stateless (no session id; GET and DELETE are 405). Tools: `list_versions {project}`, `list_services {version}`, `search_endpoints {version, query, service?, limit?}`, `get_endpoint {version, operation}`, `get_openapi {version, service}`; `version` is a `ver_` id or `project/type/slug`. A tool sees only the projects the credential reaches; failures are tool errors with the HTTP interface\'s `error` text (`Forbidden`, `Operation not found`, ...).',
    body: { schema: { type: 'object', description: 'A JSON-RPC 2.0 request, notification or batch (MCP).' }, mediaTypes: ['application/json'] },
    responses: [
      { status: 200, description: 'The JSON-RPC response.', schema: { type: 'object', description: 'A JSON-RPC 2.0 response (MCP).' } },
      { status: 202, description: 'A notification or response was accepted; no body.' },
    ],
    errors: [400, 401, 405, 413, 415, 500, 503],
  },
];
