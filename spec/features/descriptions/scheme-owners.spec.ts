// Security schemes belong to their service: two imported services that each name a scheme
// `api_key` keep their own definitions through import, export, search and MCP, in either import
// order and after re-imports; a scheme made over HTTP without an owner stays version-wide.
import { expect } from 'chai';
import { startCatalog, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { Client } from '../../support/records.ts';
import { expectError } from '../../support/expect.ts';

type Scheme = Record<string, unknown>;

const ALPHA_KEY: Scheme = { type: 'apiKey', in: 'header', name: 'X-Alpha-Key' };
const BETA_KEY: Scheme = { type: 'apiKey', in: 'query', name: 'beta_key' };

/** A one-operation description whose requirement is a scheme called `api_key`. */
function described(slug: string, scheme: Scheme): Record<string, unknown> {
  const title = slug[0]!.toUpperCase() + slug.slice(1);
  return {
    openapi: '3.1.0',
    info: { title, version: '1.0.0' },
    security: [{ api_key: [] }],
    paths: { [`/${slug}/things`]: { get: { operationId: operationOf(slug), summary: 'List things', responses: { 200: { description: 'Things' } } } } },
    components: { securitySchemes: { api_key: scheme } },
  };
}

const operationOf = (slug: string): string => `list${slug[0]!.toUpperCase()}${slug.slice(1)}Things`;

/** How search and get_endpoint show an apiKey scheme defined as `scheme` in the description. */
function resolved(scheme: Scheme): Scheme {
  return { name: 'api_key', type: 'apiKey', in: scheme['in'], parameterName: scheme['name'] };
}

describe('descriptions: security schemes belong to their service', function () {
  // Each check exports, searches and asks MCP, every one reading whole collections: on FerretDB a
  // scan of every test's records, slow late in a full run on a loaded machine.
  this.timeout(180_000);
  let service: TestCatalog;

  before(async () => {
    service = await startCatalog();
  });
  after(() => service.close());

  async function importInto(tenant: Tenant, slug: string, scheme: Scheme, on = service): Promise<void> {
    const res = await on.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(described(slug, scheme));
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    expect(res.body.warnings).to.deep.equal([]);
  }

  async function exported(tenant: Tenant, slug: string, on = service): Promise<Record<string, any>> {
    const services = await on.request.get(`${tenant.prefixes.byId}/services?slug=${slug}`).set(bearer(tenant.readOnlyKey));
    const id = services.body.items[0].id as string;
    const res = await on.request.get(`${tenant.prefixes.byId}/services/${id}/openapi`).set(bearer(tenant.readOnlyKey));
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  /** The scheme the search hit of the operation names, as the first requirement's first entry. */
  async function searched(tenant: Tenant, operationId: string, on = service): Promise<Scheme> {
    const res = await on.request.get(`${tenant.prefixes.byId}/search`).query({ q: operationId, limit: 100 }).set(bearer(tenant.readOnlyKey));
    expect(res.status, res.text).to.equal(200);
    const hit = res.body.hits.find((candidate: { operation: { operationId: string } }) => candidate.operation.operationId === operationId);
    expect(hit, `a hit for ${operationId}`).to.not.equal(undefined);
    return hit.security[0][0].scheme;
  }

  /** The same through MCP get_endpoint (one stateless JSON-RPC call). */
  async function viaMcp(tenant: Tenant, operationId: string, on = service): Promise<Scheme> {
    const res = await on.request.post('/mcp').set(bearer(tenant.readOnlyKey)).set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_endpoint', arguments: { version: tenant.version.id, operation: operationId } } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.result.isError, res.text).to.not.equal(true);
    return res.body.result.structuredContent.security[0][0].scheme;
  }

  /** Each service's export, search hit and MCP endpoint show its own scheme and no other. */
  async function expectOwn(tenant: Tenant, schemes: Record<string, Scheme>, on = service): Promise<void> {
    for (const [slug, scheme] of Object.entries(schemes)) {
      const document = await exported(tenant, slug, on);
      expect(document['security'], `${slug} export`).to.deep.equal([{ api_key: [] }]);
      expect(document['components']?.['securitySchemes'], `${slug} export`).to.deep.equal({ api_key: scheme });
      expect(await searched(tenant, operationOf(slug), on), `${slug} search`).to.include(resolved(scheme));
      expect(await viaMcp(tenant, operationOf(slug), on), `${slug} get_endpoint`).to.include(resolved(scheme));
    }
  }

  for (const order of [['alpha', 'beta'], ['beta', 'alpha']] as const) {
    it(`two services with a scheme of the same name keep their own (imported ${order.join(' then ')}), also after re-imports`, async () => {
      const tenant = await givenTenant(service);
      const schemes: Record<string, Scheme> = { alpha: ALPHA_KEY, beta: BETA_KEY };
      for (const slug of order) await importInto(tenant, slug, schemes[slug]!);
      await expectOwn(tenant, schemes);

      // Re-importing either, with its scheme changed or unchanged, touches only its own.
      schemes[order[0]] = { ...schemes[order[0]]!, name: 'X-Changed-Key' };
      await importInto(tenant, order[0], schemes[order[0]]!);
      await expectOwn(tenant, schemes);
      await importInto(tenant, order[1], schemes[order[1]]!);
      await expectOwn(tenant, schemes);
      const list = await service.request.get(`${tenant.prefixes.byId}/security-schemes`).set(bearer(tenant.readOnlyKey));
      expect(list.body.items.map((item: Scheme) => item['name'])).to.deep.equal(['api_key', 'api_key']);
    });
  }

  it('a scheme made over HTTP without an owner is version-wide: named by every service without its own, never another service\'s', async () => {
    const tenant = await givenTenant(service);
    const client = new Client(service, tenant);
    await importInto(tenant, 'alpha', ALPHA_KEY);
    const gamma = await client.given('services', { slug: 'gamma', name: 'Gamma', security: [{ api_key: [] }, { shared_key: [] }] });
    const path = await client.given('paths', { serviceId: gamma.id, path: '/gamma' });
    await client.given('operations', { pathId: path.id, method: 'get', operationId: 'getGamma', security: undefined });
    const gammaSchemes = async (): Promise<Scheme[]> => {
      const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: 'getGamma' }).set(bearer(tenant.readOnlyKey));
      const hit = res.body.hits.find((candidate: { operation: { operationId: string } }) => candidate.operation.operationId === 'getGamma');
      return hit.security.map((alternative: { scheme: Scheme }[]) => alternative[0]!.scheme);
    };
    // Alpha's api_key is alpha's: gamma's requirement names no scheme it can use.
    expect(await gammaSchemes()).to.deep.equal([{ id: null, name: 'api_key' }, { id: null, name: 'shared_key' }]);

    const bearerScheme = await client.given('security-schemes', { name: 'api_key', type: 'http', scheme: 'bearer', in: undefined, description: undefined, kvStorage: {} });
    const shared = await client.given('security-schemes', { name: 'shared_key', description: undefined, kvStorage: { name: 'X-Shared' } });
    expect(await gammaSchemes()).to.deep.equal([
      { id: bearerScheme.id, name: 'api_key', type: 'http', scheme: 'bearer' },
      { id: shared.id, name: 'shared_key', type: 'apiKey', in: 'header', parameterName: 'X-Shared' },
    ]);
    expect((await viaMcp(tenant, 'getGamma'))['id']).to.equal(bearerScheme.id);
    const document = await exported(tenant, 'gamma');
    expect(document['components']['securitySchemes']).to.deep.equal({
      api_key: { type: 'http', scheme: 'bearer' },
      shared_key: { type: 'apiKey', in: 'header', name: 'X-Shared' },
    });
    // Alpha keeps its own, and its export holds no version-wide scheme it does not name.
    await expectOwn(tenant, { alpha: ALPHA_KEY });
  });

  describe('records stored before schemes had owners', () => {
    it('at start-up an imported scheme gets the service its import marker names and every stored key is remade; a re-import repairs the service that lost its scheme', async () => {
      const tenant = await givenTenant(service);
      const client = new Client(service, tenant);
      await importInto(tenant, 'alpha', ALPHA_KEY);
      await importInto(tenant, 'beta', BETA_KEY);
      const shared = await client.given('security-schemes', { name: 'shared_key' });
      const orphan = await client.given('security-schemes', { name: 'orphan_key', kvStorage: { 'x-catalog': { service: 'svc_01JDQ7AAAAAAAAAAAAAAAAAAAA', order: 0 } } });
      const serviceIds = new Map(((await client.list('services')).body.items as Scheme[]).map((record) => [record['slug'], record['id']]));
      const schemes = (await client.list('security-schemes')).body.items as Scheme[];
      const [alphaScheme, betaScheme] = ['alpha', 'beta'].map((slug) => schemes.find((record) => record['serviceId'] === serviceIds.get(slug))!) as [Scheme & { id: string }, Scheme & { id: string }];

      // As the catalog stored them before: one api_key per version (beta's import overwrote
      // alpha's), no serviceId, keys made from the name alone.
      const stored = service.runtime.database.db.collection<{ _id: string; _key?: string }>('security-schemes');
      const v = tenant.version.id;
      await stored.deleteOne({ _id: `${v}:${alphaScheme.id}` });
      await stored.updateOne({ _id: `${v}:${betaScheme.id}` }, { $unset: { serviceId: '' }, $set: { _key: '["api_key"]' } });
      await stored.updateOne({ _id: `${v}:${shared.id}` }, { $set: { _key: '["shared_key"]' } });
      await stored.updateOne({ _id: `${v}:${orphan.id}` }, { $set: { _key: '["orphan_key"]' } });
      await service.runtime.database.db.collection<{ _id: string }>('naturalKeys').deleteOne({ _id: 'security-schemes' });

      const restarted = await startCatalog();
      try {
        const after = new Client(restarted, tenant);
        expect((await after.get('security-schemes', betaScheme.id)).body['serviceId']).to.equal(betaScheme['serviceId']);
        expect((await after.get('security-schemes', shared.id)).body).to.not.have.property('serviceId');
        expect((await after.get('security-schemes', orphan.id)).body).to.not.have.property('serviceId');
        // The version-wide key is the new one: a second unowned shared_key is refused.
        expectError(await after.create('security-schemes', { type: 'http', scheme: 'basic', name: 'shared_key' }), 409, 'Conflict');
        expect((await stored.findOne({ _id: `${v}:${betaScheme.id}` }))?._key).to.equal(JSON.stringify([betaScheme['serviceId'], 'api_key']));

        // Alpha's callers are no longer told beta's key; alpha's re-import gives it its own back.
        expect(await searched(tenant, operationOf('alpha'), restarted)).to.deep.equal({ id: null, name: 'api_key' });
        expect(await searched(tenant, operationOf('beta'), restarted)).to.include(resolved(BETA_KEY));
        await importInto(tenant, 'alpha', ALPHA_KEY, restarted);
        await expectOwn(tenant, { alpha: ALPHA_KEY, beta: BETA_KEY }, restarted);
      } finally {
        await restarted.close();
      }
    });
  });
});

