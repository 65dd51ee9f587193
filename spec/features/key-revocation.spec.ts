// Revoking a project API key: how soon it stops working. Usable keys are remembered for
// API_KEY_CACHE_MS so that a request does not pay a database round trip for its key; that
// lifetime is the stated bound (README, docs/scaling.md). Revocation happens in another process
// in real use (the admin CLI); here it goes straight to the database through `tenancy`, which the
// service's key cache does not see either.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../server/config.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';

describe('API-key revocation and the key cache (API_KEY_CACHE_MS)', () => {
  const services: TestCatalog[] = [];
  after(() => Promise.all(services.map((service) => service.close())));

  async function serviceWithKeyCache(ms: string): Promise<{ service: TestCatalog; tenant: Tenant }> {
    const service = await startCatalog({ API_KEY_CACHE_MS: ms });
    services.push(service);
    return { service, tenant: await givenTenant(service) };
  }

  /** Statuses of a list on both route families with this key. */
  async function statuses({ service, tenant }: { service: TestCatalog; tenant: Tenant }, key: string): Promise<number[]> {
    const responses = await Promise.all([tenant.prefixes.byId, tenant.prefixes.byAddress].map((prefix) => service.request.get(`${prefix}/paths`).set(bearer(key))));
    return responses.map((response) => response.status);
  }

  async function revoke(service: TestCatalog, secret: string): Promise<void> {
    const key = await service.runtime.tenancy.apiKeys.find(secret);
    await service.runtime.tenancy.apiKeys.revoke(key!.id);
  }

  it('by default a key that was just used keeps working after its revocation, for at most the cache lifetime (10 s)', async () => {
    const subject = await serviceWithKeyCache('10000');
    expect(loadConfig({}).apiKeyCacheMs, 'the default').to.equal(10_000);
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([200, 200]);
    await revoke(subject.service, subject.tenant.key);
    expect(await statuses(subject, subject.tenant.key), 'remembered, so no lookup was made').to.deep.equal([200, 200]);
  });

  it('is refused on every request once the cache lifetime has passed', async () => {
    const subject = await serviceWithKeyCache('300');
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([200, 200]);
    await revoke(subject.service, subject.tenant.key);
    await sleep(400);
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([401, 401]);
    expect(await statuses(subject, subject.tenant.readOnlyKey), "the project's other key").to.deep.equal([200, 200]);
  });

  it('with API_KEY_CACHE_MS=0 is refused on the very next request', async () => {
    const subject = await serviceWithKeyCache('0');
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([200, 200]);
    await revoke(subject.service, subject.tenant.key);
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([401, 401]);
  });

  it('a key revoked before its first use is refused at once, whatever the cache lifetime', async () => {
    const subject = await serviceWithKeyCache('60000');
    await revoke(subject.service, subject.tenant.key);
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([401, 401]);
    expect(await statuses(subject, subject.tenant.key)).to.deep.equal([401, 401]);
  });
});
