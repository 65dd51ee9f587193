// After a small write, the next search reads back only the records written (listed on the
// version document beside its revision, tenancy/revisions.ts), not the collections written,
// makes anew only the documents of the operations they touch (not the whole index), and
// answers exactly what an index built from scratch answers. Instance `a` keeps the index, `b`
// writes; `a`'s build counters prove which path was taken, so a silent fall back fails here.
import { expect } from 'chai';
import { testDatabase } from '../../support/database.ts';
import { bearer, givenTenant, instancePairForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { SEARCH_COLLECTIONS, viewOf } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { LISTED_CHANGES } from '../../../server/tenancy/revisions.ts';
import { shop } from './shop.ts';

const QUERIES = ['invoice', 'health', 'zebra', 'giraffe', 'currency', 'shop', 'okapi', 'refund', 'lines'];

describe('search: the records of a small write are read back, not whole collections', function () {
  this.timeout(180_000);
  let a: TestCatalog;
  let b: TestCatalog;
  instancePairForSuite((first, second) => { [a, b] = [first, second]; });

  async function shopTenant(document: Record<string, unknown> = shop()): Promise<Tenant> {
    const tenant = await givenTenant(a);
    const imported = await a.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(document);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    return tenant;
  }

  const hits = async (tenant: Tenant, query: string): Promise<string[]> => {
    const res = await a.request.get(`${tenant.prefixes.byId}/search`).query({ q: query }).set(bearer(tenant.key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.hits as { operation: { operationId: string } }[]).map((hit) => hit.operation.operationId);
  };

  const first = async (tenant: Tenant, collection: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
    const res = await b.request.get(`${tenant.prefixes.byId}/${collection}`).query({ limit: 100 }).set(bearer(tenant.key));
    const found = (res.body.items as Record<string, unknown>[]).find((item) => Object.entries(fields).every(([field, value]) => item[field] === value));
    expect(found, `${collection} ${JSON.stringify(fields)}`).to.not.equal(undefined);
    return found!;
  };

  /** Writes through `b`; the body of a create or a replace, the fields of a patch. */
  const write = async (tenant: Tenant, method: 'post' | 'patch' | 'delete', path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const res = await b.request[method](`${tenant.prefixes.byId}/${path}`).set(bearer(tenant.key)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201, 204]);
    return res.body as Record<string, unknown>;
  };

  const replacement = (record: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> => {
    const { id: _id, updatedAt: _updatedAt, versionId: _versionId, ...rest } = record;
    return { ...rest, ...fields };
  };

  /** `a`'s index after the writes: built by `how`, and equal, view and answers, to one built from scratch. */
  async function expectFresh(tenant: Tenant, how: 'patched' | 'reread'): Promise<void> {
    const indexes = a.runtime.searchIndexes;
    const before = { ...indexes.built };
    const kept = await indexes.of(tenant.version.id);
    expect(indexes.built).to.deep.equal({ ...before, [how]: before[how] + 1 });
    const fresh = await VersionIndex.of(await viewOf(a.runtime.stores, tenant.version.id));
    for (const name of SEARCH_COLLECTIONS) expect(kept.view.of(name), name).to.deep.equal(fresh.view.of(name));
    for (const query of QUERIES) expect(await kept.search({ query, limit: 50 }), query).to.deep.equal(await fresh.search({ query, limit: 50 }));
  }

  /** A write through `b`, then `a`'s next index: patched, and as fresh as one built from scratch. */
  const seen = async (tenant: Tenant, method: 'post' | 'patch' | 'delete', path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const answer = await write(tenant, method, path, body);
    await expectFresh(tenant, 'patched');
    return answer;
  };

  it('creates, replaces, patches and deletes operations, paths, parameters and services', async () => {
    const tenant = await shopTenant();
    expect(await hits(tenant, 'zebra')).to.deep.equal([]);
    const service = await first(tenant, 'services');
    const { pathId, id: statusId } = await first(tenant, 'operations', { operationId: 'getStatus' });

    // Operations.
    const zebras = await seen(tenant, 'post', 'operations', { pathId, method: 'put', operationId: 'feedZebras', summary: 'Feed the zebras' });
    expect(await hits(tenant, 'zebra')).to.deep.equal(['feedZebras']);
    await seen(tenant, 'post', `operations/${String(zebras['id'])}`, replacement(zebras, { operationId: 'feedGiraffes', summary: 'Feed the giraffes' }));
    expect(await hits(tenant, 'zebra')).to.deep.equal([]);
    expect(await hits(tenant, 'giraffe')).to.deep.equal(['feedGiraffes']);
    // Only the written operation's document is made anew, not the version's (a whole build).
    const indexed = a.runtime.searchIndexes.indexedDocuments;
    await seen(tenant, 'patch', `operations/${String(statusId)}`, { summary: 'Okapi probe' });
    expect(a.runtime.searchIndexes.indexedDocuments - indexed).to.equal(1);
    expect(await hits(tenant, 'okapi')).to.deep.equal(['getStatus']);
    await seen(tenant, 'delete', `operations/${String(zebras['id'])}`);
    expect(await hits(tenant, 'giraffe')).to.deep.equal([]);

    // Parameters.
    const currency = await seen(tenant, 'post', 'parameters', { operationId: statusId, name: 'currency', in: 'query', schema: { type: 'string' } });
    expect(await hits(tenant, 'currency')).to.deep.equal(['getStatus']);
    await seen(tenant, 'post', `parameters/${String(currency['id'])}`, replacement(currency, { description: 'Zebra count' }));
    await seen(tenant, 'patch', `parameters/${String(currency['id'])}`, { description: 'Lines per page' });
    await seen(tenant, 'delete', `parameters/${String(currency['id'])}`);
    expect(await hits(tenant, 'currency')).to.deep.equal([]);

    // Paths, with an operation under the new one.
    const refunds = await seen(tenant, 'post', 'paths', { serviceId: service['id'], path: '/refunds' });
    await seen(tenant, 'post', 'operations', { pathId: refunds['id'], method: 'post', operationId: 'createRefund', summary: 'Refund an invoice' });
    expect(await hits(tenant, 'refund')).to.deep.equal(['createRefund']);
    await seen(tenant, 'post', `paths/${String(refunds['id'])}`, replacement(refunds, { path: '/zebra-refunds' }));
    await seen(tenant, 'patch', `paths/${String(refunds['id'])}`, { summary: 'Okapi refunds' });
    await seen(tenant, 'delete', `paths/${String(refunds['id'])}`);

    // Services.
    const other = await seen(tenant, 'post', 'services', { slug: 'zoo', name: 'Zoo', organizationId: service['organizationId'] });
    await seen(tenant, 'post', `services/${String(other['id'])}`, replacement(other, { name: 'Zebra zoo' }));
    await seen(tenant, 'patch', `services/${String(service['id'])}`, { name: 'Okapi shop' });
    await seen(tenant, 'delete', `services/${String(other['id'])}`);
  });

  it('reads several writes since the last search back at once', async () => {
    const tenant = await shopTenant();
    expect(await hits(tenant, 'health')).to.deep.equal(['getStatus']);
    const { pathId, id: statusId } = await first(tenant, 'operations', { operationId: 'getStatus' });
    await write(tenant, 'post', 'operations', { pathId, method: 'put', operationId: 'feedZebras', summary: 'Feed the zebras' });
    await write(tenant, 'patch', `operations/${String(statusId)}`, { summary: 'Okapi probe', description: 'Up or down.' });
    await write(tenant, 'post', 'parameters', { operationId: statusId, name: 'currency', in: 'query', schema: { type: 'string' } });
    // A write search does not read, in between.
    await write(tenant, 'post', 'responses', { operationId: statusId, statusCode: 503, description: 'Down' });
    await expectFresh(tenant, 'patched');
    expect(await hits(tenant, 'health')).to.deep.equal([]);
    expect(await hits(tenant, 'zebra')).to.deep.equal(['feedZebras']);
    expect(await hits(tenant, 'currency')).to.deep.equal(['getStatus']);
  });

  it('reads the collections whole once more writes than are listed came in between, and keeps the list capped', async () => {
    const tenant = await shopTenant();
    expect(await hits(tenant, 'health')).to.deep.equal(['getStatus']);
    const { id } = await first(tenant, 'operations', { operationId: 'getStatus' });
    for (let n = 0; n <= LISTED_CHANGES; n += 1) await write(tenant, 'patch', `operations/${String(id)}`, { summary: `Probe number ${n}` });
    await write(tenant, 'patch', `operations/${String(id)}`, { summary: 'Okapi probe' });
    const version = await testDatabase().db.collection<{ _id: string; changes: unknown[] }>('versions').findOne({ _id: tenant.version.id });
    expect(version?.changes).to.have.length(LISTED_CHANGES);
    await expectFresh(tenant, 'reread');
    expect(await hits(tenant, 'okapi')).to.deep.equal(['getStatus']);
  });

  it('reads the collections whole after a bulk write too big to list its ids', async () => {
    const tenant = await shopTenant();
    expect(await hits(tenant, 'refund')).to.deep.equal([]);
    const document = shop() as { paths: Record<string, unknown> };
    for (let n = 0; n < 101; n += 1) document.paths[`/extra/${n}`] = { get: { operationId: `getExtra${n}`, summary: `Extra ${n}`, responses: { 200: { description: 'OK' } } } };
    document.paths['/refunds'] = { post: { operationId: 'createRefund', summary: 'Refund an invoice', responses: { 201: { description: 'Refunded' } } } };
    const imported = await b.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(document);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
    await expectFresh(tenant, 'reread');
    expect(await hits(tenant, 'refund')).to.deep.equal(['createRefund']);
  });
});
