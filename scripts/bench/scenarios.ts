// What is measured: each scenario is one kind of request, sent in turn to each of its variants
// (the same request to a different server, or with a different credential).
import { createBodies, PATCH_BODY } from './fixtures.ts';
import type { Method, Target } from './load.ts';
import type { Ready, ServerName } from './protocol.ts';

export type VariantName = 'service' | 'service-v' | 'service-pat' | 'bare-memory' | 'bare-db';

export const VARIANTS: Record<VariantName, { server: ServerName; credential: 'apiKey' | 'token'; description: string }> = {
  'service': { server: 'service', credential: 'apiKey', description: 'the real app (createApp over openRuntime), project API key' },
  'service-v': { server: 'service', credential: 'apiKey', description: "the real app, project API key, the same request by version id (family V): family P's scenarios compare with it" },
  'service-pat': { server: 'service', credential: 'token', description: 'the real app with a personal access token (JWT: no key lookup in the database)' },
  'bare-memory': { server: 'bareMemory', credential: 'apiKey', description: "bare Express 5 answering the service's JSON from memory" },
  'bare-db': { server: 'bareDb', credential: 'apiKey', description: "bare Express 5 calling the service's record store directly (same database calls)" },
};

export interface Scenario {
  id: string;
  title: string;
  /** The request as a route, for the report. */
  request: string;
  variants: readonly VariantName[];
  /** What the service does to the database per request, against bare-db. */
  databaseCalls: { service: string; bareDb: string };
  target(context: TargetContext, variant: VariantName): Target;
}

export interface TargetContext {
  ready: Ready;
  /** Seeded record ids; item requests cycle through them. */
  ids: readonly string[];
}

// Both credentials everywhere: a token needs no key lookup, so the two show what authentication costs.
const READ_VARIANTS: readonly VariantName[] = ['service', 'service-pat', 'bare-memory', 'bare-db'];
const WRITE_VARIANTS: readonly VariantName[] = ['service', 'service-pat', 'bare-db'];
// Family P's scenarios also send their request by version id, in the same rounds: P should stay
// within 5% of V, and only variants measured back to back make a steady ratio.
const FAMILY_P_VARIANTS: readonly VariantName[] = ['service', 'service-v', ...READ_VARIANTS.slice(1)];
/** The largest page the interface allows. */
export const BIG_PAGE = 1000;
// The key's lookup is remembered for API_KEY_CACHE_MS (10 s), so a burst makes it once.
const AUTH = '(apiKeys.findOne(_id: sha256) once per 10 s)';

/** The prefix a family P scenario's variant addresses: by version id for `service-v`, else by project. */
function familyP(ready: Ready, variant: VariantName): string {
  return prefixes(ready)[variant === 'service-v' ? 'V' : 'P'];
}

function prefixes(ready: Ready): { V: string; P: string } {
  return {
    V: `/v2/catalog/versions/${ready.version.id}`,
    P: `/v2/catalog/projects/${ready.project.slug}/${ready.version.type}/${ready.version.slug}`,
  };
}

function cycle(ids: readonly string[], make: (id: string) => string): () => string {
  let next = 0;
  return () => make(ids[next++ % ids.length]!);
}

function target(context: TargetContext, variant: VariantName, method: Method, path: () => string, expect: number, body?: () => unknown): Target {
  const { server, credential } = VARIANTS[variant];
  const headers: Record<string, string> = { Authorization: `Bearer ${credential === 'token' ? context.ready.token : context.ready.apiKey}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return {
    origin: `http://127.0.0.1:${context.ready.ports[server]}`,
    method,
    path,
    headers,
    ...(body !== undefined && { body: () => JSON.stringify(body()) }),
    expect,
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'get-v',
    title: 'GET one path (family V)',
    request: 'GET /v2/catalog/versions/{versionId}/paths/{id}',
    variants: ['service', 'service-pat', 'bare-memory', 'bare-db'],
    databaseCalls: { service: `${AUTH} + paths.findOne(_id)`, bareDb: 'paths.findOne(_id)' },
    target: (context, variant) => target(context, variant, 'GET', cycle(context.ids, (id) => `${prefixes(context.ready).V}/paths/${id}`), 200),
  },
  {
    id: 'get-p',
    title: 'GET one path (family P, by project slug)',
    request: 'GET /v2/catalog/projects/{slug}/branch/{slug}/paths/{id}',
    variants: FAMILY_P_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.findOne(_id) (version address cached)`, bareDb: 'paths.findOne(_id)' },
    target: (context, variant) => target(context, variant, 'GET', cycle(context.ids, (id) => `${familyP(context.ready, variant)}/paths/${id}`), 200),
  },
  {
    id: 'list',
    title: 'List 50 paths (default order)',
    request: 'GET /v2/catalog/versions/{versionId}/paths',
    variants: READ_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.find({versionId}).sort({id}).limit(51)`, bareDb: 'paths.find({versionId}).sort({id}).limit(51)' },
    target: (context, variant) => target(context, variant, 'GET', () => `${prefixes(context.ready).V}/paths`, 200),
  },
  {
    id: 'list-p',
    title: 'List 50 paths (family P, by project slug)',
    request: 'GET /v2/catalog/projects/{slug}/branch/{slug}/paths',
    variants: FAMILY_P_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.find({versionId}).sort({id}).limit(51) (version address cached)`, bareDb: 'paths.find({versionId}).sort({id}).limit(51)' },
    target: (context, variant) => target(context, variant, 'GET', () => `${familyP(context.ready, variant)}/paths`, 200),
  },
  {
    id: 'list-1000',
    title: `List up to ${BIG_PAGE} paths in one page (all of them unless --records is larger)`,
    request: `GET /v2/catalog/versions/{versionId}/paths?limit=${BIG_PAGE}`,
    variants: READ_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.find({versionId}).sort({id}).limit(${BIG_PAGE + 1})`, bareDb: `paths.find({versionId}).sort({id}).limit(${BIG_PAGE + 1})` },
    target: (context, variant) => target(context, variant, 'GET', () => `${prefixes(context.ready).V}/paths?limit=${BIG_PAGE}`, 200),
  },
  {
    id: 'list-sort',
    title: 'List 50 paths, sort=path',
    request: 'GET /v2/catalog/versions/{versionId}/paths?sort=path',
    variants: READ_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.find({versionId}).sort({path, id}).limit(51) + cursorPositions.replaceOne(upsert)`, bareDb: 'paths.find({versionId}).sort({path, id}).limit(51) + cursorPositions.replaceOne(upsert)' },
    target: (context, variant) => target(context, variant, 'GET', () => `${prefixes(context.ready).V}/paths?sort=path`, 200),
  },
  {
    id: 'patch',
    title: 'PATCH one field of a path',
    request: 'PATCH /v2/catalog/versions/{versionId}/paths/{id}  {"summary": …}',
    variants: WRITE_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.findOne(_id) + paths.findOneAndUpdate(_id)`, bareDb: 'paths.findOne(_id) + paths.findOneAndUpdate(_id)' },
    target: (context, variant) => target(context, variant, 'PATCH', cycle(context.ids, (id) => `${prefixes(context.ready).V}/paths/${id}`), 200, () => PATCH_BODY),
  },
  {
    id: 'create',
    title: 'POST create a path',
    request: 'POST /v2/catalog/versions/{versionId}/paths  {serviceId, path, summary, description, kvStorage}',
    variants: WRITE_VARIANTS,
    databaseCalls: { service: `${AUTH} + paths.insertOne`, bareDb: 'paths.insertOne' },
    target: (context, variant) => target(context, variant, 'POST', () => `${prefixes(context.ready).V}/paths`, 201, createBodies()),
  },
];
