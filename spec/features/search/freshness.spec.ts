// The search index is kept per version in each instance, and is fresh: whatever writes to a
// version (record create, replace, patch, delete, an import, a copy into it, its deletion) is
// in the next search on every instance. Two instances on one database here, each with its own
// indexes: instance `a` searches (and so keeps an index), `b` writes, `a` searches again.
import { expect } from 'chai';
import { bearer, givenTenant, instancePairForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { shop } from './shop.ts';

describe('search: fresh after every kind of write, on every instance', function () {
  this.timeout(120_000);
  let a: TestCatalog;
  let b: TestCatalog;
  instancePairForSuite((first, second) => { [a, b] = [first, second]; });

  const ids = async (instance: TestCatalog, prefix: string, query: string, key: string): Promise<string[]> => {
    const res = await instance.request.get(`${prefix}/search`).query({ q: query }).set(bearer(key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.hits as { operation: { operationId: string } }[]).map((hit) => hit.operation.operationId);
  };

  async function shopTenant(): Promise<Tenant> {
    const tenant = await givenTenant(a);
    const imported = await a.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(shop());
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    return tenant;
  }

  const operationNamed = async (tenant: Tenant, operationId: string): Promise<Record<string, unknown>> => {
    const res = await b.request.get(`${tenant.prefixes.byId}/operations`).query({ limit: 100 }).set(bearer(tenant.key));
    const found = (res.body.items as Record<string, unknown>[]).find((item) => item['operationId'] === operationId);
    expect(found, operationId).to.not.equal(undefined);
    return found!;
  };

  for (const family of ['byId', 'byAddress'] as const) {
    describe(`on family ${family}`, () => {
      it('finds a created operation', async () => {
        const tenant = await shopTenant();
        const prefix = tenant.prefixes[family];
        expect(await ids(a, prefix, 'zebra', tenant.key)).to.deep.equal([]);
        const { pathId } = await operationNamed(tenant, 'listInvoices');
        const created = await b.request.post(`${prefix}/operations`).set(bearer(tenant.key))
          .send({ pathId, method: 'put', operationId: 'feedZebras', summary: 'Feed the zebras' });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(await ids(a, prefix, 'zebra', tenant.key)).to.deep.equal(['feedZebras']);
      });

      it('finds a replaced and a patched operation by their new words, not their old ones', async () => {
        const tenant = await shopTenant();
        const prefix = tenant.prefixes[family];
        expect(await ids(a, prefix, 'health', tenant.key)).to.deep.equal(['getStatus']);
        const status = await operationNamed(tenant, 'getStatus');
        const { id, updatedAt: _updatedAt, versionId: _versionId, ...record } = status;
        const replaced = await b.request.post(`${prefix}/operations/${String(id)}`).set(bearer(tenant.key)).send({ ...record, summary: 'Liveness probe', description: 'Up or down.' });
        expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
        expect(await ids(a, prefix, 'health', tenant.key)).to.deep.equal([]);
        expect(await ids(a, prefix, 'liveness', tenant.key)).to.deep.equal(['getStatus']);
        const patched = await b.request.patch(`${prefix}/operations/${String(id)}`).set(bearer(tenant.key)).send({ summary: 'Heartbeat probe' });
        expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
        expect(await ids(a, prefix, 'liveness', tenant.key)).to.deep.equal([]);
        expect(await ids(a, prefix, 'heartbeat', tenant.key)).to.deep.equal(['getStatus']);
      });

      it('no longer finds a deleted operation', async () => {
        const tenant = await shopTenant();
        const prefix = tenant.prefixes[family];
        expect(await ids(a, prefix, 'health', tenant.key)).to.deep.equal(['getStatus']);
        const { id } = await operationNamed(tenant, 'getStatus');
        expect((await b.request.delete(`${prefix}/operations/${String(id)}`).set(bearer(tenant.key))).status).to.equal(204);
        expect(await ids(a, prefix, 'health', tenant.key)).to.deep.equal([]);
      });

      it('finds what a re-import changed', async () => {
        const tenant = await shopTenant();
        const prefix = tenant.prefixes[family];
        expect(await ids(a, prefix, 'refund', tenant.key)).to.deep.equal([]);
        const document = shop() as { paths: Record<string, unknown> };
        document.paths['/refunds'] = { post: { operationId: 'createRefund', summary: 'Refund an invoice', responses: { 201: { description: 'Refunded' } } } };
        const imported = await b.request.post(`${prefix}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(document);
        expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
        expect(await ids(a, prefix, 'refund', tenant.key)).to.deep.equal(['createRefund']);
      });

      it('finds the records of a copy, and nothing in a deleted version', async () => {
        const tenant = await shopTenant();
        expect(await ids(a, tenant.prefixes[family], 'health', tenant.key)).to.deep.equal(['getStatus']);
        const copy = await b.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key))
          .send({ type: 'branch', slug: 'copy', copyFrom: tenant.version.id });
        expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
        const copyPrefix = family === 'byId' ? `/v2/catalog/versions/${copy.body.id}` : `/v2/catalog/projects/${tenant.project.slug}/branch/copy`;
        expect(await ids(a, copyPrefix, 'health', tenant.key)).to.deep.equal(['getStatus']);
        const deleted = await b.request.delete(family === 'byId' ? `/v2/catalog/versions/${tenant.version.id}` : `/v2/catalog/projects/${tenant.project.slug}/branch/main`).set(bearer(tenant.key));
        expect(deleted.status).to.equal(204);
        // `a` may still resolve the version for VERSION_CACHE_MS: then it finds nothing in it. Once
        // it has heard of the deletion (or the cache ran out), the version is unknown: 403, as any
        // version the credential cannot see (decisions.md).
        const after = await a.request.get(`${tenant.prefixes[family]}/search`).query({ q: 'health' }).set(bearer(tenant.key));
        if (after.status === 200) expect(after.body.hits).to.deep.equal([]);
        else expect(after.status, JSON.stringify(after.body)).to.equal(403);
        const onDeleter = await b.request.get(`${tenant.prefixes[family]}/search`).query({ q: 'health' }).set(bearer(tenant.key));
        expect(onDeleter.status, JSON.stringify(onDeleter.body)).to.equal(403);
        expect(await ids(a, copyPrefix, 'health', tenant.key)).to.deep.equal(['getStatus']);
      });
    });
  }

  it('finds an operation by a parameter added to it, after writes elsewhere in between', async () => {
    const tenant = await shopTenant();
    expect(await ids(a, tenant.prefixes.byId, 'currency', tenant.key)).to.deep.equal([]);
    const { id } = await operationNamed(tenant, 'getStatus');
    // A write search does not read (a response), then one it does (a parameter).
    const response = await b.request.post(`${tenant.prefixes.byId}/responses`).set(bearer(tenant.key)).send({ operationId: id, statusCode: 503, description: 'Down' });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    expect(await ids(a, tenant.prefixes.byId, 'currency', tenant.key)).to.deep.equal([]);
    const parameter = await b.request.post(`${tenant.prefixes.byId}/parameters`).set(bearer(tenant.key)).send({ operationId: id, name: 'currency', in: 'query', schema: { type: 'string' } });
    expect(parameter.status, JSON.stringify(parameter.body)).to.equal(201);
    expect(await ids(a, tenant.prefixes.byId, 'currency', tenant.key)).to.deep.equal(['getStatus']);
  });

  it('serves the MCP tools from the same fresh index', async () => {
    const tenant = await shopTenant();
    const mcp = (instance: TestCatalog, name: string, args: Record<string, unknown>) => instance.request.post('/mcp').set(bearer(tenant.key))
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const found = async (query: string) => ((await mcp(a, 'search_endpoints', { version: tenant.version.id, query })).body.result.structuredContent.hits as { operation: { operationId: string } }[])
      .map((hit) => hit.operation.operationId);
    expect(await found('health')).to.deep.equal(['getStatus']);
    const { id } = await operationNamed(tenant, 'getStatus');
    expect((await b.request.patch(`${tenant.prefixes.byId}/operations/${String(id)}`).set(bearer(tenant.key)).send({ operationId: 'getHealth' })).status).to.equal(200);
    expect(await found('health')).to.deep.equal(['getHealth']);
    const detail = await mcp(a, 'get_endpoint', { version: tenant.version.id, operation: 'getHealth' });
    expect(detail.body.result.structuredContent.operation).to.include({ operationId: 'getHealth' });
  });
});
