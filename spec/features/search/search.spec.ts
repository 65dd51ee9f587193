// GET {prefix}/search on an imported description: ranking, servers, security resolution
// (service-level, operation-level override, explicitly none, alternatives), query checks, tenancy.
import { expect } from 'chai';
import { startCatalog, givenTenant, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { shop } from './shop.ts';

interface Hit {
  operation: { id: string; operationId: string; method: string; summary?: string; deprecated: boolean };
  path: { id: string; path: string };
  service: { id: string; slug: string; name: string };
  servers: string[];
  security: { scheme: Record<string, unknown>; scopes: string[] }[][];
  score: number;
}

describe('search: GET {prefix}/search', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let other: Tenant;

  before(async () => {
    service = await startCatalog();
    tenant = await givenTenant(service);
    other = await givenTenant(service);
    const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(shop());
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const theirs = await service.request.post(`${other.prefixes.byId}/imports/openapi?service=secret`).set(bearer(other.key)).send(shop('Secret'));
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(201);
  });
  after(() => service.close());

  const find = async (query: string, auth = bearer(tenant.readOnlyKey), prefix = tenant.prefixes.byId): Promise<Hit[]> => {
    const res = await service.request.get(`${prefix}/search`).query(query).set(auth);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.hits as Hit[];
  };

  it('ranks operationId and path matches above summary above description, on both families', async () => {
    for (const prefix of [tenant.prefixes.byId, tenant.prefixes.byAddress]) {
      const hits = await find('q=invoice', bearer(tenant.readOnlyKey), prefix);
      // getInvoice has it in operationId, summary, path and description; getStatus only in its
      // description: last. (BM25 puts listInvoices, the shorter path, before createInvoice.)
      expect(hits.map((hit) => hit.operation.operationId)).to.deep.equal(['getInvoice', 'listInvoices', 'createInvoice', 'getStatus']);
      // The order is the scores': each positive, none above the one before, and the field a
      // match is in tells apart the first from the rest and the description-only match from all.
      const scores = hits.map((hit) => hit.score);
      expect(scores.every((score) => Number.isFinite(score) && score > 0), JSON.stringify(scores)).to.equal(true);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
      expect(scores[0]).to.be.above(scores[1]!);
      expect(scores[2]).to.be.above(scores[3]!);
    }
    const health = await find('q=health');
    expect(health.map((hit) => hit.operation.operationId)).to.deep.equal(['getStatus']);
    const byParameter = await find('q=customer');
    expect(byParameter.map((hit) => hit.operation.operationId)).to.deep.equal(['listInvoices']);
    const byTag = await find('q=billing');
    expect(byTag.map((hit) => hit.operation.operationId)).to.deep.equal(['listInvoices']);
    expect(await find('q=invoice&limit=2')).to.have.length(2);
    expect(await find('q=nothing-like-it')).to.deep.equal([]);
  });

  it('answers each hit with its operation, path, service and servers from the nearest level', async () => {
    const hits = await find('q=invoice');
    const byId = new Map(hits.map((hit) => [hit.operation.operationId, hit]));
    const get = byId.get('getInvoice')!;
    expect(get.operation).to.include({ operationId: 'getInvoice', method: 'get', summary: 'One invoice', deprecated: false });
    expect(get.operation.id).to.match(/^op_/);
    expect(get.path).to.include({ path: '/invoices/{invoiceId}' });
    expect(get.service).to.include({ slug: 'shop', name: 'Shop' });
    expect(get.servers).to.deep.equal(['https://invoices.shop.example']);
    expect(byId.get('createInvoice')!.servers).to.deep.equal(['https://write.shop.example/v1']);
    expect(byId.get('listInvoices')!.servers).to.deep.equal(['https://api.shop.example/v1']);
  });

  it('resolves the security requirement that applies to the schemes themselves', async () => {
    const hits = await find('q=invoice');
    const byId = new Map(hits.map((hit) => [hit.operation.operationId, hit]));
    // The service's requirement: an apiKey, with the header it goes in.
    const list = byId.get('listInvoices')!.security;
    expect(list).to.have.length(1);
    expect(list[0]).to.have.length(1);
    expect(list[0]![0]!.scheme).to.include({ name: 'shopKey', type: 'apiKey', in: 'header', parameterName: 'X-Shop-Key' });
    expect(list[0]![0]!.scheme['id']).to.match(/^sec_sch_/);
    expect(list[0]![0]!.scopes).to.deep.equal([]);
    // The operation's own requirement overrides the service's.
    const create = byId.get('createInvoice')!.security;
    expect(create).to.have.length(1);
    expect(create[0]![0]!.scheme).to.include({ name: 'oauth', type: 'oauth2' });
    expect(create[0]![0]!.scheme['flows']).to.have.nested.property('clientCredentials.tokenUrl', 'https://auth.shop.example/token');
    expect(create[0]![0]!.scopes).to.deep.equal(['invoices:write']);
    // Alternatives: either the key or a bearer token.
    const get = byId.get('getInvoice')!.security;
    expect(get.map((alternative) => alternative.map((use) => use.scheme['name']))).to.deep.equal([['shopKey'], ['bearer']]);
    expect(get[1]![0]!.scheme).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    // An explicitly empty requirement: no credentials, not the service's.
    expect(byId.get('getStatus')!.security).to.deep.equal([]);
  });

  it('filters by service slug or id; an unknown one is 404, neither form 400', async () => {
    const bySlug = await find('q=invoice&service=shop');
    expect(bySlug.length).to.equal(4);
    expect(await find(`q=invoice&service=${bySlug[0]!.service.id}`)).to.deep.equal(bySlug);
    const malformed = await service.request.get(`${tenant.prefixes.byId}/search?q=invoice&service=Not_A_Slug`).set(bearer(tenant.readOnlyKey));
    expect([malformed.status, malformed.body.details]).to.deep.equal([400, [{ field: 'service', message: 'must be a service slug or `svc_` id' }]]);
    const res = await service.request.get(`${tenant.prefixes.byId}/search?q=invoice&service=nope`).set(bearer(tenant.readOnlyKey));
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'Service not found' });
  });

  it('refuses a missing or empty q and a limit out of 1–100 with 400', async () => {
    for (const query of ['', '?q=', '?q=%20%2C', '?q=a&limit=0', '?q=a&limit=101', '?q=a&limit=x', '?q=a&q=b', '?q=a&other=1']) {
      const res = await service.request.get(`${tenant.prefixes.byId}/search${query}`).set(bearer(tenant.readOnlyKey));
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.equal('Invalid request');
    }
  });

  it('publishes a q pattern that a browser\'s RegExp (no u flag) compiles and that takes words of any script', async () => {
    const document = (await service.request.get('/v2/openapi.json')).body as { paths: Record<string, { get: { parameters: { name: string; schema: { pattern: string } }[] } }> };
    for (const route of ['/v2/catalog/versions/{versionId}/search', '/v2/catalog/projects/{projectRef}/{versionType}/{versionSlug}/search']) {
      const { pattern } = document.paths[route]!.get.parameters.find((parameter) => parameter.name === 'q')!.schema;
      // As Swagger UI checks a parameter: new RegExp(pattern), no flags; and as Unicode-aware validators do.
      for (const regExp of [new RegExp(pattern), new RegExp(pattern, 'u')]) {
        for (const q of ['send an sms', 'sms', '42', 'Größe ändern', '検索', '  x  ']) expect(regExp.test(q), `${regExp} ${q}`).to.equal(true);
        for (const q of ['', ' ', '!!!', ' , ', '{}', '\t-_/']) expect(regExp.test(q), `${regExp} ${JSON.stringify(q)}`).to.equal(false);
      }
    }
    // The server still refuses what has no letter or digit, the symbols the pattern lets through too.
    for (const q of ['€', '!!!', '→ ★']) {
      const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q }).set(bearer(tenant.readOnlyKey));
      expect(res.status, q).to.equal(400);
      expect(res.body.details, q).to.deep.equal([{ field: 'q', message: 'must have at least one word' }]);
    }
    expect((await find('q=send%20an%20invoice')).length).to.be.greaterThan(0);
  });

  it('never shows another project\'s endpoints: 401 without credentials, 403 out of reach', async () => {
    expect((await service.request.get(`${tenant.prefixes.byId}/search?q=invoice`)).status).to.equal(401);
    for (const auth of [bearer(other.key), bearer(tokenFor([other.project.id], { readOnly: true }))]) {
      const res = await service.request.get(`${tenant.prefixes.byId}/search?q=invoice`).set(auth);
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ error: 'Forbidden' });
    }
    const own = await find('q=invoice', bearer(tokenFor([other.project.id], { readOnly: true })), other.prefixes.byId);
    expect(own.map((hit) => hit.service.slug)).to.deep.equal(['secret', 'secret', 'secret', 'secret']);
  });
});
