// Re-imports of real descriptions: a sample of the regression suite of
// scripts/regression (import; unchanged re-import; compare with itself and with a copy; one
// operation removed; a path inserted first), and what a user or analyzer set surviving a re-import.
import { expect } from 'chai';
import { readDescription } from '../../support/directory.ts';
import { checkDescription, type Failure } from '../../../scripts/regression/checks.ts';
import { bearer, givenTenant, catalogForSuite, type TestCatalog, type Tenant } from '../../support/catalog.ts';

/** Asana (whose re-import once stalled the service: 1,900 records, path parameters repeated on operations) and a few small ones of other shapes. */
const SAMPLE = ['asana.com.json', 'adafruit.com.json', 'medcorder.com.json', 'evemarketer.com.json'];

const read = readDescription;
const lines = (failures: readonly Failure[]) => failures.map(({ step, message }) => `${step}: ${message}`);

describe('descriptions: re-imports of real descriptions write only what changed', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  for (const id of SAMPLE) {
    describe(id, () => {
      let failures: Failure[];
      before(async () => {
        const own = await givenTenant(service);
        failures = await checkDescription({ request: service.request, key: own.key, versionId: own.version.id, projectSlug: own.project.slug }, read(id), 'regression');
      });

      it('imports; an unchanged re-import writes nothing; one operation removed, then a path inserted first, write only their records, each answering', () => {
        expect(lines(failures.filter((failure) => !failure.changesReport))).to.deep.equal([]);
      });

      it('reports no change against itself or a copy, and exactly one breaking change for the removed operation', () => {
        expect(lines(failures.filter((failure) => failure.changesReport))).to.deep.equal([]);
      });
    });
  }

  it('answers a re-import that replaces every operation of Asana (167 replaces: the FerretDB bulk-update stall)', async () => {
    const document = read('asana.com.json');
    const url = `${tenant.prefixes.byId}/imports/openapi?service=asana-edited`;
    expect((await service.request.post(url).set(bearer(tenant.key)).send(document)).status).to.equal(201);
    const paths = document['paths'] as Record<string, Record<string, { summary?: string }>>;
    const edited = structuredClone(paths);
    let operations = 0;
    for (const item of Object.values(edited)) {
      for (const [method, operation] of Object.entries(item)) {
        if (['get', 'put', 'post', 'delete', 'patch'].includes(method)) {
          operation.summary = `${operation.summary ?? ''} (edited)`;
          operations++;
        }
      }
    }
    const res = await service.request.post(url).set(bearer(tenant.key)).send({ ...document, paths: edited }).timeout(120_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body.records.operations).to.deep.equal({ created: 0, updated: operations, deleted: 0, unchanged: 0 });
    expect(operations).to.be.above(100);
  });

  it('answers a re-import that deletes hundreds of records at once (half of Asana\'s paths gone), and leaves the version readable', async function () {
    // 12 s alone; over 120 s in a clean-clone run sharing two cores with Graph beta's regression.
    this.timeout(600_000);
    const document = read('asana.com.json');
    const url = `${tenant.prefixes.byId}/imports/openapi?service=asana-halved`;
    expect((await service.request.post(url).set(bearer(tenant.key)).send(document)).status).to.equal(201);
    const paths = document['paths'] as Record<string, unknown>;
    const kept = Object.keys(paths).filter((_, index) => index % 2 === 0);
    const res = await service.request.post(url).set(bearer(tenant.key)).send({ ...document, paths: Object.fromEntries(kept.map((key) => [key, paths[key]])) }).timeout(300_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    const deleted = Object.values(res.body.records as Record<string, { deleted: number }>).reduce((sum, counts) => sum + counts.deleted, 0);
    expect(res.body.records.paths.deleted).to.equal(Object.keys(paths).length - kept.length);
    expect(deleted).to.be.above(500);
    // Every later request answers: the database was not left holding anything.
    const listed = await service.request.get(`${tenant.prefixes.byId}/paths`).query({ limit: 100 }).set(bearer(tenant.key));
    expect(listed.status).to.equal(200);
    const exported = await service.request.get(`${tenant.prefixes.byId}/services/asana-halved/openapi`).set(bearer(tenant.key));
    expect(Object.keys(exported.body.paths).sort()).to.deep.equal([...kept].sort());
  });

  it('keeps what an analyzer set on the service (hasConnection, lastConnectionAt) through a re-import of the identical document, reported unchanged', async () => {
    const document = read('adafruit.com.json');
    const url = `${tenant.prefixes.byId}/imports/openapi?service=adafruit`;
    expect((await service.request.post(url).set(bearer(tenant.key)).send(document)).status).to.equal(201);
    const connected = await service.request.post(`${tenant.prefixes.byId}/insights/connections`).set(bearer(tenant.key)).send({ service: 'adafruit' });
    expect(connected.status, JSON.stringify(connected.body).slice(0, 300)).to.be.oneOf([200, 201]);
    const before = await service.request.get(`${tenant.prefixes.byId}/services?slug=adafruit`).set(bearer(tenant.key));
    const stored = before.body.items[0];
    expect(stored.hasConnection).to.equal(true);

    const again = await service.request.post(url).set(bearer(tenant.key)).send(document);
    expect(again.status).to.equal(200);
    expect(again.body.records.services).to.deep.equal({ created: 0, updated: 0, deleted: 0, unchanged: 1 });
    const after = await service.request.get(`${tenant.prefixes.byId}/services?slug=adafruit`).set(bearer(tenant.key));
    expect(after.body.items[0]).to.deep.equal(stored);

    // An edited document updates the service and still keeps them.
    const edited = { ...document, info: { ...(document['info'] as object), description: 'Edited.' } };
    const changed = await service.request.post(url).set(bearer(tenant.key)).send(edited);
    expect(changed.body.records.services.updated).to.equal(1);
    const kept = (await service.request.get(`${tenant.prefixes.byId}/services?slug=adafruit`).set(bearer(tenant.key))).body.items[0];
    expect([kept.hasConnection, kept.lastConnectionAt, kept.description]).to.deep.equal([true, stored.lastConnectionAt, 'Edited.']);
  });
});
