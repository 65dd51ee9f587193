// Deprecation and sunset below the operation, on Spotify's description: an operation, a
// parameter and a request body property deprecated with a sunset date (one past, one to come),
// carried by the records and export; the changes report and the `failOn=breaking` gate judge
// each removal by what it announced.
import { expect } from 'chai';
import { bearer, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { deprecated, FUTURE, PAST, spotify } from './spotify.ts';

type Json = Record<string, any>;

describe('lifecycle: deprecation and sunset of operations, parameters and body properties', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;
  catalogForSuite((made) => ({ service, tenant } = made));

  const importing = (document: Json, query = '') => service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?service=spotify${query}`).set(bearer(tenant.key)).send(document);
  const seen = (changes: Json[]) => changes.map((change) => `${change['level']} ${change['rule']} ${change['lifecycle'] ?? '-'} ${change['operation']?.method} ${change['operation']?.path}`).sort();

  it('reports deprecations and sunset dates, carries them, and judges each removal by its sunset', async () => {
    expect((await importing(spotify())).status).to.equal(201);

    // Deprecating is a change of its own, never breaking.
    const marking = await importing(spotify(deprecated), '&failOn=breaking');
    expect(marking.status, JSON.stringify(marking.body)).to.equal(200);
    expect(seen(marking.body.changes.changes)).to.deep.equal([
      'non-breaking operation-deprecated deprecated GET /audio-analysis/{id}',
      'non-breaking operation-deprecated deprecated GET /audio-features/{id}',
      'non-breaking operation-sunset-changed sunset_changed GET /audio-analysis/{id}',
      'non-breaking operation-sunset-changed sunset_changed GET /audio-features/{id}',
      'non-breaking request-parameter-deprecated deprecated GET /albums/{id}/tracks',
      'non-breaking request-parameter-deprecated deprecated GET /albums/{id}/tracks',
      'non-breaking request-parameter-sunset-changed sunset_changed GET /albums/{id}/tracks',
      'non-breaking request-parameter-sunset-changed sunset_changed GET /albums/{id}/tracks',
      'non-breaking request-property-deprecated deprecated PUT /me/tracks',
      'non-breaking request-property-sunset-changed sunset_changed PUT /me/tracks',
    ]);
    const messages = marking.body.changes.changes.map((change: Json) => change['message']);
    expect(messages).to.include('The query parameter `market` was deprecated.');
    expect(messages).to.include(`The operation has a sunset date: ${FUTURE}.`);

    // The records carry them, and export gives them back.
    const operations = (await service.request.get(`${tenant.prefixes.byAddress}/operations?limit=200`).set(bearer(tenant.key))).body.items as Json[];
    const analysis = operations.find((operation) => operation['operationId'] === 'get-audio-analysis')!;
    expect([analysis['deprecated'], analysis['sunset']]).to.deep.equal([true, FUTURE]);
    const parameters = (await service.request.get(`${tenant.prefixes.byAddress}/parameters?name=market&limit=200`).set(bearer(tenant.key))).body.items as Json[];
    expect(parameters.filter((parameter) => parameter['deprecated'] === true).map((parameter) => parameter['sunset'])).to.deep.equal([PAST]);
    const exported = (await service.request.get(`${tenant.prefixes.byAddress}/services/spotify/openapi`).set(bearer(tenant.key))).body as Json;
    expect(exported['paths']['/audio-analysis/{id}'].get).to.deep.include({ deprecated: true, 'x-sunset': FUTURE });
    const market = exported['paths']['/albums/{id}/tracks'].get.parameters.find((parameter: Json) => parameter['name'] === 'market');
    expect(market).to.deep.include({ deprecated: true, 'x-sunset': PAST });
    expect(exported['paths']['/me/tracks'].put.requestBody.content['application/json'].schema.properties.ids).to.deep.include({ deprecated: true, 'x-sunset': PAST });
    expect((await importing(exported, '&dryRun=true')).body.changes.changes, 'the export re-imports as itself').to.deep.equal([]);

    // Removed before its sunset: breaking, and the gate refuses.
    const early = spotify((paths, components) => {
      deprecated(paths, components);
      delete paths['/audio-analysis/{id}'];
      const tracks = paths['/albums/{id}/tracks'].get;
      tracks.parameters = tracks.parameters.filter((parameter: Json) => parameter['name'] !== 'limit');
    });
    const refused = await importing(early, '&failOn=breaking');
    expect(refused.status, JSON.stringify(refused.body)).to.equal(409);
    const dryEarly = await importing(early, '&dryRun=true');
    expect(seen(dryEarly.body.changes.changes)).to.deep.equal([
      'breaking operation-removed removed_before_sunset GET /audio-analysis/{id}',
      'breaking request-parameter-removed removed_before_sunset GET /albums/{id}/tracks',
    ]);
    expect(dryEarly.body.changes.changes.map((change: Json) => change['message'])).to.include(`GET /audio-analysis/{id} was removed before its sunset date, ${FUTURE}, though deprecated.`);

    // Removed after their sunset: planned, and the gate lets them through.
    const plannedRemovals = (paths: Json, components: Json) => {
      deprecated(paths, components);
      delete paths['/audio-features/{id}'];
      const tracks = paths['/albums/{id}/tracks'].get;
      tracks.parameters = tracks.parameters.filter((parameter: Json) => parameter['name'] !== 'market');
      delete paths['/me/tracks'].put.requestBody.content['application/json'].schema.properties.ids;
    };
    const passed = await importing(spotify(plannedRemovals), '&failOn=breaking');
    expect(passed.status, JSON.stringify(passed.body)).to.equal(200);
    expect(passed.body.changes.summary).to.deep.equal({ breaking: 0, nonBreaking: 3, planned: 3 });
    expect(seen(passed.body.changes.changes)).to.deep.equal([
      'non-breaking operation-removed removed_after_sunset GET /audio-features/{id}',
      'non-breaking request-parameter-removed removed_after_sunset GET /albums/{id}/tracks',
      'non-breaking request-property-removed removed_after_sunset PUT /me/tracks',
    ]);
    expect(passed.body.changes.changes.map((change: Json) => change['message'])).to.include(`GET /audio-features/{id} was removed as planned (deprecated, its sunset date ${PAST} passed).`);

    // Never deprecated: breaking, named as oasdiff names it.
    const sudden = spotify((paths, components) => {
      plannedRemovals(paths, components);
      delete paths['/artists/{id}'];
      const saved = paths['/me/tracks'].get;
      saved.parameters = saved.parameters.filter((parameter: Json) => parameter['$ref'] !== '#/components/parameters/QueryMarket');
    });
    const gone = await importing(sudden, '&failOn=breaking');
    expect(gone.status, JSON.stringify(gone.body)).to.equal(409);
    const dry = await importing(sudden, '&dryRun=true');
    const lifecycles = new Set(dry.body.changes.changes.filter((change: Json) => change['rule'].endsWith('-removed')).map((change: Json) => change['lifecycle']));
    expect([...lifecycles]).to.deep.equal(['removed_not_deprecated']);
    expect(seen(dry.body.changes.changes).filter((change) => change.includes('-removed '))).to.deep.equal([
      'breaking operation-removed removed_not_deprecated GET /artists/{id}',
      'breaking request-parameter-removed removed_not_deprecated GET /me/tracks',
    ]);
  });

  it('takes a sunset date set over HTTP, and export writes it as x-sunset', async () => {
    const operations = (await service.request.get(`${tenant.prefixes.byAddress}/operations?limit=200`).set(bearer(tenant.key))).body.items as Json[];
    const albums = operations.find((operation) => operation['operationId'] === 'get-multiple-albums')!;
    const patched = await service.request.patch(`${tenant.prefixes.byAddress}/operations/${String(albums['id'])}`).set(bearer(tenant.key)).send({ deprecated: true, sunset: '2030-06-30' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect((await service.request.patch(`${tenant.prefixes.byAddress}/operations/${String(albums['id'])}`).set(bearer(tenant.key)).send({ sunset: 'next year' })).status).to.equal(400);
    const exported = (await service.request.get(`${tenant.prefixes.byAddress}/services/spotify/openapi`).set(bearer(tenant.key))).body as Json;
    expect(exported['paths']['/albums'].get).to.deep.include({ deprecated: true, 'x-sunset': '2030-06-30' });
  });
});
