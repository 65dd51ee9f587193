// /mcp end to end: the SDK's own client over HTTP (Streamable HTTP) against the app listening on
// a port, with a personal access token: initialise, list the tools, call each; tool errors carry
// the HTTP interface's messages; a credential never reaches another project's endpoints.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startCatalog, givenTenant, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { shop } from './shop.ts';
import { MAX_ARGUMENT_LENGTH } from '../../../server/routes/tool.ts';

describe('MCP: /mcp (Streamable HTTP)', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let listening: Server;
  let url: URL;
  let tenant: Tenant;
  let other: Tenant;
  const clients: Client[] = [];

  before(async () => {
    service = await startCatalog({ SCORES: 'on' });
    tenant = await givenTenant(service);
    other = await givenTenant(service);
    for (const [who, slug] of [[tenant, 'shop'], [other, 'secret']] as const) {
      const res = await service.request.post(`${who.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(who.key)).send(shop(slug));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    listening = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    url = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await new Promise((resolve) => listening.close(resolve));
    await service.close();
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'catalog-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(token) } }));
    clients.push(client);
    // Like an agent: from here on the client checks each result against the tool's output schema.
    await client.listTools();
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return await client.callTool({ name, arguments: args }) as CallToolResult;
  }

  it('lists in its OpenAPI document every tool tools/list gives, each with its arguments (optional ones marked `?`)', async () => {
    const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
    const { tools } = await client.listTools();
    const served = tools.map((tool) => {
      const required = new Set(tool.inputSchema.required ?? []);
      const args = Object.keys(tool.inputSchema.properties ?? {}).map((arg) => (required.has(arg) ? arg : `${arg}?`));
      return `${tool.name} {${args.join(', ')}}`;
    });
    const res = await service.request.get('/v2/openapi.json');
    expect(res.status).to.equal(200);
    const description = String(res.body.paths['/mcp'].post.description);
    const documented = [...description.matchAll(/^- `([^`]+)`: /gm)].map((match) => match[1]);
    expect(documented).to.deep.equal(served);
  });

  it('initialises with a read-only personal access token, lists the tools and calls each', async () => {
    const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
    expect(client.getServerVersion()?.name).to.equal('catalog-service');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(['compare_versions', 'get_endpoint', 'get_lint', 'get_openapi', 'get_service_score', 'list_insights', 'list_projects', 'list_services', 'list_versions', 'search_endpoints']);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).to.equal('object');
      expect(tool.outputSchema?.type, tool.name).to.equal('object');
    }

    const versions = await call(client, 'list_versions', { project: tenant.project.slug });
    expect(versions.isError, JSON.stringify(versions)).to.not.equal(true);
    expect(versions.structuredContent).to.deep.nested.include({ 'versions[0].id': tenant.version.id, 'versions[0].slug': 'main' });

    const address = `${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}`;
    const services = await call(client, 'list_services', { version: address });
    expect(services.structuredContent?.['services']).to.have.length(1);
    expect(services.structuredContent).to.deep.nested.include({ 'services[0].slug': 'shop' });

    const found = await call(client, 'search_endpoints', { version: tenant.version.id, query: 'invoice', limit: 2 });
    const hits = found.structuredContent?.['hits'] as { operation: { operationId: string }; security: unknown[] }[];
    expect(hits.map((hit) => hit.operation.operationId)).to.deep.equal(['getInvoice', 'listInvoices']);
    expect(JSON.parse((found.content[0] as { text: string }).text)).to.deep.equal(found.structuredContent);

    const endpoint = await call(client, 'get_endpoint', { version: tenant.version.id, operation: 'getInvoice' });
    const detail = endpoint.structuredContent as Record<string, any>;
    expect(detail['operation']).to.include({ operationId: 'getInvoice', method: 'get' });
    expect(detail['path']).to.include({ path: '/invoices/{invoiceId}' });
    expect(detail['parameters'].map((p: { name: string }) => p.name)).to.deep.equal(['invoiceId']);
    expect(detail['responses'][0]).to.include({ statusCode: 200 });
    expect(Object.keys(detail['schemas']).sort()).to.deep.equal(['Invoice', 'Line']);
    expect(detail['servers']).to.deep.equal(['https://invoices.shop.example']);
    expect(detail['security'].map((alternative: { scheme: { name: string } }[]) => alternative[0]!.scheme.name)).to.deep.equal(['shopKey', 'bearer']);
    expect(detail['observed']).to.equal(null);
    const byRecordId = await call(client, 'get_endpoint', { version: address, operation: detail['operation'].id });
    expect((byRecordId.structuredContent as Record<string, any>)['operation'].operationId).to.equal('getInvoice');

    const insights = await call(client, 'list_insights', { version: address, service: 'shop', status: 'unobserved' });
    const items = insights.structuredContent?.['items'] as { path: string; status: string; count: number }[];
    expect(items.map((item) => item.path)).to.include('/invoices/{invoiceId}');
    expect(items.every((item) => item.status === 'unobserved' && item.count === 0)).to.equal(true);

    const document = await call(client, 'get_openapi', { version: tenant.version.id, service: 'shop' });
    expect(document.structuredContent).to.include({ openapi: '3.1.0' });
    expect(document.structuredContent).to.have.nested.property('paths./invoices.post.operationId', 'createInvoice');

    // A service is named by slug or id in every tool, as in every route.
    const shopId = (services.structuredContent?.['services'] as { id: string }[])[0]!.id;
    expect((await call(client, 'get_openapi', { version: tenant.version.id, service: shopId })).structuredContent).to.deep.equal(document.structuredContent);
    const bySlug = await call(client, 'search_endpoints', { version: tenant.version.id, query: 'invoice', service: 'shop' });
    const byId = await call(client, 'search_endpoints', { version: tenant.version.id, query: 'invoice', service: shopId });
    expect((bySlug.structuredContent?.['hits'] as unknown[]).length).to.equal(4);
    expect(byId.structuredContent).to.deep.equal(bySlug.structuredContent);
    expect((await call(client, 'list_insights', { version: address, service: shopId, status: 'unobserved' })).structuredContent).to.deep.equal(insights.structuredContent);
    const changes = await call(client, 'compare_versions', { version: address, against: tenant.version.id, service: shopId });
    expect(changes.structuredContent).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
    await service.runtime.scorer.settled();
    const score = await call(client, 'get_service_score', { version: address, service: 'shop' });
    expect(score.structuredContent).to.deep.include({ service: { id: shopId, slug: 'shop' }, pending: false });
  });

  // An agent lists the tools first; from then on the SDK client checks every result against the
  // tool's output schema, so an error must be an isError result the client lets through.
  describe('tool errors, after tools/list like an agent', () => {
    const invalid = (field: string, message: string) => `Invalid request: ${JSON.stringify([{ field, message }])}`;
    const cases = (): [string, Record<string, unknown>, string | RegExp][] => {
      const address = `${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}`;
      const theirs = `${other.project.slug}/${other.version.type}/${other.version.slug}`;
      return [
        ['list_versions', { project: 'no-such-project' }, 'Forbidden'],
        ['list_versions', { project: other.project.slug }, 'Forbidden'],
        ['list_versions', { project: '' }, /^Invalid request: \[\{"field":"project","message":/],
        ['list_services', { version: 'not a version' }, /^Invalid request: \[\{"field":"version","message":/],
        ['list_services', { version: 'a/b' }, invalid('version', 'must be a version id or project/type/slug')],
        ['list_services', { version: `${tenant.project.slug}/trunk/main` }, /^Invalid request: \[\{"field":"version","message":/],
        ['list_services', { version: other.version.id }, 'Forbidden'],
        // In a project the credential reads, the unknown version is named (over HTTP too).
        ['list_services', { version: `${tenant.project.slug}/branch/no-such-branch` }, /^Forbidden: \[\{"field":"version","message":"the branch \\"no-such-branch\\" is not in project /],
        ['search_endpoints', { version: tenant.version.id, query: ' ' }, invalid('query', 'must have at least one word')],
        ['search_endpoints', { version: theirs, query: 'invoice' }, 'Forbidden'],
        ['search_endpoints', { version: 'ver_nope', query: 'invoice' }, /^Invalid request: \[\{"field":"version","message":/],
        ['get_endpoint', { version: tenant.version.id, operation: 'noSuchOperation' }, 'Operation not found'],
        ['get_endpoint', { version: address, operation: 'op_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'Operation not found'],
        ['get_endpoint', { version: other.version.id, operation: 'getInvoice' }, 'Forbidden'],
        ['get_openapi', { version: tenant.version.id, service: 'nope' }, 'Service not found'],
        ['get_openapi', { version: theirs, service: 'secret' }, 'Forbidden'],
        ['get_openapi', { version: 'x/y/z/w', service: 'shop' }, invalid('version', 'must be a version id or project/type/slug')],
        ['compare_versions', { version: tenant.version.id, against: other.version.id }, 'Forbidden'],
        ['compare_versions', { version: theirs, against: tenant.version.id }, 'Forbidden'],
        ['compare_versions', { version: tenant.version.id, against: 'nope' }, /^Invalid request: \[\{"field":"against","message":/],
        ['compare_versions', { version: tenant.version.id, against: tenant.version.id, service: 'nope' }, 'Service not found'],
        ['list_insights', { version: other.version.id }, 'Forbidden'],
        ['list_insights', { version: 'a/b' }, invalid('version', 'must be a version id or project/type/slug')],
        ['list_insights', { version: tenant.version.id, service: 'nope' }, 'Service not found'],
        ['get_lint', { version: tenant.version.id, service: 'nope' }, 'Service not found'],
        ['get_lint', { version: theirs, service: 'secret' }, 'Forbidden'],
        ['get_service_score', { version: other.version.id, service: 'secret' }, 'Forbidden'],
        ['get_service_score', { version: tenant.version.id, service: 'nope' }, 'Service not found'],
      ];
    };

    it('reaches the official client as an isError result with the HTTP interface\'s text, for every tool', async () => {
      const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
      const { tools } = await client.listTools();
      const all = cases();
      // list_projects takes no argument and answers the credential's projects: it has no error path.
      expect(new Set(all.map(([name]) => name)), 'every listed tool has its error paths here').to.deep.equal(new Set(tools.map((tool) => tool.name).filter((name) => name !== 'list_projects')));
      for (const [name, args, text] of all) {
        const label = `${name} ${JSON.stringify(args)}`;
        const result = await call(client, name, args);
        expect(result.isError, label).to.equal(true);
        expect(result.structuredContent, `${label}: an error has no structured content to check against the output schema`).to.equal(undefined);
        expect(result.content, label).to.have.length(1);
        const said = (result.content[0] as { type: string; text: string });
        expect(said.type, label).to.equal('text');
        if (typeof text === 'string') expect(said.text, label).to.equal(text);
        else expect(said.text, label).to.match(text);
      }
    });

    it('says what the HTTP interface says for the same mistake, under the name the caller gave it', async () => {
      const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
      const http = await service.request.get(`${tenant.prefixes.byId}/search?q=%20`).set(bearer(tenant.readOnlyKey));
      expect(http.status).to.equal(400);
      expect(http.body.details).to.have.length(1);
      expect(http.body.details[0].field, 'the query parameter').to.equal('q');
      const tool = await call(client, 'search_endpoints', { version: tenant.version.id, query: ' ' });
      // The tool's argument is `query`: its callers never sent a `q`.
      const asTool = [{ ...http.body.details[0], field: 'query' }];
      expect((tool.content[0] as { text: string }).text).to.equal(`${http.body.error}: ${JSON.stringify(asTool)}`);
    });
  });

  it(`bounds every string argument of every tool at ${MAX_ARGUMENT_LENGTH} characters, and refuses a longer one naming it`, async () => {
    const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
    const { tools } = await client.listTools();
    for (const tool of tools) {
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {}) as [string, { type?: string; maxLength?: number; enum?: unknown[] }][]) {
        // An enum is bounded by its values.
        if (property.type === 'string' && property.enum === undefined) expect(property.maxLength, `${tool.name}.${name}`).to.equal(MAX_ARGUMENT_LENGTH);
      }
    }
    const withinBound = await call(client, 'search_endpoints', { version: tenant.version.id, query: `invoice ${'x'.repeat(MAX_ARGUMENT_LENGTH - 8)}` });
    expect(withinBound.isError, JSON.stringify(withinBound)).to.not.equal(true);
    for (const [tool, args] of [
      ['search_endpoints', { version: tenant.version.id, query: 'invoice '.repeat(120_000) }],
      ['get_endpoint', { version: tenant.version.id, operation: 'o'.repeat(MAX_ARGUMENT_LENGTH + 1) }],
      ['list_versions', { project: 'p'.repeat(MAX_ARGUMENT_LENGTH + 1) }],
    ] as const) {
      const refused = await call(client, tool, args);
      expect(refused.isError, tool).to.equal(true);
      const text = (refused.content[0] as { text: string }).text;
      expect(text, tool).to.include(`must be at most ${MAX_ARGUMENT_LENGTH} characters long at ${Object.keys(args).at(-1)}`);
    }
  });

  it('answers an unknown version as one of another project, by id or address, on every tool, naming only one missing from its own project', async () => {
    const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
    const theirs = [other.version.id, `${other.project.slug}/${other.version.type}/${other.version.slug}`];
    // Well-formed, so they pass the address check and are looked up.
    const unknown = ['ver_01ARZ3NDEKTSV4RRFFQ69G5FAV', `no-such-project/${tenant.version.type}/${tenant.version.slug}`];
    const mine = `${tenant.project.slug}/environment/nowhere`;
    const argsOf: Record<string, (version: string) => Record<string, unknown>> = {
      list_services: (version) => ({ version }),
      search_endpoints: (version) => ({ version, query: 'invoice' }),
      get_endpoint: (version) => ({ version, operation: 'getInvoice' }),
      get_openapi: (version) => ({ version, service: 'shop' }),
      compare_versions: (version) => ({ version: tenant.version.id, against: version }),
      list_insights: (version) => ({ version }),
    };
    for (const [name, args] of Object.entries(argsOf)) {
      for (const version of [...theirs, ...unknown]) {
        const result = await call(client, name, args(version));
        expect(result, `${name} ${version}`).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'Forbidden' }] });
      }
      const told = await call(client, name, args(mine));
      const message = `the environment "nowhere" is not in project "${tenant.project.slug}"; the project's versions are listed by list_versions {project: "${tenant.project.slug}"}`;
      expect(told, name).to.deep.equal({ isError: true, content: [{ type: 'text', text: `Forbidden: ${JSON.stringify([{ field: name === 'compare_versions' ? 'against' : 'version', message }])}` }] });
    }
    for (const project of [other.project.id, other.project.slug, 'no-such-project', 'proj_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      expect(await call(client, 'list_versions', { project }), project).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'Forbidden' }] });
    }
  });

  it('never reaches another project: its versions and endpoints are Forbidden', async () => {
    const client = await connect(tokenFor([tenant.project.id], { readOnly: true }));
    const theirs = `${other.project.slug}/${other.version.type}/${other.version.slug}`;
    for (const [name, args] of [
      ['list_versions', { project: other.project.slug }],
      ['list_versions', { project: 'no-such-project' }],
      ['list_services', { version: other.version.id }],
      ['search_endpoints', { version: theirs, query: 'invoice' }],
      ['get_endpoint', { version: other.version.id, operation: 'getInvoice' }],
      ['get_openapi', { version: theirs, service: 'secret' }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).to.equal(true);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Forbidden' }]);
    }
    // An API key of the other project sees its own and nothing of ours.
    const theirClient = await connect(other.readOnlyKey);
    const own = await call(theirClient, 'search_endpoints', { version: other.version.id, query: 'invoice' });
    expect((own.structuredContent?.['hits'] as unknown[]).length).to.equal(4);
    expect((await call(theirClient, 'list_services', { version: tenant.version.id })).isError).to.equal(true);
  });

  it('answers 401 with the error shape without a valid bearer credential, and 405 to GET', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const anonymous = await service.request.post('/mcp').set('Accept', 'application/json, text/event-stream').send(init);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body).to.deep.equal({ error: 'Unauthorized' });
    const wrong = await service.request.post('/mcp').set(bearer('not-a-key')).set('Accept', 'application/json, text/event-stream').send(init);
    expect(wrong.status).to.equal(401);
    const client = new Client({ name: 'anonymous', version: '1.0.0' });
    let refused: unknown;
    try {
      await client.connect(new StreamableHTTPClientTransport(url));
    } catch (error) {
      refused = error;
    }
    expect(refused, 'the SDK client without a token').to.be.instanceOf(Error);
    const get = await service.request.get('/mcp').set(bearer(tenant.readOnlyKey));
    expect(get.status).to.equal(405);
    expect(get.headers['allow']).to.equal('POST');
  });
});
