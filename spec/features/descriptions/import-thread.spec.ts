// A large description is prepared on a thread of its own (server/descriptions/preparation.ts)
// and read back in pieces: the import over HTTP, which takes that thread for these real
// descriptions, reports and exports exactly what the same import prepared on this thread does,
// and a refused description answers the same 400, in the documented shape.
import v8 from 'node:v8';
import { expect } from 'chai';
import { reviewImport } from '../../../server/changes/imports.ts';
import { prepareDocument } from '../../../server/descriptions/document.ts';
import { documentOf, piecesOf } from '../../../server/descriptions/pieces.ts';
import { OFF_THREAD_BYTES, prepareAside } from '../../../server/descriptions/preparation.ts';
import { importDocument } from '../../../server/descriptions/sync.ts';
import { RECORD_DEFAULTS } from '../../../server/config.ts';
import { InvalidRequest } from '../../../server/errors.ts';
import { readDescription } from '../../support/directory.ts';
import { bearer, givenTenant, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';

type Json = Record<string, any>;
/** OpenAPI 3.0 with many shared schemas (Asana), 3.0 from Swagger 2.0 (Gitea), 3.1 (Vercel). */
const DESCRIPTIONS = ['asana.com.json', 'gitea.io.json', 'vercel.com.json'];
const description = (id: string): Json => readDescription(id);

/** The answer with the service's id, which each version makes anew, named alike. */
const sameIds = (answer: unknown, serviceId: string): unknown => JSON.parse(JSON.stringify(answer).replaceAll(serviceId, 'svc_SAME'));

describe('descriptions: preparation on a thread of its own', function () {
  this.timeout(600_000);
  let service: TestCatalog;
  catalogForSuite((made) => ({ service } = made));

  /** The import as the route runs it, but prepared on this thread. */
  async function importedHere(tenant: Tenant, document: Json, dryRun: boolean): Promise<unknown> {
    const { runtime } = service;
    const review = dryRun ? reviewImport({ failOnBreaking: false }) : undefined;
    const report = await importDocument(
      { stores: runtime.stores, versionId: tenant.version.id, projectId: tenant.project.id, limits: runtime.config.recordLimits, serviceParts: runtime.serviceParts },
      await prepareDocument(structuredClone(document)),
      { service: 'same', dryRun, ...(review && { review: review.review }) },
    );
    return sameIds(review?.report ? { ...report.body, changes: review.report } : report.body, report.body.service.id);
  }

  const post = (tenant: Tenant, document: Json, query: string) =>
    service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=same${query}`).set(bearer(tenant.key)).send(document);
  const exported = async (tenant: Tenant) => (await service.request.get(`${tenant.prefixes.byId}/services/same/openapi`).set(bearer(tenant.key))).body as Json;

  for (const id of DESCRIPTIONS) {
    it(`${id}: the dry run's report, the import's report and the export are those of the import prepared on the request's thread`, async () => {
      const document = description(id);
      expect(v8.serialize(document).length, 'large enough for the thread').to.be.at.least(OFF_THREAD_BYTES);
      const [threaded, here] = [await givenTenant(service), await givenTenant(service)];

      const dry = await post(threaded, document, '&dryRun=true');
      expect(dry.status, JSON.stringify(dry.body).slice(0, 300)).to.equal(200);
      // A dry run scores only where the catalog scores (SCORES, off here); an import by itself never does.
      const { score, ...dryReport } = dry.body;
      expect(score).to.equal(undefined);
      expect(sameIds(dryReport, dry.body.service.id)).to.deep.equal(await importedHere(here, document, true));

      const imported = await post(threaded, document, '');
      expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).to.equal(201);
      expect(sameIds(imported.body, imported.body.service.id)).to.deep.equal(await importedHere(here, document, false));
      expect(imported.body.records.operations.created).to.be.greaterThan(10);

      const [there, mine] = [await exported(threaded), await exported(here)];
      expect(JSON.stringify(there)).to.equal(JSON.stringify(mine));
    });
  }

  it('a refused description: the same 400 with the same findings, as {error, details: [{field, message}]}', async () => {
    const invalid = description('asana.com.json');
    delete invalid['info'];
    const firstPath = Object.keys(invalid['paths'])[0]!;
    invalid['paths'][firstPath].get.responses = 'none';
    const unresolved = description('gitea.io.json');
    unresolved['paths'][Object.keys(unresolved['paths'])[0]!].parameters = [{ $ref: '#/components/parameters/none-such' }];
    const tenant = await givenTenant(service);
    for (const document of [invalid, unresolved]) {
      expect(v8.serialize(document).length).to.be.at.least(OFF_THREAD_BYTES);
      const answer = await post(tenant, document, '&dryRun=true');
      const here = await prepareDocument(structuredClone(document)).then(() => undefined, (error: unknown) => error);
      expect(here).to.be.instanceOf(InvalidRequest);
      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.equal((here as InvalidRequest).body());
      expect(answer.body.error).to.equal('Invalid request');
      expect(answer.body.details).to.be.an('array').that.is.not.empty;
      for (const detail of answer.body.details) expect(Object.keys(detail).sort()).to.deep.equal(['field', 'message']);
    }
    // A thread's refusal is thrown as the same class, so the route's error table answers it.
    await prepareAside(invalid, RECORD_DEFAULTS, { offThreadFrom: 0 }).then(() => expect.fail('accepted'), (error: unknown) => expect(error).to.be.instanceOf(InvalidRequest));
  });

  it('pieces put back together are the document, in its key order, `__proto__` keys included', async () => {
    const document = await prepareDocument(description('asana.com.json'));
    const back = await documentOf(await piecesOf(document));
    expect(JSON.stringify(back)).to.equal(JSON.stringify(document));
    const odd = JSON.parse('{"openapi":"3.1.0","paths":{"/a":{"__proto__":{"x":1}}},"components":{"schemas":{"__proto__":{"type":"string"},"b":{}}},"empty":{}}') as Json;
    const oddBack = await documentOf(await piecesOf(odd)) as Json;
    expect(JSON.stringify(oddBack)).to.equal(JSON.stringify(odd));
    expect(Object.keys(oddBack['components']['schemas'])).to.deep.equal(['__proto__', 'b']);
  });
});
