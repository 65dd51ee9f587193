// The fuzz suite's request generator (fast-check): requests of every shape against every route of
// the route table. Most are near misses of valid requests (the right route and credential, a body
// derived from the collection's schema with one mutation), the rest hostile: foreign methods,
// malformed ids, stray query parameters, bad credentials, wrong media types, broken JSON.
import fc from 'fast-check';
import { loadConfig } from '../../server/config.ts';
import { routeTable, type RecordRoute as Route } from '../../server/records/table.ts';
import { schemas, exactJson, newIdOf, sampleOf, writableFields } from '../support/records.ts';

export interface FuzzRequest {
  method: string;
  /** Request target: path and query, percent-encoded where it must be. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the generator aims at: the fuzzed tenant, a bystander it must never reach, their credentials. */
export interface Targets {
  versionId: string;
  projectId: string;
  projectSlug: string;
  versionSlug: string;
  versionType: string;
  /** Read-write and read-only keys and a token of the fuzzed tenant. */
  keys: { readWrite: string; readOnly: string; token: string };
  /** The bystander's version id, and a read-write key of a third project that reaches neither. */
  bystander: { versionId: string; strangerKey: string };
  /** Ids of records that exist, by collection. */
  existing: Record<string, string[]>;
}

/** How the generated requests are mixed beyond the defaults. */
export interface GenerateOptions {
  /** Weight (against 16 for the other bodies) of bodies near a record limit; 0: none. */
  nearLimits?: number;
  /** The service's record limits, which those bodies come near. */
  limits?: { maxKeys: number; maxDepth: number; maxBytes: number };
}

/** The service's defaults (README, Limits). */
const DEFAULT_LIMITS = loadConfig({}).recordLimits;

const ROUTES = routeTable(schemas.collections);

/** Percent-encoding that also sends lone surrogates (as the invalid UTF-8 a careless client would). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.toWellFormed()) + '%ED%A0%80';
  }
}

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '.', '..', '%', '%00', '%2F', '%ZZ', '\u0000', '\ud800', 'null', 'undefined', '[object Object]', '__proto__',
    'constructor', '$where', '{"$gt":""}', 'a'.repeat(300), '../../etc/passwd', 'ver_', 'path_', '💥', '\u202e'),
);

/** An id for an item route: existing, fresh and well-formed, of another kind, or garbage. */
function idFor(route: Route, targets: Targets): fc.Arbitrary<string> {
  const existing = targets.existing[route.collection.name] ?? [];
  return fc.oneof(
    { weight: 4, arbitrary: existing.length ? fc.constantFrom(...existing) : fc.constant(newIdOf(route.collection.idPrefix)) },
    { weight: 2, arbitrary: fc.constant(null).map(() => newIdOf(route.collection.idPrefix)) },
    { weight: 1, arbitrary: fc.constant(null).map(() => newIdOf('zzz_')) },
    { weight: 2, arbitrary: hostileText },
  );
}

function prefixFor(route: Route, targets: Targets): fc.Arbitrary<string> {
  if (route.family.name === 'V') {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant(targets.versionId) },
      { weight: 1, arbitrary: fc.constant(targets.bystander.versionId) },
      { weight: 1, arbitrary: fc.constant(null).map(() => newIdOf('ver_')) },
      { weight: 2, arbitrary: hostileText },
    ).map((versionId) => `/v2/catalog/versions/${encode(versionId)}`);
  }
  return fc.tuple(
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(targets.projectSlug, targets.projectId) }, { weight: 1, arbitrary: hostileText }),
    fc.oneof({ weight: 6, arbitrary: fc.constant(targets.versionType) }, { weight: 1, arbitrary: fc.constantFrom('branch', 'environment', 'tag', 'Branch') }, { weight: 1, arbitrary: hostileText }),
    fc.oneof({ weight: 6, arbitrary: fc.constant(targets.versionSlug) }, { weight: 1, arbitrary: hostileText }),
  ).map((parts) => `/v2/catalog/projects/${parts.map((part) => encode(part)).join('/')}`);
}

function queryFor(route: Route): fc.Arbitrary<string> {
  const fields = [...route.collection.fields];
  const parameter = fc.oneof(
    fc.tuple(fc.constant('limit'), fc.oneof(fc.integer({ min: -5, max: 1200 }).map(String), hostileText)),
    fc.tuple(fc.constant('sort'), fc.oneof(fc.constantFrom(...fields, ...fields.map((f) => `-${f}`), 'id,-id', ''), hostileText)),
    fc.tuple(fc.constant('cursor'), fc.oneof(fc.constant(null).map(() => newIdOf(route.collection.idPrefix)), hostileText)),
    fc.tuple(fc.constantFrom(...route.collection.filters.keys(), 'updatedAfter'), fc.oneof(fc.constant(null).map(() => newIdOf('svc_')), fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())), hostileText)),
    fc.tuple(fc.oneof(fc.constantFrom('access_token', 'filter', '$where', '__proto__'), hostileText), hostileText),
  );
  const list = fc.array(parameter, { maxLength: 3 });
  return fc.oneof({ weight: route.action.name === 'list' ? 2 : 6, arbitrary: fc.constant('') }, { weight: 2, arbitrary: list.map((pairs) =>
    (pairs.length ? `?${pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}` : '')) });
}

/**
 * A valid sample whose kvStorage comes near one record limit: keys (the sample's own and a few
 * to spare left under it), nesting, or size. Such records are what cost FerretDB most to read.
 */
function nearLimitBody(sample: Record<string, unknown>, limits: NonNullable<GenerateOptions['limits']>, which: number): Record<string, unknown> {
  const spare = 200;
  if (which === 0) {
    const keys = Math.max(1, limits.maxKeys - spare);
    return { ...sample, kvStorage: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])) };
  }
  if (which === 1) {
    let nested: unknown = 'deep';
    for (let level = 0; level < limits.maxDepth - 4; level++) nested = { d: nested };
    return { ...sample, kvStorage: { nested } };
  }
  return { ...sample, kvStorage: { text: 'x'.repeat(Math.max(1, limits.maxBytes - 64 * 1024)) } };
}

/** A body derived from the collection's schema (a valid sample) with at most one mutation, or hostile text. */
function bodyFor(route: Route, id: string, options: GenerateOptions): fc.Arbitrary<string | undefined> {
  const collection = route.collection;
  const valid = fc.constant(null).map(() => {
    const sample = sampleOf(collection);
    return route.action.item && route.action.name === 'replace' ? { ...sample, id } : sample;
  });
  const fields = writableFields(collection);
  const mutated = fc.tuple(valid, fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }), fc.nat(4)).map(([sample, field, value, how]) => {
    const body: Record<string, unknown> = { ...sample };
    if (how === 0) delete body[field];
    else if (how === 1) body[field] = value;
    else if (how === 2) body[`x${field}`] = value;
    else if (how === 3) body['id'] = value;
    else body['versionId'] = value;
    return body;
  });
  const partial = fc.tuple(valid, fc.subarray(fields)).map(([sample, chosen]) => Object.fromEntries(chosen.map((f) => [f, sample[f]])));
  const hostileJson = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((value) => exactJson(value)),
    fc.constantFrom('', ' ', 'null', '[]', '{', '{"a":', '{"a":1,"a":2}', '{"kvStorage":{"$gt":1}}', '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}', '"\\ud800"', '{"path":"\\ud800"}', '1e400', '{"n":1e400}', '\u0000', '\ufeff{}',
      `${'['.repeat(200)}${']'.repeat(200)}`, `{"kvStorage":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`),
  );
  const nearLimit = fc.tuple(valid, fc.nat(2)).map(([sample, which]) => nearLimitBody(sample, options.limits ?? DEFAULT_LIMITS, which));
  const near = options.nearLimits && collection.fields.has('kvStorage') ? [{ weight: options.nearLimits, arbitrary: nearLimit.map(exactJson) }] : [];
  return fc.oneof(
    ...near,
    { weight: 4, arbitrary: valid.map(exactJson) },
    { weight: 6, arbitrary: mutated.map(exactJson) },
    { weight: 2, arbitrary: partial.map(exactJson) },
    { weight: 3, arbitrary: hostileJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function headersFor(targets: Targets): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    { weight: 10, arbitrary: fc.constant(`Bearer ${targets.keys.readWrite}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${targets.keys.readOnly}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${targets.keys.token}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${targets.bystander.strangerKey}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `bearer ${targets.keys.readWrite}`, `Bearer ${targets.keys.readWrite}x`,
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', `Bearer ${targets.keys.readWrite} ${targets.keys.readWrite}`) },
    { weight: 1, arbitrary: hostileText.map((text) => `Bearer ${text.replace(/[^\x21-\x7e]/g, '')}`) },
  );
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x', 'application/merge-patch+json', 'application/json; charset=latin1', 'APPLICATION/JSON', '') },
  );
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Record<string, string>>({}) },
    { weight: 1, arbitrary: fc.constantFrom<Record<string, string>>({ 'content-encoding': 'gzip' }, { 'content-encoding': 'br' }, { 'content-encoding': 'x-unknown' },
      { 'x-request-id': 'fuzz-id' }, { 'x-request-id': 'bad id with spaces' }, { accept: 'application/xml' }, { 'x-http-method-override': 'DELETE' },
      { 'x-forwarded-for': '203.0.113.9' }, { 'transfer-encoding': 'chunked' }) },
  );
  return fc.tuple(authorization, contentType, extra).map(([auth, type, more]): Record<string, string> => ({
    ...(auth === '' ? {} : { authorization: auth }),
    ...(type === '' ? {} : { 'content-type': type }),
    ...more,
  }));
}

const OTHER_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'];

/** One generated request. */
export function requestArbitrary(targets: Targets, options: GenerateOptions = {}): fc.Arbitrary<FuzzRequest> {
  const onRoute = fc.constantFrom(...ROUTES).chain((route) => fc.record({
    route: fc.constant(route),
    prefix: prefixFor(route, targets),
    id: idFor(route, targets),
    query: queryFor(route),
    method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.action.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) }),
    headers: headersFor(targets),
  }).chain((parts) => bodyFor(route, parts.id, options).map((body) => {
    const path = `${parts.prefix}/${route.collection.name}${route.action.item ? `/${encode(parts.id)}` : ''}`;
    // GET, HEAD and OPTIONS go without a body; DELETE sometimes carries a stray one.
    const sendsBody = ['GET', 'HEAD', 'OPTIONS'].includes(parts.method) ? undefined : body;
    return { method: parts.method, url: path + parts.query, headers: parts.headers, body: sendsBody };
  })));
  const offRoute = fc.record({
    method: fc.constantFrom(...OTHER_METHODS),
    url: fc.oneof(
      fc.constantFrom('/', '/v2', '/v2/catalog', '/v2/catalog/versions', `/v2/catalog/versions/${targets.versionId}`, '/healthz', '/metrics', '/%', '/%zz',
        `/v2/catalog/versions/${targets.versionId}/unknown`, `/V2/catalog/versions/${targets.versionId}/paths`, `/v2/catalog/versions/${targets.versionId}/paths/`,
        `/v2/catalog/versions/${targets.versionId}/paths/a/b`, '//v2//catalog', '/v2/catalog/versions/%2e%2e/paths'),
      hostileText.map((text) => `/${encode(text)}`),
    ),
    headers: headersFor(targets),
  }).map((request) => (request.method === 'DELETE' && request.url === `/v2/catalog/versions/${targets.versionId}`
    // The version route came after this list: deleting the fuzzed version would leave the rest
    // of a run answering 403 (and no load on its records), so that DELETE aims at an unknown one.
    ? { ...request, url: `/v2/catalog/versions/${newIdOf('ver_')}` }
    : request));
  return fc.oneof({ weight: 19, arbitrary: onRoute }, { weight: 1, arbitrary: offRoute });
}

/** `count` requests, the same ones for the same seed. */
export function generateRequests(targets: Targets, count: number, seed: number, options: GenerateOptions = {}): FuzzRequest[] {
  return fc.sample(requestArbitrary(targets, options), { numRuns: count, seed });
}
