// An import racing single writes of the records it plans: every answer is 2xx or 409 (never
// 500), and what is stored afterwards is whole. The import is a sync by natural key, so a path
// created under a key the import also plans is the import's to adopt (see
// docs/openapi-import-export.md, Sync).
import { expect } from 'chai';
import { newId } from '../../../server/ids.ts';
import { NaturalKeyTaken, type CatalogRecord } from '../../../server/store/records.ts';
import { catalogForSuite, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

type Document = Record<string, unknown> & { paths: Record<string, unknown> };

/** The petstore with `count` more paths `/more/{i}`, each with one operation. */
function withPaths(count: number): Document {
  const document = petstore() as Document;
  for (let i = 0; i < count; i++) {
    document.paths[`/more/${i}`] = { get: { operationId: `getMore${i}`, responses: { 200: { description: `More ${i}` } } } };
  }
  return document;
}

describe('descriptions: an import racing writes of the same records', function () {
  this.timeout(300_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  const all = async (collection: string, query = ''): Promise<Record<string, unknown>[]> => {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any } = await service.request.get(`${tenant.prefixes.byId}/${collection}?limit=1000${query}${cursor ? `&cursor=${cursor}` : ''}`).set(bearer(tenant.key));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      items.push(...res.body.items);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    return items;
  };

  it('answers 2xx or 409 to a re-import with 150 more paths and 50 creates of some of them, and leaves every path whole', async () => {
    const first = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=race`).set(bearer(tenant.key)).send(petstore());
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const serviceId = first.body.service.id as string;

    const document = withPaths(150);
    // Every third of the import's new paths, created by hand at the same time; and some it does not plan.
    const creates = Array.from({ length: 50 }, (_, i) => (i < 40 ? `/more/${i * 3}` : `/own/${i}`));
    const answers = await Promise.all([
      service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=race`).set(bearer(tenant.key)).send(document),
      ...creates.map(async (path, i) => {
        // Spread over the import's run, so some land before its read and some during its writes.
        await new Promise((resolve) => setTimeout(resolve, i * 15));
        return service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).send({ serviceId, path });
      }),
    ]);
    const statuses = answers.map((res) => res.status);
    for (const res of answers) expect([200, 201, 409], JSON.stringify(res.body)).to.include(res.status);
    expect(statuses[0], JSON.stringify(answers[0]!.body)).to.equal(200);

    // Each of the document's paths exists once, with its operation.
    const paths = await all('paths', `&serviceId=${serviceId}`);
    const byPath = new Map<string, Record<string, unknown>[]>();
    for (const path of paths) byPath.set(path['path'] as string, [...(byPath.get(path['path'] as string) ?? []), path]);
    for (const path of Object.keys(document.paths)) expect(byPath.get(path), path).to.have.length(1);
    const operations = await all('operations');
    const operated = new Set(operations.map((operation) => operation['pathId']));
    for (const path of Object.keys(document.paths)) expect(operated.has(byPath.get(path)![0]!['id']), `${path} has its operation`).to.equal(true);

    // And the document, imported again, finds everything as it left it.
    const again = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=race`).set(bearer(tenant.key)).send(document);
    expect(again.status).to.equal(200);
    const changed = Object.entries(again.body.records as Record<string, { created: number; updated: number }>)
      .filter(([, counts]) => counts.created + counts.updated > 0);
    expect(changed, JSON.stringify(again.body.records)).to.deep.equal([]);
  });

  describe("the store's bulk writes, which imports make", () => {
    const path = (serviceId: string, route: string): CatalogRecord => ({ id: newId('path_'), versionId: tenant.version.id, serviceId, path: route });

    it('say whose natural key a write met, as single writes do, having written the rest', async () => {
      const paths = service.runtime.stores.get('paths')!;
      const serviceId = newId('svc_');
      const holder = (await paths.insert(path(serviceId, '/taken'), new Date()))!;
      const refused = path(serviceId, '/taken');
      const fine = path(serviceId, '/free');
      let thrown: unknown;
      try {
        await paths.bulk(tenant.version.id, { insert: [fine, refused] }, new Date());
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(NaturalKeyTaken);
      expect((thrown as NaturalKeyTaken).holder).to.equal(holder.id);
      expect((thrown as NaturalKeyTaken).refused?.id).to.equal(refused.id);
      expect(await paths.get(tenant.version.id, fine.id)).to.include({ path: '/free' });
      expect(await paths.get(tenant.version.id, refused.id)).to.equal(null);
    });

    it("replace a record only once its single writes are done (they hold the record's lock, where the database needs it)", async function () {
      // Only FerretDB's updates need the lock (docs/database.md); on MongoDB writes do not queue.
      if (service.runtime.database.server.kind !== 'ferretdb') this.skip();
      const paths = service.runtime.stores.get('paths')!;
      const record = (await paths.insert(path(newId('svc_'), '/locked'), new Date()))!;
      let release!: () => void;
      const held = paths.exclusive(tenant.version.id, record.id, () => new Promise<void>((resolve) => { release = resolve; }));
      let replaced = false;
      const bulk = paths.bulk(tenant.version.id, { replace: [{ ...record, summary: 'by the import' }] }, new Date()).then(() => { replaced = true; });
      // Database round trips go by while the lock is held; the bulk waits for it.
      for (let i = 0; i < 3; i++) await paths.get(tenant.version.id, record.id);
      expect(replaced).to.equal(false);
      release();
      await Promise.all([held, bulk]);
      expect(await paths.get(tenant.version.id, record.id)).to.include({ summary: 'by the import' });
    });
  });
});
