// Who owns a service and where it is in its life: from the description (Spotify's, with the
// owner's contact and our extensions added as a team would write them), set over HTTP, kept
// through a re-import that says nothing of them, filtered in lists and search, shown on the
// service's page and by MCP, and given back by export.
import { expect } from 'chai';
import supertest from 'supertest';
import { readDescription } from '../../support/directory.ts';
import { callTool, mcpAgents } from '../../support/mcp.ts';
import { bearer, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { signIn } from '../pages/sign-in.ts';
import { versionPath } from '../pages/fixture.ts';

type Json = Record<string, unknown>;

/** Spotify's description as its owners would describe themselves. */
function ownedSpotify(): Json {
  const document = readDescription('spotify.com.json');
  const info = document['info'] as Json;
  return {
    ...document,
    info: {
      ...info,
      contact: { name: 'Web API team', email: 'web-api@spotify.example', url: 'https://developer.spotify.com/support' },
      'x-owner': 'web-api',
      'x-lifecycle': 'production',
      'x-links': { docs: 'https://developer.spotify.com/documentation/web-api', repository: 'https://github.com/spotify/web-api', chat: 'javascript:alert(1)' },
    },
  };
}

describe('lifecycle: owner, contact, lifecycle and links of a service', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  catalogForSuite((made) => ({ service, tenant } = made));

  const auth = () => bearer(tenant.key);

  it('takes them from the description, keeps what is set over HTTP, filters, shows and exports them', async () => {
    const prefix = tenant.prefixes.byAddress;
    const imported = await service.request.post(`${prefix}/imports/openapi?service=spotify`).set(auth()).send(ownedSpotify());
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const other = await service.request.post(`${prefix}/imports/openapi?service=plain`).set(auth())
      .send({ openapi: '3.1.0', info: { title: 'Plain', version: '1' }, paths: { '/tracks': { get: { operationId: 'listPlainTracks', summary: 'List tracks', responses: { 200: { description: 'ok' } } } } } });
    expect(other.status, JSON.stringify(other.body)).to.equal(201);

    const spotify = (await service.request.get(`${prefix}/services?slug=spotify`).set(auth())).body.items[0] as Json;
    expect(spotify['owner']).to.equal('web-api');
    expect(spotify['lifecycle']).to.equal('production');
    expect(spotify['contact']).to.deep.equal({ name: 'Web API team', email: 'web-api@spotify.example', url: 'https://developer.spotify.com/support' });
    // `javascript:` is a URI, so the record takes it; the page never makes it a link (below).
    expect(spotify['links']).to.deep.equal({ docs: 'https://developer.spotify.com/documentation/web-api', repository: 'https://github.com/spotify/web-api', chat: 'javascript:alert(1)' });

    const exported = await service.request.get(`${prefix}/services/spotify/openapi`).set(auth());
    expect(exported.status).to.equal(200);
    expect(exported.body.info).to.deep.include({ 'x-owner': 'web-api', 'x-lifecycle': 'production', contact: (ownedSpotify()['info'] as Json)['contact'] });

    // Set over HTTP; a description that says nothing of them leaves them as set.
    const patched = await service.request.patch(`${prefix}/services/${String(spotify['id'])}`).set(auth()).send({ lifecycle: 'deprecated', owner: 'platform' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const bad = await service.request.patch(`${prefix}/services/${String(spotify['id'])}`).set(auth()).send({ lifecycle: 'sunsetting' });
    expect(bad.status).to.equal(400);
    const silent = readDescription('spotify.com.json');
    const again = await service.request.post(`${prefix}/imports/openapi?service=spotify`).set(auth()).send(silent);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    const kept = (await service.request.get(`${prefix}/services/${String(spotify['id'])}`).set(auth())).body as Json;
    expect([kept['lifecycle'], kept['owner']]).to.deep.equal(['deprecated', 'platform']);
    expect(kept['contact'], 'kept too: the description gave none').to.deep.equal(spotify['contact']);
    // One that says something wins.
    const speaks = { ...silent, info: { ...(silent['info'] as Json), 'x-lifecycle': 'retired' } };
    expect((await service.request.post(`${prefix}/imports/openapi?service=spotify`).set(auth()).send(speaks)).status).to.equal(200);
    expect((await service.request.get(`${prefix}/services/${String(spotify['id'])}`).set(auth())).body.lifecycle).to.equal('retired');

    // Lists filter by lifecycle and owner.
    const retired = await service.request.get(`${prefix}/services?lifecycle=retired`).set(auth());
    expect(retired.body.items.map((item: Json) => item['slug'])).to.deep.equal(['spotify']);
    const owned = await service.request.get(`${prefix}/services?owner=platform`).set(auth());
    expect(owned.body.items.map((item: Json) => item['slug'])).to.deep.equal(['spotify']);
    expect((await service.request.get(`${prefix}/services?lifecycle=sunsetting`).set(auth())).status).to.equal(400);

    // Search: hits say it, and filter by it.
    const all = await service.request.get(`${prefix}/search?q=tracks&limit=50`).set(auth());
    expect(all.status).to.equal(200);
    const slugs = (hits: Json[]) => new Set(hits.map((hit) => (hit['service'] as Json)['slug']));
    expect(slugs(all.body.hits)).to.deep.equal(new Set(['spotify', 'plain']));
    const spotifyHit = (all.body.hits as Json[]).find((hit) => (hit['service'] as Json)['slug'] === 'spotify')!;
    expect(spotifyHit['service']).to.deep.include({ owner: 'platform', lifecycle: 'retired' });
    const onlyRetired = await service.request.get(`${prefix}/search?q=tracks&limit=50&lifecycle=retired`).set(auth());
    expect(slugs(onlyRetired.body.hits)).to.deep.equal(new Set(['spotify']));
    const byOwner = await service.request.get(`${prefix}/search?q=tracks&limit=50&owner=nobody`).set(auth());
    expect(byOwner.body.hits).to.deep.equal([]);

    // The page shows them; only web addresses are links.
    const { cookie } = await signIn(service.app, tenant.key);
    const page = await supertest(service.app).get(`${versionPath(tenant)}/services/spotify`).set('Cookie', cookie).set('Accept', 'text/html');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<dt>Owner</dt><dd>platform</dd>');
    expect(page.text).to.include('lifecycle-retired');
    expect(page.text).to.include('href="mailto:web-api@spotify.example"');
    expect(page.text).to.include('href="https://github.com/spotify/web-api"');
    expect(page.text).not.to.include('javascript:alert');

    // MCP: list_services says them and filters.
    const agents = await mcpAgents(service);
    try {
      const client = await agents.connect(tenant.key);
      const version = `${tenant.project.slug}/${tenant.version.type}/${tenant.version.slug}`;
      const listed = await callTool(client, 'list_services', { version, lifecycle: 'retired' });
      expect(listed.isError, JSON.stringify(listed.content)).to.not.equal(true);
      const services = (listed.structuredContent as { services: Json[] }).services;
      expect(services.map((item) => item['slug'])).to.deep.equal(['spotify']);
      expect(services[0]).to.deep.include({ owner: 'platform', lifecycle: 'retired' });
      const hits = await callTool(client, 'search_endpoints', { version, query: 'tracks', lifecycle: 'production' });
      expect((hits.structuredContent as { hits: Json[] }).hits).to.deep.equal([]);
    } finally {
      await agents.close();
    }
  });
});
