// Traffic insights over HTTP: connections, reports (NDJSON, HAR, OTLP JSON) matched by servers and
// the most literal template, idempotency, all-or-nothing refusal, the endpoints view and its
// statuses and pages, the Service fields a report sets, access and tenancy, both families.
import { expect } from 'chai';
import type { Response } from 'supertest';
import { startCatalog, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { keeper, ndjson, zoo } from './zoo.ts';

interface Item {
  service: { id: string; slug: string };
  operation: { id: string; operationId: string; method: string; deprecated: boolean } | null;
  method: string;
  path: string;
  status: string;
  count: number;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  statusCodes: Record<string, number>;
}

describe('traffic insights: {prefix}/insights', function () {
  this.timeout(120_000);
  let service: TestCatalog;

  before(async () => {
    service = await startCatalog();
  });
  after(() => service.close());

  /** A tenant with the zoo and the keeper imported. */
  async function givenZoo(): Promise<Tenant> {
    const tenant = await givenTenant(service);
    for (const [slug, document] of [['zoo', zoo()], ['keeper', keeper()]] as const) {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(document);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    return tenant;
  }

  function report(tenant: Tenant, body: string | object, type = 'application/x-ndjson', prefix = tenant.prefixes.byId, headers: Record<string, string> = {}): Promise<Response> {
    return service.request.post(`${prefix}/insights/reports`).set(bearer(tenant.key)).set(headers).type(type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  async function view(tenant: Tenant, query: Record<string, string> = {}, prefix = tenant.prefixes.byId): Promise<Item[]> {
    const res = await service.request.get(`${prefix}/insights/endpoints`).query(query).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(service.runtime.schemas.check('https://catalog.example/schemas/api/insights.json#/$defs/endpointsPage')(res.body)).to.deep.equal([]);
    return res.body.items as Item[];
  }

  const byKey = (items: Item[]) => new Map(items.map((item) => [`${item.method} ${item.path}`, item]));

  describe('matching calls to operations', () => {
    it('matches by server host (variables expanded from their enum) and base path, then the most literal template', async () => {
      const tenant = await givenZoo();
      const res = await report(tenant, ndjson([
        { method: 'GET', url: 'https://eu.zoo.example/v1/pets/mine?token=secret', status: 200, time: '2026-11-20T10:00:00Z' },
        { method: 'GET', url: 'https://us.zoo.example/v1/pets/42', status: 200 },
        { method: 'get', host: 'us.zoo.example', path: '/v1/pets/7', status: 404 },
        { method: 'GET', url: 'https://eu.zoo.example/v1/pets', status: 200 },
        { method: 'GET', url: 'https://keeper.example:8443/shifts', status: 200 },
        // Not the zoo: another region, another base path, a host no service has.
        { method: 'GET', url: 'https://asia.zoo.example/v1/pets', status: 200 },
        { method: 'GET', url: 'https://eu.zoo.example/v2/pets', status: 200 },
        { method: 'GET', url: 'https://elsewhere.example/pets', status: 200 },
      ]));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ received: 8, matched: 5, shadow: 0, unmatched: 3, grouped: { calls: 0, templates: 0 }, duplicate: false });
      const items = byKey(await view(tenant, { service: 'zoo' }));
      expect(items.get('GET /pets/mine')).to.include({ status: 'active', count: 1, firstSeenAt: '2026-11-20T10:00:00.000Z' });
      expect(items.get('GET /pets/mine')!.operation).to.include({ operationId: 'myPets' });
      expect(items.get('GET /pets/{petId}')).to.deep.include({ status: 'active', count: 2, statusCodes: { 200: 1, 404: 1 } });
      expect(items.get('GET /pets')).to.include({ count: 1 });
      expect(items.get('POST /feeding')).to.include({ status: 'unobserved', count: 0, lastSeenAt: null });
      expect(byKey(await view(tenant, { service: 'keeper' })).get('GET /shifts')).to.include({ status: 'active', count: 1 });
    });

    it('keeps undocumented calls of a known service as shadow endpoints, ids folded, and calls the deprecated ones still get zombies', async () => {
      const tenant = await givenZoo();
      const res = await report(tenant, ndjson([
        { method: 'GET', url: 'https://eu.zoo.example/v1/cages/12/animals/3f2504e0-4f89-11d3-9a0c-0305e82c3301', status: 200 },
        { method: 'GET', url: 'https://eu.zoo.example/v1/cages/13/animals/9b2504e0-4f89-11d3-9a0c-0305e82c3301', status: 500 },
        { method: 'POST', url: 'https://eu.zoo.example/v1/pets/mine', status: 405 },
        { method: 'DELETE', url: 'https://eu.zoo.example/v1/pets/42', status: 204 },
        // A path nobody serves (a scanner's probe): answered 404, no operation documents it.
        { method: 'GET', url: 'https://eu.zoo.example/v1/wp-login.php', status: 404 },
        { method: 'GET', url: 'https://elsewhere.example/pets', status: 200 },
      ]));
      // The counts agree with the view: `shadow` is what it lists as shadow, `unmatched` what it lists nowhere.
      expect(res.body).to.deep.include({ received: 6, matched: 1, shadow: 3, unmatched: 2 });
      const shadows = await view(tenant, { status: 'shadow' });
      expect(shadows.map((item) => `${item.method} ${item.path} ${item.count}`)).to.deep.equal([
        'GET /cages/{id}/animals/{id} 2',
        'POST /pets/mine 1',
      ]);
      expect(shadows.reduce((sum, item) => sum + item.count, 0)).to.equal(res.body.shadow);
      expect((await view(tenant)).filter((item) => item.path.includes('wp-login'))).to.deep.equal([]);
      expect(shadows[0]!.operation).to.equal(null);
      expect(shadows[0]!.service.slug).to.equal('zoo');
      const zombies = await view(tenant, { status: 'zombie' });
      expect(zombies.map((item) => item.operation!.operationId)).to.deep.equal(['deletePet']);
    });

    it('attributes host-less calls to ?service=, and refuses an unknown one', async () => {
      const tenant = await givenZoo();
      const res = await service.request.post(`${tenant.prefixes.byAddress}/insights/reports?service=zoo`).set(bearer(tenant.key)).type('application/x-ndjson')
        .send(ndjson([{ method: 'GET', path: '/v1/pets/mine', status: 200 }, { method: 'GET', url: '/pets/5?x=1', status: 200 }]));
      expect(res.body).to.deep.equal({ received: 2, matched: 2, shadow: 0, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: false });
      expect(byKey(await view(tenant, {}, tenant.prefixes.byAddress)).get('GET /pets/{petId}')).to.include({ count: 1 });
      // By id as by slug.
      const id = (await serviceRecord(tenant, 'zoo')).id as string;
      const byId = await service.request.post(`${tenant.prefixes.byId}/insights/reports?service=${id}`).set(bearer(tenant.key)).type('application/x-ndjson')
        .send(ndjson([{ method: 'GET', url: '/pets/6', status: 200 }]));
      expect(byId.body).to.include({ matched: 1 });
      expect(byKey(await view(tenant, { service: id })).get('GET /pets/{petId}')).to.include({ count: 2 });
      const unknown = await service.request.post(`${tenant.prefixes.byId}/insights/reports?service=nope`).set(bearer(tenant.key)).type('application/x-ndjson')
        .send(ndjson([{ method: 'GET', path: '/pets' }]));
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({ error: 'Service not found' });
    });
  });

  describe('reports in each format', () => {
    it('reads a HAR: entries are counted and mention the service they called', async () => {
      const tenant = await givenZoo();
      const har = { log: { version: '1.2', entries: [
        { startedDateTime: '2026-11-23T08:00:00.000Z', request: { method: 'GET', url: 'https://eu.zoo.example/v1/pets', headers: [{ name: 'Authorization', value: 'Bearer secret' }] }, response: { status: 200 } },
        { startedDateTime: '2026-11-23T08:00:01.000Z', request: { method: 'GET', url: 'https://eu.zoo.example/v1/pets/9' }, response: { status: 0 } },
      ] } };
      const res = await report(tenant, har, 'application/har+json');
      expect(res.body).to.deep.equal({ received: 2, matched: 2, shadow: 0, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: false });
      const zooRecord = await serviceRecord(tenant, 'zoo');
      expect(zooRecord['lastReportAt']).to.be.a('string');
      expect(zooRecord['lastMentionAt']).to.be.a('string');
      expect(byKey(await view(tenant)).get('GET /pets/{petId}')!.statusCodes).to.deep.equal({});
    });

    it('reads OTLP JSON: server spans are calls, client spans mention the service they called', async () => {
      const tenant = await givenZoo();
      const attribute = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
      const otlp = { resourceSpans: [{
        resource: { attributes: [attribute('service.name', 'zoo')] },
        scopeSpans: [{ spans: [
          { kind: 2, startTimeUnixNano: '1763884800000000000', attributes: [attribute('http.request.method', 'GET'), attribute('url.path', '/v1/pets/mine'), attribute('server.address', 'us.zoo.example'), attribute('http.response.status_code', 200)] },
          { kind: 'SPAN_KIND_SERVER', attributes: [attribute('http.method', 'GET'), attribute('http.target', '/v1/pets/3?q=1'), attribute('net.host.name', 'eu.zoo.example'), attribute('http.status_code', 503)] },
          { kind: 3, attributes: [attribute('http.request.method', 'GET'), attribute('url.full', 'https://keeper.example:8443/shifts')] },
          { kind: 1, attributes: [attribute('db.system', 'mongodb')] },
        ] }],
      }] };
      const res = await report(tenant, otlp, 'application/json');
      expect(res.body).to.deep.equal({ received: 2, matched: 2, shadow: 0, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: false });
      const items = byKey(await view(tenant));
      expect(items.get('GET /pets/mine')).to.include({ count: 1, firstSeenAt: '2025-11-23T08:00:00.000Z' });
      expect(items.get('GET /pets/{petId}')!.statusCodes).to.deep.equal({ 503: 1 });
      // The client span counted nothing, but the keeper was mentioned by the zoo.
      expect(items.get('GET /shifts')).to.include({ count: 0 });
      expect((await serviceRecord(tenant, 'keeper'))['lastMentionAt']).to.be.a('string');
      expect((await serviceRecord(tenant, 'keeper'))['lastReportAt']).to.equal(undefined);
      expect((await serviceRecord(tenant, 'zoo'))['lastMentionAt']).to.equal(undefined);
    });
  });

  describe('all or nothing', () => {
    it('refuses a malformed report with details and counts none of it', async () => {
      const tenant = await givenZoo();
      const good = { startedDateTime: '2026-11-23T08:00:00.000Z', request: { method: 'GET', url: 'https://eu.zoo.example/v1/pets' }, response: { status: 200 } };
      const bad = { startedDateTime: '2026-11-23T08:00:00.000Z', request: { method: 'GET' }, response: { status: 200 } };
      const har = await report(tenant, { log: { entries: [good, good, bad] } }, 'application/json');
      expect(har.status).to.equal(400);
      expect(har.body.error).to.equal('Invalid request');
      expect(har.body.details[0].field).to.equal('/log/entries/2/request/url');
      const lines = await report(tenant, `${JSON.stringify({ method: 'GET', url: 'https://eu.zoo.example/v1/pets' })}\n{"method": "GET"`);
      expect(lines.status).to.equal(400);
      expect(lines.body.details[0]).to.include({ field: 'line 2' });
      const shape = await report(tenant, { something: 'else' }, 'application/json');
      expect(shape.status).to.equal(400);
      expect((await service.request.post(`${tenant.prefixes.byId}/insights/reports`).set(bearer(tenant.key)).type('text/plain').send('x')).status).to.equal(415);
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ count: 0, status: 'unobserved' });
      expect((await serviceRecord(tenant, 'zoo'))['lastReportAt']).to.equal(undefined);
    });
  });

  describe('idempotency', () => {
    it('counts a report sent twice with the same Idempotency-Key once, and answers the retry with the first counts', async () => {
      const tenant = await givenZoo();
      const body = ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets', status: 200 }, { method: 'GET', url: 'https://eu.zoo.example/v1/nowhere' }]);
      const first = await report(tenant, body, undefined, undefined, { 'Idempotency-Key': 'batch-0001' });
      const again = await report(tenant, body, undefined, tenant.prefixes.byAddress, { 'Idempotency-Key': 'batch-0001' });
      expect(first.body).to.deep.equal({ received: 2, matched: 1, shadow: 1, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: false });
      expect(again.body).to.deep.equal({ received: 2, matched: 1, shadow: 1, unmatched: 0, grouped: { calls: 0, templates: 0 }, duplicate: true });
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ count: 1 });
      // Another key, or another version, counts again.
      expect((await report(tenant, body, undefined, undefined, { 'Idempotency-Key': 'batch-0002' })).body.duplicate).to.equal(false);
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ count: 2 });
      expect((await report(tenant, body, undefined, undefined, { 'Idempotency-Key': 'bad key' })).status).to.equal(400);
    });

    it('a refused report does not use up its key', async () => {
      const tenant = await givenZoo();
      const bad = await report(tenant, '{"method": 1}', undefined, undefined, { 'Idempotency-Key': 'k1' });
      expect(bad.status).to.equal(400);
      const good = await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets' }]), undefined, undefined, { 'Idempotency-Key': 'k1' });
      expect(good.body).to.include({ matched: 1, duplicate: false });
    });
  });

  describe('concurrent reports', () => {
    it('lose no increment: 12 reports of 25 calls at once count 300', async () => {
      const tenant = await givenZoo();
      const body = ndjson(Array.from({ length: 25 }, (_, i) => ({ method: 'GET', url: `https://eu.zoo.example/v1/pets/${i}`, status: 200 + (i % 2) })));
      const answers = await Promise.all(Array.from({ length: 12 }, () => report(tenant, body)));
      for (const answer of answers) expect(answer.body, JSON.stringify(answer.body)).to.include({ matched: 25 });
      const item = byKey(await view(tenant)).get('GET /pets/{petId}')!;
      expect(item.count).to.equal(300);
      expect(item.statusCodes).to.deep.equal({ 200: 156, 201: 144 });
    });
  });

  describe('connections and statuses', () => {
    it('a connection makes unseen endpoints orphans; ending it makes them unobserved again', async () => {
      const tenant = await givenZoo();
      const connected = await service.request.post(`${tenant.prefixes.byAddress}/insights/connections`).set(bearer(tenant.key)).send({ service: 'zoo' });
      expect(connected.status, JSON.stringify(connected.body)).to.equal(200);
      // The connection, not the whole Service record (40 KB for a large description).
      const zooRecord = await serviceRecord(tenant, 'zoo');
      expect(connected.body).to.deep.equal({ service: { id: zooRecord.id, slug: 'zoo' }, hasConnection: true, lastConnectionAt: zooRecord['lastConnectionAt'] });
      expect(service.runtime.schemas.check('https://catalog.example/schemas/api/insights.json#/$defs/connection')(connected.body)).to.deep.equal([]);
      expect(Date.parse(connected.body.lastConnectionAt)).to.be.closeTo(Date.now(), 60_000);
      expect(byKey(await view(tenant, { service: 'zoo' })).get('POST /feeding')).to.include({ status: 'orphan' });
      expect(byKey(await view(tenant, { service: 'keeper' })).get('GET /shifts')).to.include({ status: 'unobserved' });
      // `since` decides what is recent: a call from long ago leaves the endpoint an orphan.
      await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets', time: '2020-01-01T00:00:00Z' }]));
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ status: 'orphan', count: 1 });
      expect(byKey(await view(tenant, { since: '2019-12-31T00:00:00Z' })).get('GET /pets')).to.include({ status: 'active' });
      const id = (await serviceRecord(tenant, 'zoo')).id as string;
      expect((await service.request.delete(`${tenant.prefixes.byId}/insights/connections/${id}`).set(bearer(tenant.key))).status).to.equal(204);
      expect(await serviceRecord(tenant, 'zoo')).to.include({ hasConnection: false });
      expect(byKey(await view(tenant)).get('POST /feeding')).to.include({ status: 'unobserved' });
      expect((await service.request.delete(`${tenant.prefixes.byId}/insights/connections/nope`).set(bearer(tenant.key))).status).to.equal(404);
      expect((await service.request.post(`${tenant.prefixes.byId}/insights/connections`).set(bearer(tenant.key)).send({ service: 'zoo', extra: 1 })).status).to.equal(400);
    });
  });

  describe('the endpoints view', () => {
    it('pages by keyset without repeats or gaps, and checks its query', async () => {
      const tenant = await givenZoo();
      await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/a/1' }, { method: 'GET', url: 'https://eu.zoo.example/v1/b/2' }]));
      const all = await view(tenant);
      expect(all.map((item) => `${item.service.slug} ${item.method} ${item.path}`)).to.deep.equal([
        'keeper GET /shifts', 'zoo GET /a/{id}', 'zoo GET /b/{id}', 'zoo POST /feeding', 'zoo GET /pets', 'zoo GET /pets/mine', 'zoo DELETE /pets/{petId}', 'zoo GET /pets/{petId}',
      ]);
      const walked: Item[] = [];
      let cursor: string | undefined;
      do {
        const res = await service.request.get(`${tenant.prefixes.byAddress}/insights/endpoints`).query({ limit: '3', ...(cursor && { cursor }) }).set(bearer(tenant.readOnlyKey));
        expect(res.body.pagination.limit).to.equal(3);
        walked.push(...res.body.items);
        cursor = res.body.pagination.nextCursor ?? undefined;
        expect(res.body.pagination.hasMore).to.equal(cursor !== undefined);
      } while (cursor);
      expect(walked).to.deep.equal(all);
      for (const [query, field] of [[{ status: 'busy' }, 'status'], [{ since: 'yesterday' }, 'since'], [{ limit: '0' }, 'limit'], [{ cursor: 'nonsense' }, 'cursor'], [{ sort: 'path' }, 'sort']] as const) {
        const res = await service.request.get(`${tenant.prefixes.byId}/insights/endpoints`).query(query).set(bearer(tenant.readOnlyKey));
        expect(res.status, field).to.equal(400);
        expect(res.body.details[0].field).to.equal(field);
      }
      expect((await service.request.get(`${tenant.prefixes.byId}/insights/endpoints?service=nope`).set(bearer(tenant.readOnlyKey))).status).to.equal(404);
    });
  });

  describe('observations are not records', () => {
    it('leave operations untouched, are copied with a version copy and gone with a version delete', async () => {
      const tenant = await givenZoo();
      const before = await service.request.get(`${tenant.prefixes.byId}/operations`).set(bearer(tenant.key));
      await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets' }]));
      const after = await service.request.get(`${tenant.prefixes.byId}/operations`).set(bearer(tenant.key));
      expect(after.body.items).to.deep.equal(before.body.items);
      const copy = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key))
        .send({ type: 'branch', slug: 'copy', copyFrom: tenant.version.id });
      expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
      const copied = `/v2/catalog/versions/${copy.body.id}`;
      expect(byKey(await view(tenant, {}, copied)).get('GET /pets')).to.include({ count: 1 });
      const diff = await service.request.get(`${copied}/diff`).query({ against: tenant.version.id }).set(bearer(tenant.key));
      expect(diff.status).to.equal(200);
      expect(JSON.stringify(diff.body)).to.not.include('obs_');
      // Counting in the copy leaves the original as it was.
      await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets' }]), undefined, copied);
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ count: 1 });
      expect((await service.request.delete(copied).set(bearer(tenant.key))).status).to.equal(204);
      const left = await service.runtime.database.db.collection('observations').countDocuments({ versionId: copy.body.id });
      expect(left).to.equal(0);
    });
  });

  describe('access', () => {
    it('refuses read-only credentials on writes, and other projects everywhere', async () => {
      const tenant = await givenZoo();
      const other = await givenTenant(service);
      const line = ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets' }]);
      for (const prefix of [tenant.prefixes.byId, tenant.prefixes.byAddress]) {
        const readOnly = await service.request.post(`${prefix}/insights/reports`).set(bearer(tenant.readOnlyKey)).type('application/x-ndjson').send(line);
        expect(readOnly.status).to.equal(403);
        expect((await service.request.post(`${prefix}/insights/connections`).set(bearer(tenant.readOnlyKey)).send({ service: 'zoo' })).status).to.equal(403);
        expect((await service.request.delete(`${prefix}/insights/connections/zoo`).set(bearer(tenant.readOnlyKey))).status).to.equal(403);
        expect((await service.request.post(`${prefix}/insights/reports`).set(bearer(other.key)).type('application/x-ndjson').send(line)).status).to.equal(403);
        expect((await service.request.get(`${prefix}/insights/endpoints`).set(bearer(other.key))).status).to.equal(403);
        expect((await service.request.get(`${prefix}/insights/endpoints`)).status).to.equal(401);
      }
      expect(byKey(await view(tenant)).get('GET /pets')).to.include({ count: 0 });
    });
  });

  describe('search hits', () => {
    it('carry observed: {count, lastSeenAt} or null', async () => {
      const tenant = await givenZoo();
      await report(tenant, ndjson([{ method: 'GET', url: 'https://eu.zoo.example/v1/pets/mine', time: '2026-11-01T00:00:00Z' }]));
      const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: 'pets' }).set(bearer(tenant.readOnlyKey));
      const hits = new Map((res.body.hits as { operation: { operationId: string }; observed: unknown }[]).map((hit) => [hit.operation.operationId, hit.observed]));
      expect(hits.get('myPets')).to.deep.equal({ count: 1, lastSeenAt: '2026-11-01T00:00:00.000Z' });
      expect(hits.get('listPets')).to.equal(null);
    });
  });

  async function serviceRecord(tenant: Tenant, slug: string): Promise<Record<string, unknown>> {
    const res = await service.request.get(`${tenant.prefixes.byId}/services`).query({ slug }).set(bearer(tenant.key));
    return res.body.items[0] as Record<string, unknown>;
  }
});
