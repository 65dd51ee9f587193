// Who still calls what is going away, on Spotify's description with deprecations: a HAR report
// (response headers, query parameters) and NDJSON lines naming their client, then the lifecycle
// view per item: calls, last seen, clients, and the Deprecation and Sunset headers answered.
import { expect } from 'chai';
import { bearer, catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { deprecated, FUTURE, PAST, spotify } from './spotify.ts';

type Json = Record<string, any>;

const API = 'https://api.spotify.com/v1';

function harEntry(time: string, url: string, responseHeaders?: { name: string; value: string }[]): Json {
  const query = new URL(url).searchParams;
  return {
    startedDateTime: time,
    request: { method: 'GET', url, headers: [{ name: 'Accept', value: 'application/json' }], queryString: [...query].map(([name, value]) => ({ name, value })) },
    response: { status: 200, ...(responseHeaders && { headers: responseHeaders }) },
  };
}

describe('lifecycle: traffic to what is deprecated or sunset', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;
  catalogForSuite((made) => ({ service, tenant } = made));

  it('lists each deprecated or sunset item with the calls still seen, their clients and the headers answered', async () => {
    const prefix = tenant.prefixes.byAddress;
    const auth = bearer(tenant.key);
    expect((await service.request.post(`${prefix}/imports/openapi?service=spotify`).set(auth).send(spotify(deprecated))).status).to.equal(201);

    const announced = [{ name: 'Deprecation', value: '@1767225600' }, { name: 'Sunset', value: 'Fri, 31 Dec 2099 23:59:59 GMT' }];
    const har = {
      log: {
        version: '1.2',
        entries: [
          harEntry('2026-11-20T10:00:00.000Z', `${API}/audio-analysis/abc`, announced),
          harEntry('2026-11-21T10:00:00.000Z', `${API}/audio-analysis/abc`, [{ name: 'Deprecation', value: '@1767225600' }]),
          harEntry('2026-11-22T10:00:00.000Z', `${API}/audio-analysis/abc`, [{ name: 'Content-Type', value: 'application/json' }]),
          harEntry('2026-11-22T11:00:00.000Z', `${API}/albums/xyz/tracks?market=ES&offset=5`, []),
          harEntry('2026-11-22T12:00:00.000Z', `${API}/artists/xyz`),
        ],
      },
    };
    const reported = await service.request.post(`${prefix}/insights/reports`).set(auth).type('application/json').send(JSON.stringify(har));
    expect(reported.status, JSON.stringify(reported.body)).to.equal(200);
    expect(reported.body.matched).to.equal(5);
    const lines = [
      { method: 'GET', url: `${API}/audio-analysis/abc`, status: 200, time: '2026-11-23T09:00:00.000Z', client: 'mobile-app' },
      { method: 'GET', url: `${API}/audio-analysis/def`, status: 200, time: '2026-11-23T08:00:00.000Z', client: 'mobile-app' },
      { method: 'GET', url: `${API}/albums/xyz/tracks?limit=10`, status: 200, time: '2026-11-24T09:00:00.000Z', client: 'web-player' },
    ].map((line) => JSON.stringify(line)).join('\n');
    const logged = await service.request.post(`${prefix}/insights/reports`).set(auth).type('application/x-ndjson').send(lines);
    expect(logged.status, JSON.stringify(logged.body)).to.equal(200);

    const view = await service.request.get(`${prefix}/insights/lifecycle?service=spotify`).set(auth);
    expect(view.status, JSON.stringify(view.body)).to.equal(200);
    const items = view.body.items as Json[];
    const itemOf = (path: string, parameter?: string) => items.find((item) => item['operation'].path === path && (item['parameter']?.name ?? undefined) === parameter)!;

    const analysis = itemOf('/audio-analysis/{id}');
    expect(analysis).to.deep.include({ parameter: null, deprecated: true, sunset: FUTURE, calls: 5, lastSeenAt: '2026-11-23T09:00:00.000Z' });
    expect(analysis['clients']).to.deep.equal([
      { client: null, calls: 3, lastSeenAt: '2026-11-22T10:00:00.000Z' },
      { client: 'mobile-app', calls: 2, lastSeenAt: '2026-11-23T09:00:00.000Z' },
    ]);
    expect(analysis['responses']).to.deep.equal({ observed: 3, deprecationHeader: 2, sunsetHeader: 1 });

    const market = itemOf('/albums/{id}/tracks', 'market');
    expect(market).to.deep.include({ deprecated: true, sunset: PAST, calls: 1, lastSeenAt: '2026-11-22T11:00:00.000Z' });
    expect(market['responses']).to.deep.equal({ observed: 1, deprecationHeader: 0, sunsetHeader: 0 });
    const limit = itemOf('/albums/{id}/tracks', 'limit');
    expect(limit).to.deep.include({ sunset: FUTURE, calls: 1 });
    expect(limit['clients']).to.deep.equal([{ client: 'web-player', calls: 1, lastSeenAt: '2026-11-24T09:00:00.000Z' }]);

    // Deprecated and never called: listed with no calls. Nothing deprecated is not listed.
    expect(itemOf('/audio-features/{id}')).to.deep.include({ sunset: PAST, calls: 0, lastSeenAt: null, clients: [] });
    expect(items.map((item) => item['operation'].path)).not.to.include('/artists/{id}');
    expect(items.map((item) => `${item['operation'].method} ${item['operation'].path} ${item['parameter']?.name ?? '-'}`)).to.deep.equal([
      'GET /albums/{id}/tracks limit', 'GET /albums/{id}/tracks market', 'GET /audio-analysis/{id} -', 'GET /audio-features/{id} -',
    ]);
  });
});
