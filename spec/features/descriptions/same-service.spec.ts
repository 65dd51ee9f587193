// A re-import that names no service, of a description one of the version's services holds
// already under another slug, answers 409 naming it instead of making a second copy beside it
// (Spotify's: `spotify-web-api` beside `spotify`).
import { expect } from 'chai';
import { readDescription } from '../../support/directory.ts';
import { catalogForSuite, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const SPOTIFY = readDescription('spotify.com.json');

describe('descriptions: an import without a service of a description the version holds', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  const post = (query: string, document: object) => service.request.post(`${tenant.prefixes.byId}/imports/openapi${query}`).set(bearer(tenant.key)).send(document);
  const slugs = async () => ((await service.request.get(`${tenant.prefixes.byId}/services`).set(bearer(tenant.key))).body.items as { slug: string }[]).map(({ slug }) => slug).sort();

  before(async () => {
    expect((await post('?service=spotify', SPOTIFY)).status).to.equal(201);
  });

  it('is 409 naming the service of the same title and how to re-import into it or beside it; nothing is written', async () => {
    const again = await post('', SPOTIFY);
    expect(again.status).to.equal(409);
    expect(again.body.details).to.deep.equal([{
      field: '/info/title',
      message: 'the title "Spotify Web API" is the title of service "spotify" of this version: to re-import into it, add ?service=spotify; to import beside it on purpose, add ?beside=true (or name a new service with ?service=)',
    }]);
    expect(await slugs()).to.deep.equal(['spotify']);
  });

  it('is 409 as well when only the servers are the same (a renamed title)', async () => {
    const renamed = { ...SPOTIFY, info: { ...(SPOTIFY['info'] as object), title: 'The Spotify API' } };
    const again = await post('?dryRun=true', renamed);
    expect(again.status).to.equal(409);
    expect(again.body.details[0].field).to.equal('/servers');
    expect(again.body.details[0].message).to.include('service "spotify"');
  });

  it('imports into it with ?service=, and beside it on purpose with ?beside=true', async () => {
    expect((await post('?service=spotify', SPOTIFY)).status).to.equal(200);
    const beside = await post('?beside=true', SPOTIFY);
    expect(beside.status).to.equal(201);
    expect(beside.body.service.slug).to.equal('spotify-web-api');
    expect(await slugs()).to.deep.equal(['spotify', 'spotify-web-api']);
  });

  it('re-imports without ?service= into the service its title names, as before', async () => {
    expect((await post('', SPOTIFY)).status).to.equal(200);
  });
});
