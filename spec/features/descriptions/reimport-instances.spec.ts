// A re-import plans from what the database holds, whichever instance wrote it: two instances
// on one database answer an import alike, and each undoes what the other wrote that the
// document does not have.
import { expect } from 'chai';
import { readDescription, withoutOneOperation } from '../../support/directory.ts';
import { bearer, givenTenant, instancePairForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';

const asana = () => readDescription('asana.com.json');

describe('descriptions: a re-import on one instance of two', function () {
  this.timeout(180_000);
  // `a` imports; `b`, on the same database, writes in between.
  let a: TestCatalog;
  let b: TestCatalog;
  instancePairForSuite((first, second) => { [a, b] = [first, second]; });

  const post = (instance: TestCatalog, tenant: Tenant, document: unknown, query = '', service = 'asana') => instance.request
    .post(`${tenant.prefixes.byId}/imports/openapi?service=${service}${query}`).set(bearer(tenant.key)).send(document as object);
  const getTask = async (tenant: Tenant) => (await a.runtime.stores.get('operations')!.matching(tenant.version.id, { operationId: 'getTask' }))[0]!;

  async function imported(): Promise<Tenant> {
    const tenant = await givenTenant(a);
    const res = await post(a, tenant, asana());
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(201);
    return tenant;
  }

  it('answers a dry run as the other instance does, and an unchanged re-import after an edit writes nothing', async () => {
    const tenant = await imported();
    const removed = withoutOneOperation(asana())!;
    const [kept, read] = [await post(a, tenant, removed.document, '&dryRun=true'), await post(b, tenant, removed.document, '&dryRun=true')];
    expect(kept.status, JSON.stringify(kept.body).slice(0, 300)).to.equal(200);
    expect(kept.body).to.deep.equal(read.body);
    expect(kept.body.changes.summary).to.deep.equal({ breaking: 1, nonBreaking: 0, planned: 0 });

    const edited = await post(a, tenant, removed.document);
    expect(edited.body.records.operations).to.deep.include({ deleted: 1, created: 0, updated: 0 });
    // What the write left is what the database holds: the same document again writes nothing.
    const again = await post(a, tenant, removed.document);
    const written = Object.entries(again.body.records as Record<string, Record<string, number>>)
      .filter(([, counts]) => counts['created']! + counts['updated']! + counts['deleted']! > 0);
    expect(written).to.deep.equal([]);
    const fromDatabase = await post(b, tenant, removed.document, '&dryRun=true');
    expect(fromDatabase.body.changes.summary).to.deep.equal({ breaking: 0, nonBreaking: 0, planned: 0 });
  });

  it('undoes a write made over HTTP on the other instance', async () => {
    const tenant = await imported();
    const task = await getTask(tenant);
    expect((await b.request.patch(`${tenant.prefixes.byId}/operations/${task.id}`).set(bearer(tenant.key)).send({ summary: 'Patched over HTTP' })).status).to.equal(200);
    const res = await post(a, tenant, asana());
    expect(res.body.records.operations).to.deep.include({ updated: 1, created: 0, deleted: 0 });
    const after = await b.request.get(`${tenant.prefixes.byId}/operations/${task.id}`).set(bearer(tenant.key));
    expect(after.body.summary).to.not.equal('Patched over HTTP');
  });

  it('deletes a record created over HTTP that the document does not have', async () => {
    const tenant = await imported();
    const task = await getTask(tenant);
    const created = await a.request.post(`${tenant.prefixes.byId}/parameters`).set(bearer(tenant.key)).send({ operationId: task.id, name: 'added_over_http', in: 'query', schema: { type: 'string' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const res = await post(a, tenant, asana());
    // An unmarked record of the service's operation: the import owns it and the document has no such parameter.
    expect(res.body.records.parameters.deleted).to.equal(1);
    expect((await a.request.get(`${tenant.prefixes.byId}/parameters/${created.body.id}`).set(bearer(tenant.key))).status).to.equal(404);
  });

  it('writes nothing of its own service when another service was imported into the version on the other instance', async () => {
    const tenant = await imported();
    const other = await post(b, tenant, { openapi: '3.1.0', info: { title: 'Other', version: '1' }, paths: {} }, '', 'other');
    expect(other.status, JSON.stringify(other.body)).to.equal(201);
    const res = await post(a, tenant, asana());
    expect(res.status).to.equal(200);
    const written = Object.values(res.body.records as Record<string, Record<string, number>>).map((counts) => counts['created']! + counts['updated']! + counts['deleted']!);
    expect(written.every((count) => count === 0), JSON.stringify(res.body.records)).to.equal(true);
  });
});
