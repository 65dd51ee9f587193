// What the pages read is fresh: an operation's page reads its own records each time
// (views/operation-records.ts), and a changes page is the interface's report made on the call,
// so a page right after a write shows it.
import { expect } from 'chai';
import supertest from 'supertest';
import { exportService } from '../../../server/descriptions/export.ts';
import { endpointDetail } from '../../../server/search/endpoints.ts';
import { operationNeighbourhood } from '../../../server/views/operation-records.ts';
import { serviceScoped } from '../../../server/views/service-records.ts';
import { bearer, givenTenant, type Tenant } from '../../support/catalog.ts';
import { pagesFixtureForSuite, versionPath, type PagesFixture } from './fixture.ts';

const SHOP = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://shop.example.com' }],
  // NotFound is kept as a service part (descriptions/service-parts.ts), not a record.
  components: { schemas: { Item: { type: 'object', properties: { name: { type: 'string' } } } }, responses: { NotFound: { description: 'No such page.' } } },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        responses: { 200: { description: 'The items.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } }, 404: { $ref: '#/components/responses/NotFound' } },
      },
      post: {
        operationId: 'addItem',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { 201: { description: 'Added.' } },
      },
    },
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'One item.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    },
  },
};

describe('pages: reads fresh after a write', function () {
  this.timeout(300_000);
  let fixture: PagesFixture;
  let tenant: Tenant;
  pagesFixtureForSuite((made) => { fixture = made; });
  before(async () => {
    tenant = await givenTenant(fixture.service);
    const imported = await fixture.service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(SHOP);
    expect(imported.status).to.equal(201);
  });

  const markdown = (url: string) => supertest(fixture.service.app).get(url).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
  const operationPage = (operationId: string) => markdown(`${versionPath(tenant)}/services/shop/operations/${operationId}`);
  const htmlPage = (operationId: string) => supertest(fixture.service.app).get(`${versionPath(tenant)}/services/shop/operations/${operationId}`).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/html');

  it("shows a write to an operation in the side panel of the service's other operations' pages right away", async () => {
    const panel = async () => [...(await htmlPage('getItem')).text.matchAll(/<li><a href="[^"]+\/operations\/(\w+)"[^>]*><span class="m m-\w+">\w+<\/span> ([^<]+)<\/a><\/li>/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(await panel()).to.deep.equal(['listItems /items', 'addItem /items', 'getItem /items/{id}']);
    const [addItem] = await fixture.service.runtime.stores.get('operations')!.matching(tenant.version.id, { operationId: 'addItem' });
    const patched = await fixture.service.request.patch(`${tenant.prefixes.byId}/operations/${addItem!.id}`).set(bearer(tenant.key)).send({ summary: 'Add an item' });
    expect(patched.status).to.equal(200);
    expect(await panel()).to.deep.equal(['listItems /items', 'addItem Add an item', 'getItem /items/{id}']);
  });

  it("reads an operation's page from its own records, right after the import and after a write to a response or schema", async () => {
    const { runtime } = fixture.service;
    expect((await operationPage('getItem')).text).to.include('One item.');
    expect((await htmlPage('getItem')).text).to.include('Item').and.not.to.include('price');
    expect((await operationPage('listItems')).text).to.include('The items.');
    expect((await operationPage('addItem')).text).to.include('Added.');

    const versionId = tenant.version.id;
    const [getItem] = await runtime.stores.get('operations')!.matching(versionId, { operationId: 'getItem' });
    const [response] = await runtime.stores.get('responses')!.matching(versionId, { operationId: getItem!.id });
    const patched = await fixture.service.request.patch(`${tenant.prefixes.byId}/responses/${response!.id}`).set(bearer(tenant.key)).send({ description: 'One item, freshly described.' });
    expect(patched.status).to.equal(200);
    expect((await operationPage('getItem')).text).to.include('One item, freshly described.').and.not.to.include('One item.');

    const [item] = await runtime.stores.get('resources')!.matching(versionId, { name: 'Item' });
    const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } };
    expect((await fixture.service.request.patch(`${tenant.prefixes.byId}/resources/${item!.id}`).set(bearer(tenant.key)).send({ schema })).status).to.equal(200);
    expect((await htmlPage('getItem')).text).to.include('price');

    // MCP get_endpoint's detail reads the same way: fresh too, with only the schemas the operation reaches.
    const { view } = await runtime.searchIndexes.of(versionId);
    const detail = await endpointDetail(runtime.stores, view, view.byId('operations', getItem!.id)!);
    expect(detail.responses.map((record) => record['description'])).to.deep.equal(['One item, freshly described.']);
    expect([...detail.components]).to.deep.equal([['Item', schema]]);
  });

  it("reads nothing of the version's other services for an operation's page", async () => {
    const { runtime } = fixture.service;
    const other = { ...SHOP, info: { title: 'Other', version: '1' }, components: { schemas: { Unrelated: { type: 'string' } } }, paths: { '/else': { get: { operationId: 'getItem', responses: { 200: { description: 'Another service.' } } } } } };
    expect((await fixture.service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=other`).set(bearer(tenant.key)).send(other)).status).to.equal(201);
    const read = await operationNeighbourhood(runtime.stores, tenant.version.id, 'shop', 'getItem');
    const ids = new Map(read.map(([name, records]) => [name, records.map((record) => String(record['serviceId'] ?? record['pathId'] ?? record['operationId'] ?? record['slug'] ?? ''))]));
    expect(ids.get('services')).to.deep.equal(['shop']);
    const shop = read.find(([name]) => name === 'services')![1][0]!;
    expect(ids.get('paths')!.every((owner) => owner === shop.id)).to.equal(true);
    // The operation first, then those of its own and the nearest paths of its service (its previous and next links).
    const operations = read.find(([name]) => name === 'operations')![1];
    expect(operations[0]!['operationId']).to.equal('getItem');
    const shopPaths = new Set(read.find(([name]) => name === 'paths')![1].map((path) => path.id));
    expect(operations.every((operation) => shopPaths.has(String(operation['pathId'])))).to.equal(true);
    expect((await operationPage('getItem')).text).to.include('One item').and.not.to.include('Another service.');
  });

  it("shows the changes of a write at once, as the interface's report gives them", async () => {
    const { runtime } = fixture.service;
    const next = await runtime.tenancy.versions.create(tenant.project.id, 'branch', 'next');
    const nextPrefix = `/v2/catalog/versions/${next.id}`;
    expect((await fixture.service.request.post(`${nextPrefix}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(SHOP)).status).to.equal(201);
    const at = `/catalog/${tenant.project.slug}/branch/next/services/shop`;
    // (The first test wrote to main: its changes are not nothing, but no operation is gone.)
    expect((await markdown(`${at}/changes?against=branch/main`)).text).to.include('From branch/main').and.not.to.match(/GET \/items\/\\\{id\\\} was removed/);

    const { '/items/{id}': _gone, ...paths } = SHOP.paths;
    const notFound = { description: 'Gone.', content: { 'application/json': { schema: { type: 'object', required: ['reason'], properties: { reason: { type: 'string' } } } } } };
    const changed = { ...SHOP, paths, components: { ...SHOP.components, responses: { NotFound: notFound } } };
    expect((await fixture.service.request.post(`${nextPrefix}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(changed)).status).to.be.oneOf([200, 201]);
    const changes = await markdown(`${at}/changes?against=branch/main`);
    // The same report as the interface's, which compares the records' exports (no service parts).
    const report = await fixture.service.request.get(`${nextPrefix}/changes?against=${tenant.version.id}&service=shop`).set(bearer(tenant.readOnlyKey));
    expect(report.status).to.equal(200);
    expect(changes.text).to.include(`From branch/main: ${report.body.summary.breaking} breaking, ${report.body.summary.nonBreaking} other`);
    expect(changes.text).to.match(/- breaking: GET \/items\/\\\{id\\\} GET \/items\/\\\{id\\\} was removed/);
    // Back as it was: the page, made again, has no removal to show.
    expect((await fixture.service.request.post(`${nextPrefix}/imports/openapi?service=shop`).set(bearer(tenant.key)).send(SHOP)).status).to.be.oneOf([200, 201]);
    expect((await markdown(`${at}/changes?against=branch/main`)).text).not.to.match(/GET \/items\/\\\{id\\\} was removed/);
    expect((await runtime.stores.get('paths')!.matching(next.id, { path: '/items/{id}' })).length).to.equal(1);
  });
  it("exports from the service's own records what an export of the whole version's records gives", async () => {
    const { runtime } = fixture.service;
    const versionId = tenant.version.id;
    // Another service sharing a schema's name, and one naming a schema only the first one has.
    const other = { openapi: '3.1.0', info: { title: 'Other', version: '1' }, components: { schemas: { Item: { type: 'string' } } }, paths: { '/else': { get: { operationId: 'getElse', responses: { 200: { description: 'Else.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } } } } };
    expect((await fixture.service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=elsewhere`).set(bearer(tenant.key)).send(other)).status).to.be.oneOf([200, 201]);
    const whole = new Map([...runtime.stores].map(([name, store]) => [name, { collection: store.collection, all: (id: string) => store.all(id) }]));
    for (const slug of ['shop', 'elsewhere']) {
      const [service] = await runtime.stores.get('services')!.matching(versionId, { slug });
      const scoped = await exportService(serviceScoped(runtime.stores, versionId, service!), versionId, service!);
      expect(scoped, slug).to.deep.equal(await exportService(whole, versionId, service!));
      expect(Object.keys(scoped['paths'] as object).length, slug).to.be.at.least(1);
    }
  });

  it('shows no changes between a copy not written since and its source, and the write once it is', async () => {
    const { runtime } = fixture.service;
    const copy = await fixture.service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key))
      .send({ type: 'branch', slug: 'unwritten-copy', copyFrom: tenant.version.id });
    expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
    const page = () => markdown(`/catalog/${tenant.project.slug}/branch/unwritten-copy/services/shop/changes?against=branch/main`);
    expect((await page()).text).to.include('From branch/main: 0 breaking, 0 other');
    // Once the copy is written, both are exported and compared.
    const [listItems] = await runtime.stores.get('operations')!.matching(String(copy.body.id), { operationId: 'listItems' });
    expect((await fixture.service.request.delete(`/v2/catalog/versions/${String(copy.body.id)}/operations/${listItems!.id}`).set(bearer(tenant.key))).status).to.equal(204);
    expect((await page()).text).to.match(/GET \/items was removed/);
  });

  it("pages a service's operations with each one's traffic and the shadow endpoints, and shows an operation imported since at once", async () => {
    const things = (count: number) => ({
      openapi: '3.1.0', info: { title: 'Many', version: '1' },
      paths: Object.fromEntries(Array.from({ length: count }, (_, i) => [`/things/${String(i).padStart(3, '0')}`, { get: { operationId: `getThing${i}`, responses: { 200: { description: 'A thing.' } } } }])),
    });
    const imported = await fixture.service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=many`).set(bearer(tenant.key)).send(things(250));
    expect(imported.status).to.equal(201);
    const reported = await fixture.service.request.post(`${tenant.prefixes.byId}/insights/reports?service=many`).set(bearer(tenant.key)).type('application/x-ndjson')
      .send([{ method: 'GET', url: '/things/230', status: 200 }, { method: 'DELETE', url: '/things/001', status: 204 }].map((line) => JSON.stringify(line)).join('\n'));
    expect(reported.body).to.deep.include({ matched: 1, shadow: 1 });
    const at = `${versionPath(tenant)}/services/many`;
    const first = (await markdown(at)).text;
    expect(first).to.include('Page 1 of 2 (250 operations, by path)').and.to.match(/\/things\/000\]\(.*\): {2}\(traffic: unobserved/);
    // An undocumented method on a documented literal path keeps the path: it is no id.
    expect(first).to.match(/^- DELETE \/things\/001: 1 calls/m);
    const second = (await markdown(`${at}?page=2`)).text;
    expect(second).to.match(/\/things\/230\]\(.*\): {2}\(traffic: active, last seen \d{4}-/).and.to.match(/\/things\/231\]\(.*\): {2}\(traffic: unobserved/);
    expect(second).to.include('Page 2 of 2').and.not.to.include('/things/199');

    expect((await fixture.service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=many`).set(bearer(tenant.key)).send(things(260))).status).to.be.oneOf([200, 201]);
    expect((await markdown(`${at}?page=2`)).text).to.include('(260 operations, by path)').and.to.include('/things/259').and.to.match(/\/things\/230\]\(.*\): {2}\(traffic: active/);
  });
});
