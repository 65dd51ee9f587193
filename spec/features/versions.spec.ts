// The versions interface over HTTP: list (keyset pages, type filter), create (empty, copy of a
// version with thousands of records compared record by record), get and delete by both
// addresses, delete under concurrent writes, diff after edits, and who may do what.
import { expect } from 'chai';
import { ulid } from 'ulid';
import type { Response } from 'supertest';
import { PURGE_GRACE_MS, VersionManager } from '../../server/versions/manage.ts';
import { VersionRecords } from '../../server/store/version-records.ts';
import { VERSION_SCHEMA } from '../../server/versions/operations.ts';
import { emptyDatabase, ownDatabase } from '../support/database.ts';
import { READ_ONLY, expectError, expectInvalid } from '../support/expect.ts';
import { bearer, givenTenant, startCatalog, tokenFor, type Tenant, type TestCatalog } from '../support/catalog.ts';

type Json = Record<string, unknown>;

describe('versions over HTTP', function () {
  // Generous: copies of thousands of records, and the test machines are shared.
  this.timeout(300_000);
  let service: TestCatalog;
  let database: ReturnType<typeof ownDatabase>;

  // A database of its own, emptied after each test: the sweeper's tests count the deleted
  // versions it finds, and copies compare whole collections.
  before(async () => {
    database = ownDatabase('versions');
    service = await startCatalog({ MONGODB_URI: database.uri });
  });
  after(async () => {
    await service.close();
    await database.drop();
  });
  afterEach(() => emptyDatabase(database.db));

  const versionsOf = (tenant: Tenant, ref = tenant.project.slug) => `/v2/catalog/projects/${ref}/versions`;
  const byId = (id: string) => `/v2/catalog/versions/${id}`;
  const byAddress = (tenant: Tenant, type: string, slug: string, ref = tenant.project.slug) => `/v2/catalog/projects/${ref}/${type}/${slug}`;

  function expectVersion(body: Json): void {
    const problems = service.runtime.schemas.check(VERSION_SCHEMA)(body);
    expect(problems, JSON.stringify(body)).to.deep.equal([]);
  }

  async function create(tenant: Tenant, body: Json, secret = tenant.key): Promise<Response> {
    return service.request.post(versionsOf(tenant)).set(bearer(secret)).send(body);
  }

  /** Stores `count` paths and `count / 5` requests straight through the stores (fast seeding). */
  async function seed(versionId: string, count: number): Promise<void> {
    const paths = service.runtime.stores.get('paths')!;
    const requests = service.runtime.stores.get('requests')!;
    const now = new Date();
    const work: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < count; i++) {
      work.push(() => paths.insert({ id: `path_${ulid()}`, versionId, serviceId: `svc_${ulid()}`, path: `/things/${i}`, kvStorage: { n: i, 'a.b': [[i]] } }, now));
      if (i % 5 === 0) work.push(() => requests.insert({ id: `req_${ulid()}`, versionId, operationId: `op_${ulid()}`, contentMediaType: 'application/json', headers: {}, kvStorage: {}, examples: {} }, now));
    }
    for (let at = 0; at < work.length; at += 50) await Promise.all(work.slice(at, at + 50).map((run) => run()));
  }

  /** Every record of a collection of a version, through the interface. */
  async function allRecords(versionId: string, collection: string, secret: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await service.request.get(`${byId(versionId)}/${collection}`).query({ limit: 1000, ...(cursor && { cursor }) }).set(bearer(secret));
      expect(res.status).to.equal(200);
      items.push(...res.body.items);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    return items;
  }

  async function storedCount(versionId: string): Promise<number> {
    const { db } = database;
    let count = 0;
    for (const collection of service.runtime.schemas.collections) count += await db.collection(collection.name).countDocuments({ versionId });
    return count;
  }

  describe('create, get, list', () => {
    it('creates an empty version (201, Location) that both addresses then serve', async () => {
      const tenant = await givenTenant(service);
      const res = await create(tenant, { type: 'environment', slug: 'staging' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expectVersion(res.body);
      expect(res.body).to.include({ projectId: tenant.project.id, type: 'environment', slug: 'staging', copiedFrom: null });
      expect(res.headers['location']).to.equal(byId(res.body.id));
      for (const url of [byId(res.body.id), byAddress(tenant, 'environment', 'staging'), byAddress(tenant, 'environment', 'staging', tenant.project.id)]) {
        const got = await service.request.get(url).set(bearer(tenant.readOnlyKey));
        expect(got.status, url).to.equal(200);
        expect(got.body).to.deep.equal(res.body);
      }
      const records = await service.request.get(`${byAddress(tenant, 'environment', 'staging')}/paths`).set(bearer(tenant.key));
      expect(records.body.items).to.deep.equal([]);
    });

    it('answers 409 for a taken type and slug, 400 for bad input', async () => {
      const tenant = await givenTenant(service);
      expectError(await create(tenant, { type: 'branch', slug: 'main' }), 409, 'Conflict');
      expect((await create(tenant, { type: 'environment', slug: 'main' })).status).to.equal(201);
      expectInvalid(await create(tenant, { type: 'tag', slug: 'x' }), '/type');
      expectInvalid(await create(tenant, { type: 'branch' }), '/slug');
      expectInvalid(await create(tenant, { type: 'branch', slug: '' }), '/slug');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', name: 'extra' }), '/name');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', copyFrom: 'ver_bad' }), '/copyFrom');
      expectInvalid(await service.request.get(versionsOf(tenant)).query({ limit: 0 }).set(bearer(tenant.key)), 'limit');
      expectInvalid(await service.request.get(versionsOf(tenant)).query({ type: 'tag' }).set(bearer(tenant.key)), 'type');
      expectInvalid(await service.request.get(versionsOf(tenant)).query({ sort: 'slug' }).set(bearer(tenant.key)), 'sort');
      expectInvalid(await service.request.get(byId(tenant.version.id)).query({ x: '1' }).set(bearer(tenant.key)), 'x');
      expectInvalid(await service.request.get(byAddress(tenant, 'tag', 'main')).set(bearer(tenant.key)), 'versionType');
      const put = await service.request.put(byId(tenant.version.id)).set(bearer(tenant.key));
      expectError(put, 405, 'Method not allowed');
      expect(put.headers['allow']).to.equal('DELETE, GET, HEAD');
    });

    it('lists versions in keyset pages in creation order, filtered by type', async () => {
      const tenant = await givenTenant(service);
      for (const [type, slug] of [['branch', 'b1'], ['environment', 'e1'], ['branch', 'b2'], ['environment', 'e2'], ['branch', 'b3']]) {
        expect((await create(tenant, { type, slug })).status).to.equal(201);
      }
      const seen: Json[] = [];
      let cursor: string | null = null;
      do {
        const res: Response = await service.request.get(versionsOf(tenant)).query({ limit: 2, ...(cursor && { cursor }) }).set(bearer(tenant.readOnlyKey));
        expect(res.status).to.equal(200);
        expect(res.body.pagination).to.include({ limit: 2, hasMore: res.body.pagination.nextCursor !== null });
        expect(service.runtime.schemas.check(`${VERSION_SCHEMA}#/$defs/versionList`)(res.body)).to.deep.equal([]);
        seen.push(...res.body.items);
        cursor = res.body.pagination.nextCursor;
      } while (cursor);
      expect(seen.map((v) => v['slug'])).to.deep.equal(['main', 'b1', 'e1', 'b2', 'e2', 'b3']);
      const ids = seen.map((v) => v['id'] as string);
      expect([...ids].sort()).to.deep.equal(ids);
      const environments = await service.request.get(versionsOf(tenant, tenant.project.id)).query({ type: 'environment' }).set(bearer(tenant.key));
      expect(environments.body.items.map((v: Json) => v['slug'])).to.deep.equal(['e1', 'e2']);
      expect(environments.body.pagination).to.deep.equal({ nextCursor: null, hasMore: false, limit: 50 });
    });
  });

  describe('copy', () => {
    it('copies every record of every collection with ids kept, compared record by record', async () => {
      const tenant = await givenTenant(service);
      await seed(tenant.version.id, 2000);
      const res = await create(tenant, { type: 'branch', slug: 'copy', copyFrom: tenant.version.id });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expectVersion(res.body);
      expect(res.body.copiedFrom).to.equal(tenant.version.id);
      for (const collection of ['paths', 'requests']) {
        const source = await allRecords(tenant.version.id, collection, tenant.key);
        const copy = await allRecords(res.body.id, collection, tenant.key);
        expect(source.length).to.equal(collection === 'paths' ? 2000 : 400);
        expect(copy.length).to.equal(source.length);
        copy.forEach((record, i) => {
          expect(record['versionId']).to.equal(res.body.id);
          // Everything else, updatedAt included, is the source record's.
          expect({ ...record, versionId: tenant.version.id }).to.deep.equal(source[i]);
        });
      }
      // A copy of thousands differs from an empty version by more than the cap.
      const empty = await create(tenant, { type: 'branch', slug: 'empty' });
      const diff = await service.request.get(`${byId(empty.body.id)}/diff`).query({ against: res.body.id }).set(bearer(tenant.readOnlyKey));
      expect(diff.status).to.equal(200);
      expect(diff.body.collections.paths.removed).to.have.length(1000);
      expect(diff.body.collections.paths.truncated).to.equal(true);
      expect(diff.body.collections.requests).to.include({ truncated: false });
      expect(diff.body.collections.requests.removed).to.have.length(400);
    });

    it('takes copyFrom and the diff\'s against by slug as well as by id: type/slug, project/type/slug, {type, slug}', async () => {
      const [tenant, other] = await Promise.all([givenTenant(service), givenTenant(service)]);
      const main = tenant.version.id;
      expect((await service.request.post(`${byId(main)}/paths`).set(bearer(tenant.key)).send({ serviceId: `svc_${ulid()}`, path: '/kept' })).status).to.equal(201);
      const forms: Array<string | Json> = [main, 'branch/main', `${tenant.project.slug}/branch/main`, `${tenant.project.id}/branch/main`, { type: 'branch', slug: 'main' }];
      for (const [i, copyFrom] of forms.entries()) {
        const res = await create(tenant, { type: 'branch', slug: `copy-${i}`, copyFrom });
        expect(res.status, `${JSON.stringify(copyFrom)}: ${JSON.stringify(res.body)}`).to.equal(201);
        expect(res.body.copiedFrom).to.equal(main);
        const against = typeof copyFrom === 'string' ? copyFrom : 'branch/main';
        const diff = await service.request.get(`${byId(res.body.id)}/diff`).query({ against }).set(bearer(tenant.readOnlyKey));
        expect(diff.status, `${against}: ${JSON.stringify(diff.body)}`).to.equal(200);
        expect(diff.body).to.deep.include({ against: main });
        expect(diff.body.collections.paths).to.deep.equal({ added: [], removed: [], changed: [], truncated: false });
      }
      // By slug as by id: unknown or out of reach is 403, another project's when reachable 400, a malformed form 400.
      expectError(await create(tenant, { type: 'branch', slug: 'x', copyFrom: 'branch/nope' }), 403, 'Forbidden');
      expectError(await create(tenant, { type: 'branch', slug: 'x', copyFrom: { type: 'environment', slug: 'main' } }), 403, 'Forbidden');
      expectError(await create(tenant, { type: 'branch', slug: 'x', copyFrom: `${other.project.slug}/branch/main` }), 403, 'Forbidden');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', copyFrom: `${other.project.slug}/branch/main` }, tokenFor('all')), '/copyFrom');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', copyFrom: 'tag/main' }), '/copyFrom');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', copyFrom: { type: 'branch' } }), '/copyFrom');
      expectError(await service.request.get(`${byId(main)}/diff`).query({ against: `${other.project.slug}/branch/main` }).set(bearer(tenant.key)), 403, 'Forbidden');
      expectInvalid(await service.request.get(`${byId(main)}/diff`).query({ against: 'a/b/c/d' }).set(bearer(tenant.key)), 'against');
    });

    it('refuses copyFrom of another project (403 out of reach, 400 when reachable) and an unknown one', async () => {
      const [tenant, other] = await Promise.all([givenTenant(service), givenTenant(service)]);
      expectError(await create(tenant, { type: 'branch', slug: 'x', copyFrom: other.version.id }), 403, 'Forbidden');
      expectError(await create(tenant, { type: 'branch', slug: 'x', copyFrom: `ver_${ulid()}` }), 403, 'Forbidden');
      expectInvalid(await create(tenant, { type: 'branch', slug: 'x', copyFrom: other.version.id }, tokenFor('all')), '/copyFrom');
      expect((await service.request.get(byAddress(tenant, 'branch', 'x')).set(bearer(tenant.key))).status).to.equal(403);
    });

    it('keeps a version invisible while copying, and a failed copy leaves nothing behind', async () => {
      const tenant = await givenTenant(service);
      await seed(tenant.version.id, 30);
      const { tenancy } = service.runtime;
      let copyingInto = '';
      let seenDuringCopy: { byId: number; byAddress: number; listed: boolean } | undefined;
      // A copy that fails after its first batch, looking at the interface when it does.
      class FailingRecords extends VersionRecords {
        override async copy(from: string, to: string): Promise<number> {
          copyingInto = to;
          return super.copy(from, to, async () => {
            const list = await service.request.get(versionsOf(tenant)).set(bearer(tenant.key));
            seenDuringCopy = {
              byId: (await service.request.get(byId(to)).set(bearer(tenant.key))).status,
              byAddress: (await service.request.get(byAddress(tenant, 'branch', 'doomed')).set(bearer(tenant.key))).status,
              listed: list.body.items.some((v: Json) => v['id'] === to),
            };
            throw new Error('disk full');
          });
        }
      }
      const manager = new VersionManager(tenancy, new FailingRecords(database.db, service.runtime.schemas.collections, service.runtime.tenancy.revisions), { cacheMs: 0 });
      let failure: unknown;
      await manager.create(tenant.project.id, 'branch', 'doomed', tenant.version.id).catch((error: unknown) => { failure = error; });
      expect(String(failure)).to.match(/disk full/);
      expect(seenDuringCopy).to.deep.equal({ byId: 403, byAddress: 403, listed: false });
      expect(await storedCount(copyingInto)).to.equal(0);
      expect(await tenancy.versions.findByAddress(tenant.project.id, 'branch', 'doomed')).to.equal(null);
      // The slug is free again.
      expect((await create(tenant, { type: 'branch', slug: 'doomed', copyFrom: tenant.version.id })).status).to.equal(201);
    });

    it('sweeps a copy whose copier stopped beating (a crashed instance) so no half version stays', async () => {
      const tenant = await givenTenant(service);
      await seed(tenant.version.id, 20);
      const { tenancy, versionRecords, versionManager } = service.runtime;
      const half = await tenancy.versions.create(tenant.project.id, 'branch', 'crashed', tenant.version.id);
      await versionRecords.copy(tenant.version.id, half.id);
      expect((await service.request.get(byId(half.id)).set(bearer(tenant.key))).status).to.equal(403);
      await versionManager.sweep(new Date(Date.now() + 30_000));
      expect(await storedCount(half.id)).to.be.greaterThan(0); // still beating recently: left alone
      await versionManager.sweep(new Date(Date.now() + 10 * 60_000));
      expect(await storedCount(half.id)).to.equal(0);
      expect(await tenancy.versions.finishCopy(half.id)).to.equal(null);
      expect((await create(tenant, { type: 'branch', slug: 'crashed' })).status).to.equal(201);
    });
  });

  describe('delete', () => {
    it('deletes by id and by address: 204, records gone, then 403 like an unknown version', async () => {
      const tenant = await givenTenant(service);
      for (const [via, slug] of [['id', 'one'], ['address', 'two']] as const) {
        const made = await create(tenant, { type: 'branch', slug });
        await seed(made.body.id, 10);
        const url = via === 'id' ? byId(made.body.id) : byAddress(tenant, 'branch', slug);
        // The cache holds it now; the delete must still take effect at once in this instance.
        expect((await service.request.get(url).set(bearer(tenant.key))).status).to.equal(200);
        const res = await service.request.delete(url).set(bearer(tenant.key));
        expect(res.status).to.equal(204);
        expect(res.text).to.equal('');
        expect(await storedCount(made.body.id)).to.equal(0);
        for (const gone of [byId(made.body.id), byAddress(tenant, 'branch', slug), `${byId(made.body.id)}/paths`]) {
          const after = await service.request.get(gone).set(bearer(tenant.key));
          expectError(after, 403, 'Forbidden');
        }
        expectError(await service.request.delete(url).set(bearer(tenant.key)), 403, 'Forbidden');
        const listed = await service.request.get(versionsOf(tenant)).set(bearer(tenant.key));
        expect(listed.body.items.map((v: Json) => v['slug'])).not.to.include(slug);
      }
      expect((await create(tenant, { type: 'branch', slug: 'one' })).status).to.equal(201);
    });

    it('purges a version too large for one delete statement in slices by id', async () => {
      const tenant = await givenTenant(service);
      await seed(tenant.version.id, 40);
      const other = await create(tenant, { type: 'branch', slug: 'kept', copyFrom: tenant.version.id });
      const sliced = new VersionRecords(database.db, service.runtime.schemas.collections, service.runtime.tenancy.revisions, { purgeBatch: 7 });
      expect(await sliced.purge(tenant.version.id)).to.equal(48);
      expect(await storedCount(tenant.version.id)).to.equal(0);
      expect(await storedCount(other.body.id)).to.equal(48);
    });

    it('leaves no record of the version behind when writes race the delete', async () => {
      const tenant = await givenTenant(service);
      const made = await create(tenant, { type: 'branch', slug: 'busy' });
      const id = made.body.id as string;
      await seed(id, 50);
      const writes: Promise<Response>[] = [];
      let deleting = true;
      const writer = (async () => {
        while (deleting && writes.length < 200) {
          writes.push(service.request.post(`${byId(id)}/paths`).set(bearer(tenant.key)).send({ serviceId: `svc_${ulid()}`, path: '/racing' }).then((r) => r));
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const res = await service.request.delete(byId(id)).set(bearer(tenant.key));
      expect(res.status).to.equal(204);
      deleting = false;
      await writer;
      const statuses = (await Promise.all(writes)).map((r) => r.status);
      expect(statuses.every((status) => status === 201 || status === 403), String(statuses)).to.equal(true);
      // Later writes through this instance are refused at once.
      expectError(await service.request.post(`${byId(id)}/paths`).set(bearer(tenant.key)).send({ serviceId: `svc_${ulid()}`, path: '/late' }), 403, 'Forbidden');
      // Writes that raced the delete may have landed after its purge; the sweeper removes them,
      // and drops the tombstone once the cache lifetime (and grace) has passed.
      await service.runtime.versionManager.sweep(new Date(Date.now() + service.runtime.config.versionCacheMs + PURGE_GRACE_MS + 1000));
      expect(await storedCount(id)).to.equal(0);
      expect(await database.db.collection('deletedVersions').countDocuments({ _id: id as never })).to.equal(0);
    });
  });

  describe('diff', () => {
    it('lists added, removed and changed ids per collection after edits (updatedAt alone is no change)', async () => {
      const tenant = await givenTenant(service);
      const paths = `${tenant.prefixes.byId}/paths`;
      const made: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await service.request.post(paths).set(bearer(tenant.key)).send({ serviceId: `svc_${ulid()}`, path: `/p${i}` });
        made.push(res.body.id);
      }
      const copy = await create(tenant, { type: 'branch', slug: 'feature', copyFrom: tenant.version.id });
      const copyPaths = `${byId(copy.body.id)}/paths`;
      const added = (await service.request.post(copyPaths).set(bearer(tenant.key)).send({ serviceId: `svc_${ulid()}`, path: '/new' })).body.id;
      expect((await service.request.delete(`${copyPaths}/${made[0]}`).set(bearer(tenant.key))).status).to.equal(204);
      expect((await service.request.patch(`${copyPaths}/${made[1]}`).set(bearer(tenant.key)).send({ summary: 'changed' })).status).to.equal(200);
      // Rewritten with the same content: only updatedAt moves.
      const same = (await service.request.get(`${copyPaths}/${made[2]}`).set(bearer(tenant.key))).body;
      expect((await service.request.post(`${copyPaths}/${made[2]}`).set(bearer(tenant.key)).send(same)).status).to.equal(200);

      const res = await service.request.get(`${byId(copy.body.id)}/diff`).query({ against: tenant.version.id }).set(bearer(tokenFor([tenant.project.id], { readOnly: true })));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(service.runtime.schemas.check(`${VERSION_SCHEMA}#/$defs/versionDiff`)(res.body)).to.deep.equal([]);
      expect(res.body).to.deep.include({ versionId: copy.body.id, against: tenant.version.id });
      expect(res.body.collections.paths).to.deep.equal({ added: [added], removed: [made[0]], changed: [made[1]], truncated: false });
      expect(res.body.collections.requests).to.deep.equal({ added: [], removed: [], changed: [], truncated: false });
      const reverse = await service.request.get(`${byId(tenant.version.id)}/diff`).query({ against: copy.body.id }).set(bearer(tenant.key));
      expect(reverse.body.collections.paths).to.deep.equal({ added: [made[0]], removed: [added], changed: [made[1]], truncated: false });

      expectInvalid(await service.request.get(`${byId(copy.body.id)}/diff`).set(bearer(tenant.key)), 'against');
      expectInvalid(await service.request.get(`${byId(copy.body.id)}/diff`).query({ against: 'nope' }).set(bearer(tenant.key)), 'against');
      const other = await givenTenant(service);
      expectError(await service.request.get(`${byId(copy.body.id)}/diff`).query({ against: other.version.id }).set(bearer(tenant.key)), 403, 'Forbidden');
      expectError(await service.request.get(`${byId(copy.body.id)}/diff`).query({ against: `ver_${ulid()}` }).set(bearer(tenant.key)), 403, 'Forbidden');
    });
  });

  describe('access', () => {
    it('needs read access to read and write access to create and delete, with both bearer schemes', async () => {
      const tenant = await givenTenant(service);
      const readers = [tenant.readOnlyKey, tokenFor([tenant.project.id], { readOnly: true })];
      const writers = [tenant.key, tokenFor([tenant.project.id]), tokenFor('all')];
      for (const secret of readers) {
        expect((await service.request.get(versionsOf(tenant)).set(bearer(secret))).status).to.equal(200);
        expect((await service.request.get(byId(tenant.version.id)).set(bearer(secret))).status).to.equal(200);
        expectError(await create(tenant, { type: 'branch', slug: `ro-${ulid()}` }, secret), 403, 'Forbidden', READ_ONLY);
        expectError(await service.request.delete(byId(tenant.version.id)).set(bearer(secret)), 403, 'Forbidden', READ_ONLY);
        expectError(await service.request.delete(byAddress(tenant, 'branch', 'main')).set(bearer(secret)), 403, 'Forbidden', READ_ONLY);
      }
      for (const secret of writers) expect((await create(tenant, { type: 'branch', slug: `rw-${ulid()}` }, secret)).status).to.equal(201);
      expect((await service.request.get(byId(tenant.version.id)).set(bearer(tenant.key))).status).to.equal(200);
    });

    it('treats other projects and unknown ones alike (403, the same bytes) and no credential as 401', async () => {
      const [tenant, other] = await Promise.all([givenTenant(service), givenTenant(service)]);
      const urls = [
        ['GET', versionsOf(other)], ['POST', versionsOf(other)], ['GET', byId(other.version.id)], ['DELETE', byId(other.version.id)],
        ['GET', byAddress(other, 'branch', 'main')], ['DELETE', byAddress(other, 'branch', 'main', other.project.id)],
        ['GET', `${byId(other.version.id)}/diff?against=${tenant.version.id}`],
        ['GET', versionsOf(other, 'no-such-project')], ['POST', versionsOf(other, `proj_${ulid()}`)], ['GET', byId(`ver_${ulid()}`)],
        ['DELETE', byAddress(other, 'branch', 'no-such-version')],
      ] as const;
      for (const secret of [tenant.key, tokenFor([tenant.project.id])]) {
        for (const [method, url] of urls) {
          const req = method === 'GET' ? service.request.get(url) : method === 'DELETE' ? service.request.delete(url) : service.request.post(url).send({ type: 'branch', slug: 'x' });
          const res = await req.set(bearer(secret));
          expect(res.status, `${method} ${url}`).to.equal(403);
          expect(res.text).to.equal('{"error":"Forbidden"}');
        }
      }
      const anonymous = await service.request.get(versionsOf(tenant));
      expectError(anonymous, 401, 'Unauthorized');
      expect((await service.request.get(byId(other.version.id)).set(bearer(other.key))).status).to.equal(200);
    });
  });
});
