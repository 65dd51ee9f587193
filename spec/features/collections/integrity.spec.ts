// GET {prefix}/integrity: references are not enforced on write, and this report lists the
// dangling ones per collection (declared reference fields, and `$ref`s to Resources and Headers).
import { expect } from 'chai';
import { catalogForSuite, givenTenant, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { expectError } from '../../support/expect.ts';
import { Client, VIAS, call, schemas, newIdOf, prefixOf } from '../../support/records.ts';
import { INTEGRITY_CAP } from '../../../server/integrity/report.ts';

describe('collections: integrity', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;

  catalogForSuite((made) => {
    ({ service, tenant } = made);
    client = new Client(service, tenant);
  });

  const report = async (key: string | null = tenant.key, via: (typeof VIAS)[number] = 'V') =>
    call(service, 'GET', `${prefixOf(tenant, via)}/integrity`, { key });

  it('an empty version has nothing dangling, and every collection is listed', async () => {
    const res = await report();
    expect(res.status, res.text).to.equal(200);
    expect(Object.keys(res.body.collections)).to.deep.equal(schemas.collections.map((collection) => collection.name));
    for (const entry of Object.values(res.body.collections)) expect(entry).to.deep.equal({ dangling: [], truncated: false });
  });

  it('writes in any order are accepted; the report lists what is still dangling, through both families', async () => {
    // A path written before its service, an operation before its path: both accepted.
    const serviceId = newIdOf('svc_');
    const path = await client.given('paths', { serviceId });
    const operation = await client.given('operations', { pathId: path.id });
    const orphan = await client.given('operations', { pathId: newIdOf('path_') });
    const request = await client.given('requests', {
      operationId: operation.id,
      schema: { type: 'object', properties: { pet: { $ref: '#/components/schemas/Pet' }, owner: { $ref: '#/components/schemas/Owner' } } },
      headers: { 'X-Rate': { $ref: '#/components/headers/Rate' }, 'X-Other': { $ref: 'https://example.com/h.json' } },
    });
    await client.given('resources', { name: 'Pet', schema: { type: 'object' } });
    const server = await client.given('servers', { serviceId: undefined, operationId: newIdOf('op_') });

    for (const via of VIAS) {
      const res = await report(tenant.key, via);
      expect(res.status, res.text).to.equal(200);
      const { collections } = res.body;
      expect(collections.paths).to.deep.equal({ dangling: [{ id: path.id, field: 'serviceId', target: 'services' }], truncated: false });
      expect(collections.operations).to.deep.equal({ dangling: [{ id: orphan.id, field: 'pathId', target: 'paths' }], truncated: false });
      expect(collections.requests).to.deep.equal({
        dangling: [
          { id: request.id, field: 'headers', pointer: '/headers/X-Rate/$ref', target: 'headers' },
          { id: request.id, field: 'schema', pointer: '/schema/properties/owner/$ref', target: 'resources' },
        ],
        truncated: false,
      });
      expect(collections.servers.dangling).to.deep.equal([{ id: server.id, field: 'operationId', target: 'operations' }]);
    }

    // Writing what was missing clears the report.
    await client.given('services', { id: serviceId });
    await client.given('resources', { name: 'Owner', schema: {} });
    await client.given('headers', { name: 'Rate' });
    const after = (await report()).body.collections;
    expect(after.paths.dangling).to.deep.equal([]);
    expect(after.requests.dangling).to.deep.equal([]);
  });

  it(`lists at most ${INTEGRITY_CAP} entries per collection and says when it left some out`, async function () {
    // Over a thousand records written and read back whole: 19 s alone on a loaded two-core machine.
    this.timeout(120_000);
    const own = await givenTenant(service);
    const paths = service.runtime.stores.get('paths')!;
    const now = new Date();
    // Written through the store: the HTTP path is proven above, this is about the cap.
    for (let batch = 0; batch <= INTEGRITY_CAP; batch += 100) {
      await Promise.all(Array.from({ length: Math.min(100, INTEGRITY_CAP + 1 - batch) }, (_, i) => paths.insert({
        id: newIdOf('path_'), versionId: own.version.id, serviceId: newIdOf('svc_'), path: `/p${batch + i}`, kvStorage: {},
      }, now)));
    }
    const res = await call(service, 'GET', `${own.prefixes.byId}/integrity`, { key: own.key });
    expect(res.status).to.equal(200);
    expect(res.body.collections.paths.dangling).to.have.length(INTEGRITY_CAP);
    expect(res.body.collections.paths.truncated).to.equal(true);
    expect(res.body.collections.operations).to.deep.equal({ dangling: [], truncated: false });
  });

  it('answers only to credentials that reach the version: 401 without one, 403 elsewhere; read-only keys may read', async () => {
    const unauthenticated = await report(null);
    expectError(unauthenticated, 401, 'Unauthorized');
    expect(unauthenticated.headers['www-authenticate']).to.equal('Bearer');
    expect((await report(tenant.readOnlyKey)).status).to.equal(200);
    expect((await report(tokenFor([tenant.project.id], { readOnly: true }))).status).to.equal(200);
    const stranger = await givenTenant(service);
    expectError(await report(stranger.key), 403, 'Forbidden');
    expectError(await call(service, 'GET', `/v2/catalog/versions/${newIdOf('ver_')}/integrity`, { key: tenant.key }), 403, 'Forbidden');
    const withQuery = await call(service, 'GET', `${prefixOf(tenant, 'V')}/integrity?limit=5`, { key: tenant.key });
    expect(withQuery.status).to.equal(400);
    expect((await call(service, 'POST', `${prefixOf(tenant, 'V')}/integrity`, { key: tenant.key, body: {} })).status).to.equal(405);
  });
});
