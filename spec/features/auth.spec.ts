// Authentication (401) and authorization (403), walked over every route of the route table:
// both route families, family P by project id and by project slug, both collections, every
// operation; both bearer schemes (project API keys and personal access tokens).
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { issueToken, SCOPE_READ, SCOPE_WRITE, TOKEN_AUDIENCE } from '../../server/auth/tokens.ts';
import { newId } from '../../server/ids.ts';
import { ACTIONS, routeTable, type RecordRoute } from '../../server/records/table.ts';
import { FAMILIES, type Family } from '../../server/routes/route.ts';
import type { CompiledCollection } from '../../server/schemas/registry.ts';
import type { Version } from '../../server/tenancy/versions.ts';
import {
  BOTH_SCOPES, claims, craftJwt, nowSeconds, oneCharOff, rsaPrivateKey, unknownApiKey, withPayload, type Claims,
} from '../support/credentials.ts';
import { testDatabase } from '../support/database.ts';
import { expectError, expectInvalid } from '../support/expect.ts';
import { bearer, givenTenant, JWT_SECRET, catalogForSuite, tokenFor, type Tenant, type TestCatalog } from '../support/catalog.ts';
import { schemas as sampleCatalog, sampleOf } from '../support/records.ts';

type Headers = Record<string, string>;

/** The ways a version is addressed: family V by its id, family P by project id or project slug. */
type Form = 'version id' | 'project id' | 'project slug';
const FORMS: Record<Family['name'], readonly Form[]> = { V: ['version id'], P: ['project id', 'project slug'] };

/** Everything any route prefix may need to name a version (possibly one that does not exist). */
interface Address {
  versionId: string;
  projectId: string;
  projectSlug: string;
  versionType: string;
  versionSlug: string;
}

/** One concrete request line: a route of the table, an address form, and the URL they make. */
interface Target {
  route: RecordRoute;
  form: Form;
  url: string;
  /** Route and form, without the values: the same for every address, so responses can be compared by it. */
  key: string;
}

/** A valid body per collection (fresh ids and natural keys on each call), from the shared samples. */
const SAMPLES: Record<string, () => Record<string, unknown>> = Object.fromEntries(
  sampleCatalog.collections.map((collection) => [collection.name, () => sampleOf(collection)]),
);

const UNAUTHORIZED_BODY = '{"error":"Unauthorized"}';
const FORBIDDEN_BODY = '{"error":"Forbidden"}';
const READ_ONLY_BODY = '{"error":"Forbidden","details":[{"field":"Authorization","message":"the credential is read-only"}]}';

describe('authentication and authorization', () => {
  let service: TestCatalog;
  let routes: RecordRoute[];
  /** Tenants A and B are the main cast; C is a bystander. */
  let A: Tenant;
  let B: Tenant;
  let C: Tenant;

  catalogForSuite((made) => ({ service, tenant: A } = made), { BODY_LIMIT: '4kb' });
  before(async () => {
    routes = routeTable(service.runtime.schemas.collections);
    [B, C] = await Promise.all([givenTenant(service), givenTenant(service)]);
  });

  // ---------------------------------------------------------------------------------------------
  // Helpers: targets from the route table, requests, and what a response must look like.

  function addressOf(tenant: Tenant, version: Version = tenant.version): Address {
    return {
      versionId: version.id, projectId: tenant.project.id, projectSlug: tenant.project.slug,
      versionType: version.type, versionSlug: version.slug,
    };
  }

  /** The URL of `route` for `address` in `form`, filled in from the route's own Express path. */
  function urlOf(route: RecordRoute, form: Form, address: Address, id: string): string {
    const params: Record<string, string> = {
      versionId: address.versionId,
      projectRef: form === 'project slug' ? address.projectSlug : address.projectId,
      versionType: address.versionType,
      versionSlug: address.versionSlug,
      id,
    };
    return route.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`no value for :${name} in ${route.path}`);
      return encodeURIComponent(value);
    });
  }

  /** Every route of the table (optionally only some), in every address form of its family. */
  function targets(address: Address, only: (route: RecordRoute) => boolean = () => true, id?: (collection: CompiledCollection) => string): Target[] {
    return routes.filter(only).flatMap((route) => FORMS[route.family.name].map((form) => ({
      route,
      form,
      url: urlOf(route, form, address, id?.(route.collection) ?? newId(route.collection.idPrefix)),
      key: `${route.action.method} ${route.path} by ${form}`,
    })));
  }

  const isWrite = (route: RecordRoute): boolean => route.action.access === 'write';
  const isRead = (route: RecordRoute): boolean => route.action.access === 'read';

  /** A body the operation would accept, so that only the credential can be wrong. */
  function validBody(route: RecordRoute, url: string): unknown {
    const sample = SAMPLES[route.collection.name]!();
    const id = url.slice(url.lastIndexOf('/') + 1);
    switch (route.action.name) {
      case 'create': return { id: newId(route.collection.idPrefix), ...sample };
      case 'replace': return { id, ...sample };
      case 'update': return { kvStorage: { patched: true } };
      default: return undefined;
    }
  }

  interface Send {
    headers?: Headers;
    /** A JSON value, or a string sent as it is (with `contentType`). Default: a valid body. */
    body?: unknown;
    contentType?: string;
    query?: string;
  }

  function call(target: Target, { headers = {}, body, contentType, query = '' }: Send = {}): Promise<Response> {
    const method = target.route.action.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    const test = service.request[method](target.url + query).set(headers);
    if (!target.route.action.body) return test;
    if (contentType) test.set('Content-Type', contentType);
    return test.send((body ?? validBody(target.route, target.url)) as object);
  }

  /** The same request to every target, all at once; each response paired with its target. */
  async function callAll(list: readonly Target[], send: Send | ((target: Target) => Send) = {}): Promise<Array<[Target, Response]>> {
    const responses = await Promise.all(list.map((target) => call(target, typeof send === 'function' ? send(target) : send)));
    return list.map((target, i) => [target, responses[i]!]);
  }

  /** What an attacker sees of a response, minus what differs on every request anyway. */
  function fingerprint(res: Response): { status: number; body: string; headers: Record<string, unknown> } {
    const { 'x-request-id': _requestId, date: _date, ...headers } = res.headers as Record<string, unknown>;
    return { status: res.status, body: res.text, headers };
  }

  function describeRes(target: Target, res: Response, label = ''): string {
    return `${label} ${target.key} (${target.url}) → ${res.status} ${res.text}`;
  }

  /**
   * 401 with exactly `{"error":"Unauthorized"}`, `WWW-Authenticate: Bearer`, and every byte
   * (but the request id and date) the same as the answer to a request without credentials.
   */
  function expectUnauthorized(results: Array<[Target, Response]>, label: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) {
      const what = describeRes(target, res, label);
      expectError(res, 401, 'Unauthorized');
      expect(res.text, what).to.equal(UNAUTHORIZED_BODY);
      expect(res.headers['www-authenticate'], what).to.equal('Bearer');
      expect(fingerprint(res), what).to.deep.equal(reference401.get(target.key));
    }
  }

  /** 403 with exactly `{"error":"Forbidden"}`, byte-identical to an out-of-reach project's answer. */
  function expectForbidden(results: Array<[Target, Response]>, label: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) {
      const what = describeRes(target, res, label);
      expectError(res, 403, 'Forbidden');
      expect(res.text, what).to.equal(FORBIDDEN_BODY);
      expect(res.headers, what).to.not.have.property('www-authenticate');
      expect(fingerprint(res), what).to.deep.equal(reference403.get(target.key));
    }
  }

  /**
   * An unknown address told to a credential that could list what exists (the version of a
   * project it reads; any project or version id to one that reaches every project): Forbidden,
   * with one `details` entry naming the unknown part.
   */
  function expectNamedUnknown(results: Array<[Target, Response]>, label: string, field: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) {
      const what = describeRes(target, res, label);
      expectError(res, 403, 'Forbidden');
      expect(res.body.details, what).to.have.length(1);
      expect(res.body.details[0].field, what).to.equal(field);
      expect(res.headers, what).to.not.have.property('www-authenticate');
    }
  }

  /**
   * A read-only credential writing where it can read: 403 with its own `error` text, and otherwise
   * the answer an out-of-reach project gets (same status and headers).
   */
  function expectReadOnly(results: Array<[Target, Response]>, label: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) {
      const what = describeRes(target, res, label);
      expect(res.text, what).to.equal(READ_ONLY_BODY);
      const withoutLength = ({ body: _body, headers: { 'content-length': _length, ...headers }, ...rest }: ReturnType<typeof fingerprint>) => ({ ...rest, headers });
      expect(withoutLength(fingerprint(res)), what).to.deep.equal(withoutLength(reference403.get(target.key)!));
    }
  }

  function expectStatus(results: Array<[Target, Response]>, status: number, label: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) expect(res.status, describeRes(target, res, label)).to.equal(status);
  }

  /**
   * Reads that got past authorization: list 200, and get of a fresh id the collection's 404,
   * which the pipeline only reaches once the credential was accepted.
   */
  function expectReadGranted(results: Array<[Target, Response]>, label: string): void {
    expect(results).to.not.be.empty;
    for (const [target, res] of results) {
      const what = describeRes(target, res, label);
      if (target.route.action.name === 'list') expect(res.status, what).to.equal(200);
      else expect([res.status, res.body.error], what).to.deep.equal([404, target.route.collection.notFound]);
    }
  }

  /** Responses to the reference requests, by target key. */
  const reference401 = new Map<string, ReturnType<typeof fingerprint>>();
  const reference403 = new Map<string, ReturnType<typeof fingerprint>>();

  before(async () => {
    // 401 reference: no credentials at all. 403 reference: a valid key of another project.
    for (const [target, res] of await callAll(targets(addressOf(A)))) reference401.set(target.key, fingerprint(res));
    for (const [target, res] of await callAll(targets(addressOf(A)), { headers: bearer(B.key) })) reference403.set(target.key, fingerprint(res));
  });

  /**
   * Every operation of every route of `collection` in `form`, in the table's order (list,
   * create, get, replace, update, delete), each expecting its first success status. Returns
   * the routes it used.
   */
  async function walk(address: Address, form: Form, collection: CompiledCollection, headers: Headers): Promise<RecordRoute[]> {
    const id = newId(collection.idPrefix);
    const used: RecordRoute[] = [];
    for (const operation of ACTIONS) {
      const route = routes.find((candidate) => candidate.collection === collection && candidate.action === operation
        && FORMS[candidate.family.name].includes(form));
      expect(route, `${operation.name} on ${collection.name} by ${form}`).to.not.equal(undefined);
      const target: Target = { route: route!, form, url: urlOf(route!, form, address, id), key: '' };
      const body = operation.name === 'create' ? { id, ...SAMPLES[collection.name]!() } : undefined;
      const res = await call(target, { headers, body });
      expect(res.status, describeRes(target, res, 'walk')).to.equal(operation.success[0]!.status);
      if (operation.item && operation.name !== 'delete') expect(res.body.id, describeRes(target, res)).to.equal(id);
      used.push(route!);
    }
    return used;
  }

  /** `walk` on every collection in every form of every family, in parallel; checks the whole table was used. */
  async function walkEverything(tenant: Tenant, headers: Headers): Promise<void> {
    const runs = service.runtime.schemas.collections.flatMap((collection) => FAMILIES.flatMap((family) =>
      FORMS[family.name].map((form) => walk(addressOf(tenant), form, collection, headers))));
    const used = new Set((await Promise.all(runs)).flat());
    expect(used.size).to.equal(routes.length);
  }

  async function seed(tenant: Tenant, collection: CompiledCollection): Promise<Record<string, unknown>> {
    const res = await service.request.post(`${tenant.prefixes.byId}/${collection.name}`).set(bearer(tenant.key))
      .send(SAMPLES[collection.name]!());
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  const token = (projects: readonly string[], overrides: Claims = {}): string => craftJwt(claims(projects, overrides));

  // ---------------------------------------------------------------------------------------------

  describe('the route table', () => {
    it('is walked whole: every family has address forms, every collection a sample record', () => {
      expect(FAMILIES.map((family) => family.name).sort()).to.deep.equal(Object.keys(FORMS).sort());
      expect(service.runtime.schemas.collections.map((collection) => collection.name).sort()).to.deep.equal(Object.keys(SAMPLES).sort());
      expect(routes).to.have.length(FAMILIES.length * service.runtime.schemas.collections.length * ACTIONS.length);
      const forms = routes.reduce((sum, route) => sum + FORMS[route.family.name].length, 0);
      expect(targets(addressOf(A))).to.have.length(forms).and.to.be.above(routes.length);
    });
  });

  describe('401 Unauthorized', () => {
    let revokedKey: string;
    let rsaKey: ReturnType<typeof rsaPrivateKey>;

    before(async () => {
      rsaKey = rsaPrivateKey();
      const { apiKey, secret } = await service.runtime.tenancy.apiKeys.create(A.project.id, false);
      await service.runtime.tenancy.apiKeys.revoke(apiKey.id);
      revokedKey = secret;
    });

    it('no Authorization header: exactly {"error":"Unauthorized"} with WWW-Authenticate: Bearer, on every route', async () => {
      expectUnauthorized(await callAll(targets(addressOf(A))), 'no header');
    });

    it('the positive controls: hand-crafted and jsonwebtoken-signed HS256 tokens with the right claims, and the keys, authenticate', async () => {
      const list = targets(addressOf(A), isRead);
      const good = [
        token([A.project.id]),
        jwt.sign({ projects: [A.project.id], scope: BOTH_SCOPES }, JWT_SECRET, {
          algorithm: 'HS256', audience: TOKEN_AUDIENCE, subject: 'someone', expiresIn: 60,
        }),
        tokenFor([A.project.id]),
        A.key,
        A.readOnlyKey,
      ];
      await Promise.all(good.map(async (credential) => expectReadGranted(await callAll(list, { headers: bearer(credential) }), credential)));
    });

    // Each case: a name and what the request carries instead of a good credential.
    const cases: Array<[string, () => Send]> = [
      // Schemes other than Bearer, and broken Bearer syntax.
      ['Basic credentials', () => ({ headers: { Authorization: `Basic ${Buffer.from(`user:${A.key}`).toString('base64')}` } })],
      ['Basic with the API key itself', () => ({ headers: { Authorization: `Basic ${A.key}` } })],
      ['Digest credentials', () => ({
        headers: { Authorization: 'Digest username="tester", realm="catalog", nonce="dcd98b", uri="/v2", response="6629fae4"' },
      })],
      ['another scheme (Token) with a valid key', () => ({ headers: { Authorization: `Token ${A.key}` } })],
      ['a valid key without any scheme', () => ({ headers: { Authorization: A.key } })],
      ['Bearer without a token', () => ({ headers: { Authorization: 'Bearer' } })],
      ['Bearer and a space, without a token', () => ({ headers: { Authorization: 'Bearer ' } })],
      ['Bearer glued to a valid key', () => ({ headers: { Authorization: `Bearer${A.key}` } })],
      ['Bearer with two tokens', () => ({ headers: { Authorization: `Bearer ${A.key} ${A.key}` } })],
      ['Bearer with a tab before a valid key', () => ({ headers: { Authorization: `Bearer\t${A.key}` } })],
      ['Bearer with a comma-separated second parameter', () => ({ headers: { Authorization: `Bearer ${A.key}, realm="x"` } })],
      // Garbage.
      ['a garbage token', () => ({ headers: bearer('garbage') })],
      ['a token of three empty JWT parts', () => ({ headers: bearer('..') })],
      ['a token of three garbage JWT parts', () => ({ headers: bearer('a.b.c') })],
      ['a very long token', () => ({ headers: bearer('x'.repeat(6000)) })],
      ['only the key prefix', () => ({ headers: bearer('catk_') })],
      ['"null"', () => ({ headers: bearer('null') })],
      ['a valid token with a fourth part', () => ({ headers: bearer(`${token([A.project.id])}.e30`) })],
      ['a valid token without its signature part', () => ({ headers: bearer(token([A.project.id]).split('.').slice(0, 2).join('.')) })],
      // Tokens outside the Authorization header.
      ['a valid key in ?access_token= and no header', () => ({ query: `?access_token=${encodeURIComponent(A.key)}` })],
      ['a valid token in ?access_token= and no header', () => ({ query: `?access_token=${encodeURIComponent(tokenFor('all'))}` })],
      ['a valid key in a JSON body field access_token and no header', () => ({ body: { access_token: A.key } })],
      // Signature and algorithm.
      ['alg none with an empty signature', () => ({ headers: bearer(craftJwt(claims([A.project.id]), { alg: 'none' })) })],
      ['alg NONE with an empty signature', () => ({
        headers: bearer(craftJwt(claims([A.project.id]), { alg: 'none' }, { alg: 'NONE' })),
      })],
      ['alg none carrying a genuine HS256 signature', () => {
        const genuine = token([A.project.id]).split('.')[2];
        return { headers: bearer(`${craftJwt(claims([A.project.id]), { alg: 'none' })}${genuine}`) };
      }],
      ['HS384 with the right secret', () => ({ headers: bearer(craftJwt(claims([A.project.id]), { alg: 'HS384' })) })],
      ['HS512 with the right secret', () => ({ headers: bearer(craftJwt(claims([A.project.id]), { alg: 'HS512' })) })],
      ['RS256 with a key pair of its own', () => ({ headers: bearer(craftJwt(claims([A.project.id]), { alg: 'RS256', privateKey: rsaKey })) })],
      ['HS256 with a wrong secret', () => ({
        headers: bearer(craftJwt(claims([A.project.id]), { alg: 'HS256', secret: `${JWT_SECRET}-not` })),
      })],
      ["another deployment's token (issued with another secret)", () => ({
        headers: bearer(issueToken({ subject: 'x', projects: 'all', readOnly: false, expiresInSeconds: 600 }, 'another-secret-that-is-long-enough-0123456789').token),
      })],
      ['a genuine signature over a payload changed to every project', () => ({
        headers: bearer(withPayload(tokenFor([C.project.id]), claims(['*']))),
      })],
      // Time.
      ['expired a second ago', () => ({ headers: bearer(token([A.project.id], { exp: nowSeconds() - 1 })) })],
      ['expired a day ago', () => ({ headers: bearer(token([A.project.id], { iat: nowSeconds() - 90_000, exp: nowSeconds() - 86_400 })) })],
      ['without exp (jsonwebtoken, noTimestamp, no expiresIn)', () => ({
        headers: bearer(jwt.sign({ projects: [A.project.id], scope: BOTH_SCOPES }, JWT_SECRET, {
          algorithm: 'HS256', audience: TOKEN_AUDIENCE, subject: 'someone', noTimestamp: true,
        })),
      })],
      ['without exp (crafted)', () => ({ headers: bearer(token([A.project.id], { exp: undefined })) })],
      ['exp as a string', () => ({ headers: bearer(token([A.project.id], { exp: String(nowSeconds() + 3600) })) })],
      ['exp null', () => ({ headers: bearer(token([A.project.id], { exp: null })) })],
      ['nbf in the future', () => ({ headers: bearer(token([A.project.id], { nbf: nowSeconds() + 600 })) })],
      // Subject and audience.
      ['without sub', () => ({ headers: bearer(token([A.project.id], { sub: undefined })) })],
      ['sub empty', () => ({ headers: bearer(token([A.project.id], { sub: '' })) })],
      ['sub a number', () => ({ headers: bearer(token([A.project.id], { sub: 42 })) })],
      ['a wrong aud', () => ({ headers: bearer(token([A.project.id], { aud: 'other-api' })) })],
      ['aud an array without catalog-api', () => ({ headers: bearer(token([A.project.id], { aud: ['other-api', 'catalog'] })) })],
      ['without aud', () => ({ headers: bearer(token([A.project.id], { aud: undefined })) })],
      // Malformed grants.
      ['projects a string "*"', () => ({ headers: bearer(token([], { projects: '*' })) })],
      ['projects a single project id string', () => ({ headers: bearer(token([], { projects: A.project.id })) })],
      ['projects an object', () => ({ headers: bearer(token([], { projects: { [A.project.id]: true } })) })],
      ['projects holding a non-string', () => ({ headers: bearer(token([], { projects: [A.project.id, 7] })) })],
      ['without projects', () => ({ headers: bearer(token([], { projects: undefined })) })],
      ['scope an array', () => ({ headers: bearer(token([A.project.id], { scope: [SCOPE_READ, SCOPE_WRITE] })) })],
      ['without scope', () => ({ headers: bearer(token([A.project.id], { scope: undefined })) })],
      ['a payload that is a JSON string', () => ({ headers: bearer(craftJwt('catalog-api')) })],
      ['a payload that is an array', () => ({ headers: bearer(craftJwt([claims([A.project.id])])) })],
      // API keys.
      ['a revoked API key', () => ({ headers: bearer(revokedKey) })],
      ['an unknown API key of the right shape', () => ({ headers: bearer(unknownApiKey()) })],
      ['a valid key with one character changed', () => ({ headers: bearer(oneCharOff(A.key)) })],
      ['a valid key with its last character cut', () => ({ headers: bearer(A.key.slice(0, -1)) })],
      ['a valid key with a character added', () => ({ headers: bearer(`${A.key}A`) })],
      ['a valid key in upper case', () => ({ headers: bearer(A.key.toUpperCase()) })],
    ];

    for (const [name, send] of cases) {
      it(`${name}: the same 401 on every route`, async () => {
        expectUnauthorized(await callAll(targets(addressOf(A)), send()), name);
      });
    }

    it('a valid header with a token also in ?access_token=: not authenticated by either (RFC 6750 §2: one method per request)', async () => {
      // Read-only key in the header, read-write key in the query: must never write.
      expectUnauthorized(await callAll(targets(addressOf(A)), {
        headers: bearer(A.readOnlyKey), query: `?access_token=${encodeURIComponent(A.key)}`,
      }), 'header + query');
    });

    it('HEAD (answered by the GET handlers) is guarded as well: 401 with WWW-Authenticate and no body', async () => {
      const reads = targets(addressOf(A), isRead);
      const responses = await Promise.all(reads.map((target) => service.request.head(target.url)));
      for (const [i, res] of responses.entries()) {
        expect(res.status, reads[i]!.url).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal('Bearer');
        expect(res.text ?? '').to.equal('');
      }
      for (const res of await Promise.all(reads.map((target) => service.request.head(target.url).set(bearer(A.key))))) {
        expect(res.status).to.be.oneOf([200, 404]);
      }
    });

    it('exactly one space after Bearer: a second one is refused like any malformed header', async () => {
      // RFC 6750 §2.1 writes `"Bearer" 1*SP b64token`; the service (and passport-http-bearer,
      // which splits on one space) takes exactly one, as clients send. Pinned so a change is deliberate.
      expectUnauthorized(await callAll(targets(addressOf(A)), { headers: { Authorization: `Bearer  ${A.key}` } }), 'two spaces');
    });

    describe('the Bearer scheme name is case-insensitive (RFC 7235 §2.1, RFC 6750 §2.1)', () => {
      for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
        it(`"${scheme} <credential>" authenticates, with a key and with a token`, async () => {
          for (const credential of [A.key, tokenFor([A.project.id])]) {
            expectReadGranted(await callAll(targets(addressOf(A), isRead), { headers: { Authorization: `${scheme} ${credential}` } }), scheme);
          }
        });
      }
    });
  });

  describe('403 Forbidden', () => {
    it('a key of another project: exactly {"error":"Forbidden"}, by version id, project id and project slug, on every route', async () => {
      expectForbidden(await callAll(targets(addressOf(A)), { headers: bearer(B.key) }), 'key of B');
      expectForbidden(await callAll(targets(addressOf(B)), { headers: bearer(A.readOnlyKey) }), 'read-only key of A');
    });

    it('a read-only API key on every write operation of every route: 403 saying the credential is read-only', async () => {
      expectReadOnly(await callAll(targets(addressOf(A), isWrite), { headers: bearer(A.readOnlyKey) }), 'read-only key');
    });

    it('a token with scope catalog:read only on every write (also when issued by issueToken): 403 saying so', async () => {
      const writes = targets(addressOf(A), isWrite);
      expectReadOnly(await callAll(writes, { headers: bearer(token([A.project.id], { scope: SCOPE_READ })) }), 'read scope');
      expectReadOnly(await callAll(writes, { headers: bearer(tokenFor([A.project.id], { readOnly: true })) }), 'issued read-only');
      expectReadOnly(await callAll(writes, { headers: bearer(tokenFor('all', { readOnly: true })) }), 'issued read-only, all projects');
    });

    it('a token with scope catalog:write only can read too: writes answer whole records anyway', async () => {
      // A write-only token could read any record through PATCH {} or a replace, so refusing
      // it reads would be no boundary; catalog:write implies catalog:read.
      const writeOnly = bearer(token([A.project.id], { scope: SCOPE_WRITE }));
      for (const [target, res] of await callAll(targets(addressOf(A), isRead), { headers: writeOnly })) {
        expect(res.status, describeRes(target, res, 'write scope')).to.be.oneOf([200, 404]);
      }
      const [, created] = (await callAll(targets(addressOf(A), (route) => route.action.name === 'create'), { headers: writeOnly }))[0]!;
      expect(created.status, created.text).to.equal(201);
    });

    it('a token with an empty or unknown scope, or no projects, reaches nothing', async () => {
      const all = targets(addressOf(A));
      await Promise.all([
        token([A.project.id], { scope: '' }),
        token([A.project.id], { scope: 'catalog:admin read write' }),
        token([A.project.id], { scope: 'catalog:read,catalog:write' }),
        token([]),
      ].map(async (credential) => expectForbidden(await callAll(all, { headers: bearer(credential) }), credential)));
    });

    it("a token whose projects omit the project, also by a project's slug instead of its id", async () => {
      const all = targets(addressOf(A));
      expectForbidden(await callAll(all, { headers: bearer(token([B.project.id, C.project.id])) }), 'B and C');
      expectForbidden(await callAll(all, { headers: bearer(token([A.project.slug])) }), 'slug of A');
      expectForbidden(await callAll(all, { headers: bearer(tokenFor([B.project.id])) }), 'issued for B');
    });

    describe('an address that does not exist answers as one out of reach, unless the credential could list it', () => {
      // Each: the change to A's address, the address forms it shows up in, and the part named to
      // a credential of every project and to A's keys (null: the plain Forbidden).
      const unknowns: Array<[string, (address: Address) => Partial<Address>, readonly Form[], string, string | null]> = [
        ['unknown version id (well-formed)', () => ({ versionId: newId('ver_') }), ['version id'], 'versionId', null],
        ['unknown project id', () => ({ projectId: newId('proj_') }), ['project id'], 'projectRef', null],
        ['unknown project slug', () => ({ projectSlug: 'no-such-project' }), ['project slug'], 'projectRef', null],
        ['a project slug of the project id form', () => ({ projectSlug: newId('proj_') }), ['project slug'], 'projectRef', null],
        ['unknown version slug', () => ({ versionSlug: 'no-such-version' }), ['project id', 'project slug'], 'versionSlug', 'versionSlug'],
        ['the other version type with the same slug', (address) => ({ versionType: address.versionType === 'branch' ? 'environment' : 'branch' }), ['project id', 'project slug'], 'versionSlug', 'versionSlug'],
      ];
      for (const [name, change, forms, toEveryProject, toKeys] of unknowns) {
        it(`${name}: named to a token of every project; ${toKeys ? 'named' : 'the plain 403'} to the project's keys`, async () => {
          const address = { ...addressOf(A), ...change(addressOf(A)) };
          const changed = targets(address).filter((target) => forms.includes(target.form));
          expectNamedUnknown(await callAll(changed, { headers: bearer(tokenFor('all')) }), name, toEveryProject);
          await Promise.all([bearer(A.key), bearer(A.readOnlyKey)].map(async (headers) => {
            const results = await callAll(changed, { headers });
            if (toKeys) expectNamedUnknown(results, name, toKeys);
            else expectForbidden(results, name);
          }));
          // Another project's key learns nothing, whether the address exists or not.
          expectForbidden(await callAll(changed, { headers: bearer(B.key) }), `${name}, B's key`);
        });
      }
    });

    it('odd references (NUL, operators, dots, very long, non-ASCII) are unknown addresses: 403, never 500', async () => {
      const odd = ['\u0000', '$gt', '{"$ne":null}', '..', '.', 'a.b', 'x'.repeat(2000), 'проект', '😀', 'main\u0000', ' main'];
      const changes: Array<[(value: string) => Partial<Address>, Form[]]> = [
        [(value) => ({ projectSlug: value }), ['project slug']],
        [(value) => ({ projectId: value }), ['project id']],
        [(value) => ({ versionSlug: value }), ['project slug', 'project id']],
      ];
      const all = await Promise.all(odd.flatMap((value) => changes.map(([change, forms]) => {
        // Resolution is the same for every operation: the list routes are enough here.
        const changed = targets({ ...addressOf(A), ...change(value) }, (route) => route.family.name === 'P' && route.action.name === 'list');
        return callAll(changed.filter((target) => forms.includes(target.form)), { headers: bearer(tokenFor('all')) });
      })));
      // Told to a token of every project as what they are: a project or version that does not exist.
      expect(all.flat()).to.not.be.empty;
      for (const [target, res] of all.flat()) {
        expect(res.status, describeRes(target, res, 'odd reference')).to.equal(403);
        expectError(res, 403, 'Forbidden');
      }
    });

    it('a resolved (and cached) address does not carry its authorization over to the next credential', async () => {
      const all = targets(addressOf(A), isRead);
      expectReadGranted(await callAll(all, { headers: bearer(A.key) }), 'A, populating the cache');
      expectForbidden(await callAll(all, { headers: bearer(B.key) }), 'B right after');
    });
  });

  describe('what valid credentials reach', () => {
    it('a read-write key performs every operation on every route', async () => {
      await walkEverything(A, bearer(A.key));
    });

    it('a read-only key reads on every route: list and get', async () => {
      const records = new Map<string, Record<string, unknown>>();
      for (const collection of service.runtime.schemas.collections) records.set(collection.name, await seed(A, collection));
      const reads = targets(addressOf(A), isRead, (collection) => records.get(collection.name)!['id'] as string);
      for (const [target, res] of await callAll(reads, { headers: bearer(A.readOnlyKey) })) {
        expect(res.status, describeRes(target, res)).to.equal(200);
        const record = records.get(target.route.collection.name);
        if (target.route.action.item) expect(res.body).to.deep.equal(record);
        else expect(res.body.items).to.deep.include(record);
      }
    });

    it('a token with both scopes and ["*"] performs every operation in every project', async () => {
      const everywhere = bearer(token(['*']));
      await Promise.all([walkEverything(A, everywhere), walkEverything(B, everywhere), walkEverything(C, everywhere)]);
    });

    it('an issued token for all projects works as well (issueToken writes ["*"])', async () => {
      await walkEverything(C, bearer(tokenFor('all')));
    });

    it('a token listing two projects reaches both and not a third', async () => {
      const two = bearer(tokenFor([A.project.id, B.project.id]));
      await Promise.all([walkEverything(A, two), walkEverything(B, two)]);
      expectForbidden(await callAll(targets(addressOf(C)), { headers: two }), 'third project');
    });

    it('a token with scope catalog:read reads on every route', async () => {
      expectReadGranted(await callAll(targets(addressOf(A), isRead), { headers: bearer(token([A.project.id], { scope: SCOPE_READ })) }), 'read scope');
    });
  });

  describe('ordering: credentials are judged before the address is looked up or the body is read', () => {
    const writesWithBody = (route: RecordRoute): boolean => route.action.body;

    it('a read-only key sending an invalid, malformed, non-JSON or oversized body: 403 (read-only), not 400/413/415', async () => {
      const bodies: Send[] = [
        { body: { nope: true, path: 'no-slash' } },
        { body: '{"path": "/a",', contentType: 'application/json' },
        { body: 'path=/a', contentType: 'text/plain' },
        { body: { path: '/a', summary: 'x'.repeat(8192) } },
      ];
      for (const send of bodies) {
        expectReadOnly(await callAll(targets(addressOf(A), writesWithBody), { headers: bearer(A.readOnlyKey), ...send }), JSON.stringify(send.body).slice(0, 40));
      }
    });

    it('no credentials with an invalid, malformed, non-JSON or oversized body: 401', async () => {
      for (const send of [
        { body: { nope: true } },
        { body: '{"path": "/a",', contentType: 'application/json' },
        { body: 'path=/a', contentType: 'text/plain' },
        { body: { path: '/a', summary: 'x'.repeat(8192) } },
      ]) {
        expectUnauthorized(await callAll(targets(addressOf(A), writesWithBody), send), 'unauthenticated body');
      }
    });

    it('a forbidden or unauthenticated write leaves the store exactly as it was', async () => {
      const tenant = await givenTenant(service);
      const seeded = new Map<string, string>();
      for (const collection of service.runtime.schemas.collections) seeded.set(collection.name, (await seed(tenant, collection))['id'] as string);
      const { db } = testDatabase();
      const snapshot = () => Promise.all(service.runtime.schemas.collections.map(async (collection) => ({
        count: await db.collection(collection.name).countDocuments({ versionId: tenant.version.id }),
        documents: await db.collection(collection.name).find({ versionId: tenant.version.id }).sort({ _id: 1 }).toArray(),
      })));
      const before = await snapshot();
      expect(before.map((collection) => collection.count)).to.deep.equal(service.runtime.schemas.collections.map(() => 1));

      // Writes to the seeded records, and replaces that would create a record at a free id.
      const onSeeded = targets(addressOf(tenant), isWrite, (collection) => seeded.get(collection.name)!);
      const onFreeIds = targets(addressOf(tenant), (route) => route.action.name === 'replace');
      const refused: Array<[string, Headers, 401 | 403 | 'read-only']> = [
        ['read-only key', bearer(tenant.readOnlyKey), 'read-only'],
        ['read-scope token', bearer(tokenFor([tenant.project.id], { readOnly: true })), 'read-only'],
        ['key of another project', bearer(A.key), 403],
        ['token of other projects', bearer(tokenFor([A.project.id, B.project.id])), 403],
        ['no credentials', {}, 401],
        ['expired token', bearer(token([tenant.project.id], { exp: nowSeconds() - 5 })), 401],
      ];
      await Promise.all(refused.map(async ([label, headers, status]) => {
        const results = await callAll([...onSeeded, ...onFreeIds], { headers });
        if (status === 401) expectUnauthorized(results, label);
        else if (status === 'read-only') expectReadOnly(results, label);
        else expectForbidden(results, label);
      }));
      expect(await snapshot()).to.deep.equal(before);
    });

    it('a malformed version id, versionType or item id with valid credentials: 400 naming it; without: 401', async () => {
      const malformed: Array<[string, Partial<Address>, (route: RecordRoute) => boolean]> = [
        ['versionId', { versionId: 'ver_tooShort' }, (route) => route.family.name === 'V'],
        ['versionId', { versionId: `ver_${'-'.repeat(26)}` }, (route) => route.family.name === 'V'],
        ['versionType', { versionType: 'tag' }, (route) => route.family.name === 'P'],
        ['versionType', { versionType: 'Branch' }, (route) => route.family.name === 'P'],
      ];
      // One batch of routes at a time: all eleven collections at once overran the listen backlog (ECONNRESET).
      for (const [field, change, only] of malformed) {
        const list = targets({ ...addressOf(A), ...change }, only);
        for (const headers of [bearer(A.key), bearer(tokenFor('all')), bearer(A.readOnlyKey)]) {
          for (const [target, res] of await callAll(list, { headers })) {
            expect(res.status, describeRes(target, res)).to.equal(400);
            expectInvalid(res, field);
          }
        }
        expectUnauthorized(await callAll(list), `${field} without credentials`);
        expectUnauthorized(await callAll(list, { headers: bearer(unknownApiKey()) }), `${field} with an unknown key`);
      }
      const badItemIds = targets(addressOf(A), (route) => route.action.item, (collection) => `${collection.idPrefix}nope`);
      for (const [target, res] of await callAll(badItemIds, { headers: bearer(A.key) })) {
        expect(res.status, describeRes(target, res)).to.equal(400);
        expectInvalid(res, 'id');
      }
      expectUnauthorized(await callAll(badItemIds), 'item id without credentials');
    });
  });

  describe('family P resolution while versions change', () => {
    it('a version created after a 403 for its address is reachable at once (no negative caching)', async () => {
      const tenant = await givenTenant(service);
      const later: Address = { ...addressOf(tenant), versionSlug: 'created-later' };
      const familyP = targets(later, (route) => route.family.name === 'P' && isRead(route));
      for (const headers of [bearer(tenant.key), bearer(tokenFor('all'))]) {
        // Twice, so that a cache of misses, if there were one, would hold the miss.
        expectNamedUnknown(await callAll(familyP, { headers }), 'before', 'versionSlug');
        expectNamedUnknown(await callAll(familyP, { headers }), 'before, again', 'versionSlug');
      }
      await service.runtime.tenancy.versions.create(tenant.project.id, 'branch', 'created-later');
      const reads = targets(later, (route) => route.family.name === 'P' && route.action.name === 'list');
      expectStatus(await callAll(reads, { headers: bearer(tenant.key) }), 200, 'after');
      expectStatus(await callAll(reads, { headers: bearer(tokenFor('all')) }), 200, 'after');
    });

    it('an environment and a branch with the same slug are distinct versions, cached or not', async () => {
      const tenant = await givenTenant(service, { type: 'branch', slug: 'shared' });
      const environment = await service.runtime.tenancy.versions.create(tenant.project.id, 'environment', 'shared');
      const headers = bearer(tenant.key);
      for (const collection of service.runtime.schemas.collections) {
        const inBranch = await seed(tenant, collection);
        for (const pass of ['first', 'cached']) {
          const branchGets = targets(addressOf(tenant), (route) => route.collection === collection && route.action.name === 'get', () => inBranch['id'] as string);
          const environmentGets = targets(addressOf(tenant, environment), (route) => route.collection === collection && route.action.name === 'get', () => inBranch['id'] as string);
          expectStatus(await callAll(branchGets, { headers }), 200, `${pass} branch`);
          for (const [target, res] of await callAll(environmentGets, { headers })) {
            expect(res.status, describeRes(target, res, pass)).to.equal(404);
            expectError(res, 404, collection.notFound);
          }
          const environmentLists = targets(addressOf(tenant, environment), (route) => route.collection === collection && route.action.name === 'list');
          for (const [target, res] of await callAll(environmentLists, { headers })) {
            expect(res.status, describeRes(target, res, pass)).to.equal(200);
            expect(res.body.items, describeRes(target, res, pass)).to.deep.equal([]);
          }
        }
      }
    });

    it('a version slug with a slash (a branch like feature/login) is addressed percent-encoded', async () => {
      const tenant = await givenTenant(service, { type: 'branch', slug: 'feature/login' });
      await walkEverything(tenant, bearer(tenant.key));
    });
  });
});
