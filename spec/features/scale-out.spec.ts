// Two service processes on one database, as behind a load balancer: a cursor issued by one
// resumes exactly on the other, a client-chosen id created on both is stored once, a write on
// one is in the next search on the other, and a revoked key stops working on both within
// API_KEY_CACHE_MS (docs/scaling.md).
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { testDatabase } from '../support/database.ts';
import { spawnService, type ServiceProcess } from '../support/process.ts';
import { JWT_SECRET, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';
import { shop } from './search/shop.ts';

const SERVICE_ID = `svc_${'0'.repeat(26)}`;
/** How long each instance remembers a usable key; short, so the bound is quick to observe. */
const KEY_CACHE_MS = 1000;

describe('Two instances on one database', function () {
  this.timeout(180_000);
  let local: TestCatalog;
  let instances: ServiceProcess[];
  let tenant: Tenant;

  before(async () => {
    local = await startCatalog();
    const env = { MONGODB_URI: testDatabase().uri, JWT_SECRET, API_KEY_CACHE_MS: String(KEY_CACHE_MS) };
    instances = await Promise.all([spawnService(env), spawnService(env)]);
  });
  after(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await local?.close();
  });
  beforeEach(async () => { tenant = await givenTenant(local); });

  async function call(instance: ServiceProcess, method: string, url: string, body?: unknown, key = tenant.key) {
    const response = await fetch(`${instance.url}${url}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  it('resumes a cursor issued by one instance exactly on the other, even after its item was deleted', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    for (let i = 1; i <= 7; i++) {
      const created = await call(a, 'POST', `${tenant.prefixes.byId}/paths`, { serviceId: SERVICE_ID, path: `/p${i}`, summary: `s${i}` });
      expect(created.status).to.equal(201);
    }
    const first = await call(a, 'GET', `${tenant.prefixes.byId}/paths?sort=summary&limit=3`);
    expect(first.body.items.map((item: { summary: string }) => item.summary)).to.deep.equal(['s1', 's2', 's3']);
    const cursor = first.body.pagination.nextCursor as string;
    // Without the issuing instance's position, the other would have nothing to resume from.
    const deleted = await call(a, 'DELETE', `${tenant.prefixes.byId}/paths/${cursor}`);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
    const second = await call(b, 'GET', `${tenant.prefixes.byAddress}/paths?sort=summary&limit=3&cursor=${cursor}`);
    expect(second.status).to.equal(200);
    expect(second.body.items.map((item: { summary: string }) => item.summary)).to.deep.equal(['s5', 's6', 's7']);
    expect(second.body.pagination.nextCursor).to.equal(null);
  });

  it('stores a client-chosen id created on both at once exactly once: one 201, one 409', async () => {
    for (let round = 0; round < 5; round++) {
      const id = `path_${String(round).padStart(2, '0')}${'A'.repeat(24)}`;
      const body = { id, serviceId: SERVICE_ID, path: `/race/${round}` };
      const statuses = (await Promise.all(instances.map((instance) => call(instance, 'POST', `${tenant.prefixes.byId}/paths`, body))))
        .map((response) => response.status).sort();
      expect(statuses).to.deep.equal([201, 409]);
    }
  });

  it('searches fresh on each instance: a write on one is in the next search on the other', async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    expect((await call(a, 'POST', `${tenant.prefixes.byId}/imports/openapi?service=shop`, shop())).status).to.equal(201);
    const operationIds = async (instance: ServiceProcess, query: string) => ((await call(instance, 'GET', `${tenant.prefixes.byAddress}/search?q=${query}`)).body.hits as { operation: { operationId: string } }[])
      .map((hit) => hit.operation.operationId);
    expect(await operationIds(b, 'health')).to.deep.equal(['getStatus']);
    const operations = (await call(a, 'GET', `${tenant.prefixes.byId}/operations?limit=100`)).body.items as { id: string; operationId: string }[];
    const status = operations.find((operation) => operation.operationId === 'getStatus')!;
    expect((await call(a, 'PATCH', `${tenant.prefixes.byId}/operations/${status.id}`, { summary: 'Heartbeat of the shop' })).status).to.equal(200);
    expect(await operationIds(b, 'heartbeat')).to.deep.equal(['getStatus']);
    expect((await call(a, 'DELETE', `${tenant.prefixes.byId}/operations/${status.id}`)).status).to.equal(204);
    expect(await operationIds(b, 'heartbeat')).to.deep.equal([]);
  });

  it('refuses a revoked key on every instance once API_KEY_CACHE_MS has passed', async () => {
    for (const instance of instances) expect((await call(instance, 'GET', `${tenant.prefixes.byId}/paths`)).status).to.equal(200);
    const key = await local.runtime.tenancy.apiKeys.find(tenant.key);
    await local.runtime.tenancy.apiKeys.revoke(key!.id);
    await sleep(KEY_CACHE_MS + 100);
    for (const instance of instances) expect((await call(instance, 'GET', `${tenant.prefixes.byId}/paths`)).status).to.equal(401);
  });
});
