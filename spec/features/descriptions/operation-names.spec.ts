// Operations without an operationId get a readable name made of method and path, unique in the
// service and kept by a re-import; the `<method> <path>` names they had before still lead to them.
// On Bitbucket's description, where 215 operations have none.
import { expect } from 'chai';
import { readDescription } from '../../support/directory.ts';
import { madeUpOperationId } from '../../../server/ownership/operation-names.ts';
import { callTool, mcpAgents } from '../../support/mcp.ts';
import { catalogForSuite, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const BITBUCKET = readDescription('bitbucket.org.json');
const PULL_REQUESTS = '/repositories/{workspace}/{repo_slug}/pullrequests';

describe('descriptions: names of operations without an operationId', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let operations: { id: string; operationId: string; pathId: string; method: string }[];

  catalogForSuite((made) => ({ service, tenant } = made));

  before(async () => {
    const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=bitbucket`).set(bearer(tenant.key)).send(BITBUCKET);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).to.equal(201);
    operations = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await service.request.get(`${tenant.prefixes.byId}/operations?limit=100${cursor ? `&cursor=${cursor}` : ''}`).set(bearer(tenant.key));
      operations.push(...page.body.items);
      cursor = page.body.pagination.nextCursor ?? undefined;
    }
  });

  it('are made of method and path, readable in addresses, and unique in the service', async () => {
    const names = operations.map(({ operationId }) => operationId);
    expect(names).to.include('post-repositories-workspace-repo-slug-pullrequests');
    expect(names.filter((name) => /[ %{}/]/.test(name))).to.deep.equal([]);
    expect(new Set(names).size).to.equal(names.length);
  });

  it('stay the same through export and re-import, and the export leaves them out', async () => {
    const exported = await service.request.get(`${tenant.prefixes.byId}/services/bitbucket/openapi`).set(bearer(tenant.key));
    expect(exported.body.paths[PULL_REQUESTS].post.operationId).to.equal(undefined);
    const again = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=bitbucket`).set(bearer(tenant.key)).send(exported.body);
    expect(again.status).to.equal(200);
    expect(again.body.records.operations).to.include({ created: 0, updated: 0, deleted: 0 });
  });

  it("lead to the operation's page, as the `<method> <path>` names of before do", async () => {
    const at = `/catalog/${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}/services/bitbucket/operations`;
    for (const name of ['post-repositories-workspace-repo-slug-pullrequests', encodeURIComponent(`post ${PULL_REQUESTS}`)]) {
      const page = await service.request.get(`${at}/${name}`).set(bearer(tenant.key)).set('Accept', 'text/markdown');
      expect(page.status, name).to.equal(200);
      expect(page.text).to.include(PULL_REQUESTS);
    }
  });

  it('name the operation for MCP get_endpoint, as the `<method> <path>` names of before do', async () => {
    const agents = await mcpAgents(service);
    try {
      const client = await agents.connect(tenant.key);
      for (const operation of ['post-repositories-workspace-repo-slug-pullrequests', `post ${PULL_REQUESTS}`]) {
        const endpoint = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation });
        expect(endpoint.isError, JSON.stringify(endpoint.content).slice(0, 300)).to.not.equal(true);
        const detail = endpoint.structuredContent as { operation: { operationId: string; method: string }; path: { path: string } };
        expect(detail.operation).to.include({ operationId: 'post-repositories-workspace-repo-slug-pullrequests', method: 'post' });
        expect(detail.path.path).to.equal(PULL_REQUESTS);
      }
    } finally {
      await agents.close();
    }
  });

  it('take a number when another operation has the name already', () => {
    expect(madeUpOperationId('get', '/a/{b}', new Set())).to.equal('get-a-b');
    expect(madeUpOperationId('get', '/a/{b}', new Set(['get-a-b', 'get-a-b-2']))).to.equal('get-a-b-3');
    expect(madeUpOperationId('get', '/', new Set())).to.equal('get');
  });
});
