// The rules that keep a catalog consistent, over HTTP: natural keys (409 naming the fields,
// also under racing requests), scope rules, typed list filters and `updatedAfter`. Natural keys
// and scope rules are read from the descriptors, so every kind that declares one is walked.
import { expect } from 'chai';
import type { Response } from 'supertest';
import { expectError, expectInvalid, tally } from '../../support/expect.ts';
import { Client, schemas, collectionNamed, newIdOf, optionalTextField, sampleOf, uniqueWord, type Fields } from '../../support/records.ts';
import { CONTRACT_NATURAL_KEYS } from '../../support/contract.ts';
import { catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import type { CompiledCollection } from '../../../server/schemas/registry.ts';

const RACERS = 10;
const KEYED = schemas.collections.filter((collection) => collection.naturalKey.length > 0);

/** A fresh sample that has `record`'s natural key (absent parts stay absent). */
function sameKeyAs(collection: CompiledCollection, record: Fields): Fields {
  const body = sampleOf(collection);
  for (const field of collection.naturalKey) {
    if (record[field] === undefined) delete body[field];
    else body[field] = record[field];
  }
  return body;
}

function expectKeyConflict(res: Response, collection: CompiledCollection): void {
  expectError(res, 409, 'Conflict');
  expect(res.body.details.map((detail: { field: string }) => detail.field)).to.deep.equal(collection.naturalKey.map((field) => `/${field}`));
  for (const detail of res.body.details) expect(detail.message).to.match(/^is taken: /);
}

describe('collections: rules', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;

  catalogForSuite((made) => {
    ({ service, tenant } = made);
    client = new Client(service, tenant);
  });

  it('every natural key of decisions.md is declared', () => {
    const declared = new Map(KEYED.map((collection) => [collection.name, collection.naturalKey]));
    for (const [kind, key] of Object.entries(CONTRACT_NATURAL_KEYS)) expect(declared.get(kind), kind).to.deep.equal(key);
  });

  for (const collection of KEYED) {
    const name = collection.name;

    describe(`${name}: natural key (${collection.naturalKey.join(', ')})`, () => {
      it('409 naming the fields on create, replace and patch onto a taken key; a record may keep its own', async () => {
        const holder = await client.given(name);
        expectKeyConflict(await client.create(name, sameKeyAs(collection, holder)), collection);
        const other = await client.given(name);
        expectKeyConflict(await client.replace(name, other.id, sameKeyAs(collection, holder)), collection);
        const patch = Object.fromEntries(collection.naturalKey.map((field) => [field, holder[field]]));
        // (A part the holder lacks is dropped from the JSON, and the other record lacks it too.)
        expectKeyConflict(await client.update(name, other.id, patch), collection);
        expect((await client.get(name, other.id)).body).to.deep.equal(other);
        // A replace to a new id with the holder's key is a create in disguise: refused, nothing stored.
        const id = newIdOf(collection.idPrefix);
        expectKeyConflict(await client.replace(name, id, sameKeyAs(collection, holder)), collection);
        expect((await client.get(name, id)).status).to.equal(404);
        // Its own key is fine, by replace and by patch.
        expect((await client.replace(name, holder.id, sameKeyAs(collection, holder))).status).to.equal(200);
        expect((await client.update(name, holder.id, { ...patch, [optionalTextField(collection)]: 'same key' })).status).to.equal(200);
        // Once the holder is gone (or has moved to another key), the key is free.
        expect((await client.delete(name, holder.id)).status).to.equal(204);
        const moved = await client.update(name, other.id, patch);
        expect(moved.status, moved.text).to.equal(200);
        expectKeyConflict(await client.create(name, sameKeyAs(collection, holder)), collection);
        // ...and the key it left is free again.
        expect((await client.create(name, sameKeyAs(collection, other))).status).to.equal(201);
      });

      it(`${RACERS} racing creates of one key: exactly one 201, the rest 409`, async () => {
        const key = sampleOf(collection);
        const bodies = Array.from({ length: RACERS }, () => sameKeyAs(collection, key));
        const responses = await Promise.all(bodies.map((body, i) => client.create(name, body, i % 2 ? 'V' : 'P/slug')));
        expect(tally(responses)).to.deep.equal({ 201: 1, 409: RACERS - 1 });
        for (const res of responses.filter((r) => r.status === 409)) expectKeyConflict(res, collection);
      });

      it('patches racing creates onto one key: exactly one wins', async () => {
        const key = sampleOf(collection);
        const movers = await Promise.all(Array.from({ length: RACERS / 2 }, () => client.given(name)));
        // Parts the sample lacks stay out of the patch: the movers lack them too.
        const patch = Object.fromEntries(collection.naturalKey.filter((field) => key[field] !== undefined).map((field) => [field, key[field]]));
        const responses = await Promise.all([
          ...movers.map((mover) => client.update(name, mover.id, patch)),
          ...Array.from({ length: RACERS / 2 }, () => client.create(name, sameKeyAs(collection, key))),
        ]);
        expect(tally(responses)[409]).to.equal(RACERS - 1);
        expect(responses.filter((res) => res.status === 200 || res.status === 201)).to.have.length(1);
      });
    });
  }

  it('a missing optional key part counts as null: two requests of one operation without contentMediaType conflict', async () => {
    const operationId = newIdOf('op_');
    const first = await client.create('requests', { operationId });
    expect(first.status, first.text).to.equal(201);
    expectKeyConflict(await client.create('requests', { operationId, contentMediaType: null }), collectionNamed('requests'));
    expect((await client.create('requests', { operationId, contentMediaType: 'text/plain' })).status).to.equal(201);
    // Responses: the default response (statusCode null) once per media type.
    const response = { operationId, statusCode: null };
    expect((await client.create('responses', response)).status).to.equal(201);
    expectKeyConflict(await client.create('responses', { operationId }), collectionNamed('responses'));
  });

  it('a security scheme name is unique within the service that owns it, and among the version-wide ones', async () => {
    const collection = collectionNamed('security-schemes');
    const [mine, theirs] = [newIdOf('svc_'), newIdOf('svc_')];
    const name = uniqueWord('api-key');
    const own = await client.given('security-schemes', { serviceId: mine, name });
    expectKeyConflict(await client.create('security-schemes', { ...sampleOf(collection), serviceId: mine, name }), collection);
    const other = await client.given('security-schemes', { serviceId: theirs, name });
    const versionWide = await client.given('security-schemes', { name });
    expectKeyConflict(await client.create('security-schemes', { ...sampleOf(collection), name }), collection);
    const ids = async (query: string): Promise<string[]> => {
      const res = await client.list('security-schemes', `?name=${name}&${query}`);
      expect(res.status, res.text).to.equal(200);
      return res.body.items.map((item: Fields) => item['id']);
    };
    expect(await ids(`serviceId=${mine}`)).to.deep.equal([own.id]);
    expect(await ids(`serviceId=${theirs}`)).to.deep.equal([other.id]);
    expect((await ids('')).sort()).to.deep.equal([own.id, other.id, versionWide.id].sort());
  });

  it('natural keys are per version: the same key is free in another version', async () => {
    const service1 = await client.given('services');
    const other = await service.runtime.tenancy.versions.create(tenant.project.id, 'environment', 'rules-other');
    const elsewhere = new Client(service, { ...tenant, version: other });
    expect((await elsewhere.create('services', { ...sampleOf(collectionNamed('services')), slug: service1['slug'] })).status).to.equal(201);
  });

  describe('scope rules', () => {
    it('a Server has at most one of serviceId, pathId, operationId', async () => {
      const url = 'https://api.test';
      for (const scope of [{}, { serviceId: newIdOf('svc_') }, { pathId: newIdOf('path_') }, { operationId: newIdOf('op_') }]) {
        expect((await client.create('servers', { url, ...scope })).status).to.equal(201);
      }
      const res = await client.create('servers', { url, serviceId: newIdOf('svc_'), operationId: newIdOf('op_') });
      expectInvalid(res, '/operationId');
      expect(res.body.details).to.have.length(1);
      const server = await client.given('servers', { serviceId: newIdOf('svc_') });
      expectInvalid(await client.update('servers', server.id, { pathId: newIdOf('path_') }), '/pathId');
      expect((await client.update('servers', server.id, { serviceId: undefined, pathId: newIdOf('path_') })).status).to.equal(400);
    });

    it('a Parameter has exactly one of pathId, operationId', async () => {
      const body = { name: 'q', in: 'query', schema: {} };
      expect((await client.create('parameters', { ...body, pathId: newIdOf('path_') })).status).to.equal(201);
      expect((await client.create('parameters', { ...body, operationId: newIdOf('op_') })).status).to.equal(201);
      const none = await client.create('parameters', body);
      expectInvalid(none, '/pathId');
      expect(none.body.details).to.deep.equal([{ field: '/pathId', message: 'is required: set exactly 1 of pathId, operationId' }]);
      expectInvalid(await client.create('parameters', { ...body, pathId: newIdOf('path_'), operationId: newIdOf('op_') }), '/operationId');
      const path = await client.create('parameters', { ...body, name: 'id', in: 'path', pathId: newIdOf('path_') });
      expect(path.body.details).to.deep.equal([{ field: '/required', message: 'is required when in is "path"' }]);
    });
  });

  describe('list filters', () => {
    it('are typed by the field: statusCode=200 a number, null null; malformed values are 400', async () => {
      const operationId = newIdOf('op_');
      const ok = await client.given('responses', { operationId, statusCode: 200, contentMediaType: 'application/json' });
      const fallback = await client.given('responses', { operationId, statusCode: null, contentMediaType: null });
      const ids = async (query: string): Promise<string[]> => {
        const res = await client.list('responses', `?operationId=${operationId}&${query}`);
        expect(res.status, res.text).to.equal(200);
        return res.body.items.map((item: Fields) => item['id']);
      };
      expect(await ids('statusCode=200')).to.deep.equal([ok.id]);
      expect(await ids('statusCode=null')).to.deep.equal([fallback.id]);
      expect(await ids('contentMediaType=null')).to.deep.equal([fallback.id]);
      expect(await ids('contentMediaType=application%2Fjson')).to.deep.equal([ok.id]);
      expect(await ids('statusCode=404')).to.deep.equal([]);
      expectInvalid(await client.list('responses', '?statusCode=abc'), 'statusCode');
      expectInvalid(await client.list('responses', '?statusCode=99'), 'statusCode');
      expectInvalid(await client.list('operations', '?method=fetch'), 'method');
      expectInvalid(await client.list('responses', '?operationId=svc_x'), 'operationId');
      expectInvalid(await client.list('resources', '?name=x'), 'name');
    });

    it('natural-key and reference filters of every kind', async () => {
      const slug = (await client.given('services'))['slug'];
      const bySlug = await client.list('services', `?slug=${String(slug)}`);
      expect(bySlug.body.items.map((item: Fields) => item['slug'])).to.deep.equal([slug]);
      const pathId = newIdOf('path_');
      const get = await client.given('operations', { pathId, method: 'get' });
      await client.given('operations', { pathId, method: 'post' });
      const res = await client.list('operations', `?pathId=${pathId}&method=get`);
      expect(res.body.items.map((item: Fields) => item['id'])).to.deep.equal([get.id]);
    });
  });

  describe('updatedAfter', () => {
    it('lists only records written after the instant (exclusive), paginated with the same guarantees', async () => {
      const pathId = newIdOf('path_');
      const older = await Promise.all(Array.from({ length: 3 }, (_, i) => client.given('parameters', { pathId, name: `old${i}` })));
      const since = older.map((record) => String(record['updatedAt'])).sort().at(-1)!;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const newer = [];
      for (let i = 0; i < 7; i++) newer.push(await client.given('parameters', { pathId, name: `new${i}` }));
      // A record of the first batch changed since: it is listed too.
      const touched = await client.update('parameters', older[0]!.id, { description: 'touched' });
      const expected = [...newer.map((record) => record.id), older[0]!.id];

      for (const sort of ['', '&sort=updatedAt', '&sort=-updatedAt', '&sort=name']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const res: Response = await client.list('parameters', `?pathId=${pathId}&updatedAfter=${encodeURIComponent(since)}&limit=3${sort}${cursor ? `&cursor=${cursor}` : ''}`);
          expect(res.status, res.text).to.equal(200);
          seen.push(...res.body.items.map((item: Fields) => item['id']));
          cursor = res.body.pagination.nextCursor;
        } while (cursor);
        expect([...seen].sort(), sort).to.deep.equal([...expected].sort());
        expect(new Set(seen).size).to.equal(seen.length);
      }
      // Exclusive: the instant of the last write itself lists nothing.
      const none = await client.list('parameters', `?pathId=${pathId}&updatedAfter=${encodeURIComponent(touched.body.updatedAt)}`);
      expect(none.body.items).to.deep.equal([]);
      // Any offset is accepted and means the same instant.
      const offset = await client.list('parameters', `?pathId=${pathId}&updatedAfter=2000-01-01T01:00:00%2B01:00`);
      expect(offset.body.items).to.have.length(10);
    });

    it('400 for a malformed date-time', async () => {
      for (const bad of ['yesterday', '2026-01-01', '2026-13-01T00:00:00Z', '1700000000', '2026-01-01T00:00:00']) {
        expectInvalid(await client.list('paths', `?updatedAfter=${encodeURIComponent(bad)}`), 'updatedAfter');
      }
      expectInvalid(await client.list('paths', '?updatedAfter=2026-01-01T00:00:00Z&updatedAfter=2026-01-02T00:00:00Z'), 'updatedAfter');
    });
  });
});
