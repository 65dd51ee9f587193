// Errors that say what is wrong, as far as the credential may know: another kind's id is named
// by its prefix, and a mistyped version is named to a credential that reads its project (over
// both route families and MCP), while any other credential keeps the plain Forbidden.
import { expect } from 'chai';
import { expectError } from '../support/expect.ts';
import { callTool, mcpAgents, textOf, type McpAgents } from '../support/mcp.ts';
import { bearer, givenTenant, catalogForSuite, tokenFor, type Tenant, type TestCatalog } from '../support/catalog.ts';

const UNKNOWN_VERSION_ID = `ver_${'0'.repeat(26)}`;

describe('Errors that help', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let other: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));
  before(async () => { other = await givenTenant(service); });

  const get = (url: string, credential: string) => service.request.get(url).set(bearer(credential));

  it('names the id kind a route wants when given another kind\'s id', async () => {
    const created = await service.request.post(`${tenant.prefixes.byId}/operations`).set(bearer(tenant.key))
      .send({ pathId: `path_${'0'.repeat(26)}`, method: 'get', operationId: 'listThings' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expectError(await get(`${tenant.prefixes.byId}/paths/${created.body.id}`, tenant.key), 400, 'Invalid request',
      [{ field: 'id', message: 'is not a `path_` id (its prefix is `op_`)' }]);
    expectError(await get(`${tenant.prefixes.byAddress}/paths/nonsense`, tenant.key), 400, 'Invalid request', [{ field: 'id', message: 'is not a `path_` id' }]);
    // The right prefix with a wrong length still says what is wrong with it.
    expectError(await get(`${tenant.prefixes.byId}/paths/path_1`, tenant.key), 400, 'Invalid request', [{ field: 'id', message: 'must NOT have fewer than 31 characters' }]);
  });

  describe('a mistyped version or project', () => {
    const project = () => tenant.project.slug;
    const mistyped = () => `/v2/catalog/projects/${project()}/branch/mian/paths`;

    it('is named to a credential that reads the project, with where its versions are listed', async () => {
      const message = `the branch "mian" is not in project "${project()}"; the project's versions are listed by GET /v2/catalog/projects/${project()}/versions`;
      for (const credential of [tenant.key, tenant.readOnlyKey, tokenFor([tenant.project.id], { readOnly: true }), tokenFor('all')]) {
        expectError(await get(mistyped(), credential), 403, 'Forbidden', [{ field: 'versionSlug', message }]);
      }
      const byId = `/v2/catalog/projects/${tenant.project.id}/environment/main/paths`;
      expectError(await get(byId, tenant.key), 403, 'Forbidden', [{ field: 'versionSlug', message: `the environment "main" is not in project "${tenant.project.id}"; the project's versions are listed by GET /v2/catalog/projects/${tenant.project.id}/versions` }]);
    });

    it('is the plain Forbidden for a credential that does not reach the project, known or not', async () => {
      for (const credential of [other.key, tokenFor([other.project.id])]) {
        expectError(await get(mistyped(), credential), 403, 'Forbidden');
        expect(Object.keys((await get(mistyped(), credential)).body)).to.deep.equal(['error']);
        // Its real version, and a project that does not exist: the same answer.
        expect((await get(`${tenant.prefixes.byAddress}/paths`, credential)).body).to.deep.equal({ error: 'Forbidden' });
        expect((await get('/v2/catalog/projects/no-such-project/branch/main/paths', credential)).body).to.deep.equal({ error: 'Forbidden' });
      }
    });

    it('by version id: the plain Forbidden, unless the credential reaches every project', async () => {
      for (const credential of [tenant.key, tokenFor([tenant.project.id])]) {
        expect((await get(`/v2/catalog/versions/${UNKNOWN_VERSION_ID}/paths`, credential)).body).to.deep.equal({ error: 'Forbidden' });
      }
      expectError(await get(`/v2/catalog/versions/${UNKNOWN_VERSION_ID}/paths`, tokenFor('all')), 403, 'Forbidden',
        [{ field: 'versionId', message: `there is no version ${UNKNOWN_VERSION_ID}` }]);
      expectError(await get('/v2/catalog/projects/no-such-project/branch/main/paths', tokenFor('all')), 403, 'Forbidden',
        [{ field: 'projectRef', message: 'there is no project "no-such-project"' }]);
    });

    describe('over MCP', () => {
      let agents: McpAgents;
      before(async () => { agents = await mcpAgents(service); });
      after(() => agents.close());

      it('names the version with list_versions to a credential that reads the project; plain Forbidden to another', async () => {
        const args = { version: `${project()}/branch/mian`, query: 'anything' };
        const reader = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
        const refused = await callTool(reader, 'search_endpoints', args);
        expect(refused.isError).to.equal(true);
        expect(textOf(refused)).to.equal(`Forbidden: ${JSON.stringify([{ field: 'version', message: `the branch "mian" is not in project "${project()}"; the project's versions are listed by list_versions {project: "${project()}"}` }])}`);
        const stranger = await agents.connect(tokenFor([other.project.id], { readOnly: true }));
        expect(textOf(await callTool(stranger, 'search_endpoints', args))).to.equal('Forbidden');
      });
    });
  });
});
