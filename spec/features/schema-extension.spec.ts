// "A schema author who adds an optional field to schemas/ gets it accepted, validated, stored and
// returned with no code change": proved by loading a modified copy of schemas/ (an optional
// `owner` string and a `deprecated` boolean defaulting to false on Path, and a `mirrors`
// collection, shaped as Servers, absent from the unchanged copy) into the unchanged service.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../server/config.ts';
import { newId } from '../../server/ids.ts';
import { loadSchemaRegistry, type SchemaRegistry } from '../../server/schemas/registry.ts';
import { documentId } from '../../server/store/records.ts';
import { recordOrder } from '../support/bson-order.ts';
import { testDatabase } from '../support/database.ts';
import { expectError, expectInvalid } from '../support/expect.ts';
import { bearer, givenTenant, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';

const SERVICE_ID = newId('svc_');

/** Copies schemas/ to `dir` and makes the schema author's edits there. */
async function extendedSchemas(dir: string): Promise<void> {
  await fs.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
  await editJson(path.join(dir, 'records/path.json'), (schema) => {
    const properties = schema['properties'] as Record<string, unknown>;
    properties['owner'] = {
      title: 'Owner', description: 'Team that owns the path.', type: 'string', maxLength: 40,
    };
    properties['deprecated'] = {
      title: 'Deprecated', description: 'Whether the path is deprecated. Defaults to `false`.', type: 'boolean', default: false,
    };
  });
}

/**
 * Adds to the copy in `dir` a kind the code has never heard of: Mirrors, a record schema, an id
 * and a descriptor shaped as the Servers' (a kind the OpenAPI mapping knows cannot be left out:
 * descriptions/kinds.ts).
 */
async function addMirrors(dir: string): Promise<void> {
  await editJson(path.join(dir, 'defs/ids.json'), (ids) => {
    const defs = ids['$defs'] as Record<string, unknown>;
    defs['mirrorId'] = JSON.parse(JSON.stringify(defs['serverId']).replaceAll('srv_', 'mir_').replaceAll('a server', 'a mirror'));
  });
  await editJson(path.join(dir, 'records/server.json'), (schema) => {
    schema['$id'] = 'https://catalog.example/schemas/records/mirror.json';
    schema['title'] = 'Mirror';
    (schema['properties'] as Record<string, { $ref?: string }>)['id']!.$ref = '../defs/ids.json#/$defs/mirrorId';
  });
  await fs.rename(path.join(dir, 'records/server.json'), path.join(dir, 'records/mirror.json'));
  await fs.cp(path.join(repoRoot, 'schemas/records/server.json'), path.join(dir, 'records/server.json'));
  await editJson(path.join(dir, 'collections.json'), (descriptors) => {
    const collections = descriptors['collections'] as Array<Record<string, unknown>>;
    const servers = collections.find((c) => c['name'] === 'servers')!;
    collections.push({
      ...servers, name: 'mirrors', title: 'Mirrors', record: 'Mirror', schema: 'https://catalog.example/schemas/records/mirror.json', notFound: 'Mirror not found',
    });
  });
}

async function editJson(file: string, edit: (json: Record<string, unknown>) => void): Promise<void> {
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  edit(json);
  await fs.writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

describe('Schema extension: fields and collections added in schemas/ need no code change', () => {
  let dir: string;
  let originalDir: string;
  let schemas: SchemaRegistry;
  let original: TestCatalog;
  let extended: TestCatalog;
  let tenant: Tenant;
  /** A path stored by the service before `owner` and `deprecated` existed. */
  let older: Record<string, unknown> & { id: string };

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-schemas-'));
    await extendedSchemas(dir);
    await addMirrors(dir);
    originalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-schemas-'));
    await fs.cp(path.join(repoRoot, 'schemas'), originalDir, { recursive: true });
    original = await startCatalog({}, loadSchemaRegistry(originalDir));
    tenant = await givenTenant(original);
    const res = await original.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key))
      .send({ path: '/older', serviceId: SERVICE_ID });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    older = res.body;

    schemas = loadSchemaRegistry(dir);
    extended = await startCatalog({}, schemas);
  });
  after(async () => {
    await extended?.close();
    await original?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
    if (originalDir) await fs.rm(originalDir, { recursive: true, force: true });
  });

  const storedPath = (id: string) => testDatabase().db.collection('paths').findOne({ _id: documentId(tenant.version.id, id) as never });
  const paths = (suffix = '') => `${tenant.prefixes.byId}/paths${suffix}`;

  describe('an optional field on Path', () => {
    it('is known to the loaded catalog: a field, sortable, with its default', () => {
      const before = loadSchemaRegistry().collections.find((collection) => collection.name === 'paths')!;
      const after = schemas.collections.find((collection) => collection.name === 'paths')!;
      expect([...after.fields]).to.include.members(['owner', 'deprecated']);
      expect([...before.fields]).to.not.include.members(['owner']);
      expect([...after.sortable]).to.include.members(['owner', 'deprecated']);
      expect(after.defaults).to.deep.equal({ ...before.defaults, deprecated: false });
    });

    it('the unchanged schemas refuse it as an unknown field', async () => {
      const res = await original.request.post(paths()).set(bearer(tenant.key)).send({ path: '/x', serviceId: SERVICE_ID, owner: 'team-a' });
      expectInvalid(res, '/owner');
    });

    it('is accepted, stored under its own name and returned', async () => {
      const res = await extended.request.post(paths()).set(bearer(tenant.key))
        .send({ path: '/owned', serviceId: SERVICE_ID, owner: 'team-a', deprecated: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ owner: 'team-a', deprecated: true });

      const stored = await storedPath(res.body.id);
      expect(stored).to.include({ id: res.body.id, owner: 'team-a', deprecated: true });

      const got = await extended.request.get(paths(`/${res.body.id}`)).set(bearer(tenant.key));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(res.body);
    });

    it('is validated: wrong type or too long is 400 pointing at the field', async () => {
      const post = (body: object) => extended.request.post(paths()).set(bearer(tenant.key)).send({ path: '/x', serviceId: SERVICE_ID, ...body });
      expectInvalid(await post({ owner: 42 }), '/owner');
      expectInvalid(await post({ owner: 'x'.repeat(41) }), '/owner');
      expectInvalid(await post({ owner: null }), '/owner');
      expectInvalid(await post({ deprecated: 'yes' }), '/deprecated');
      expect((await post({ owner: 'x'.repeat(40) })).status).to.equal(201);
    });

    it('is defaulted: deprecated is false when not sent, stored as such', async () => {
      const res = await extended.request.post(paths()).set(bearer(tenant.key)).send({ path: '/plain', serviceId: SERVICE_ID });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ deprecated: false }).and.not.have.property('owner');
      expect(await storedPath(res.body.id)).to.include({ deprecated: false });
    });

    it('is defaulted on records stored before the field existed, without rewriting them', async () => {
      const got = await extended.request.get(paths(`/${older.id}`)).set(bearer(tenant.key));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal({ ...older, deprecated: false });
      const listed = await extended.request.get(paths()).query({ limit: '1000' }).set(bearer(tenant.key));
      expect(listed.body.items.find((item: { id: string }) => item.id === older.id)).to.deep.equal({ ...older, deprecated: false });
      expect(await storedPath(older.id)).to.not.have.property('deprecated');
    });

    it('is PATCHable, with the same validation', async () => {
      const patch = (id: string, body: object) => extended.request.patch(paths(`/${id}`)).set(bearer(tenant.key)).send(body);
      const first = await patch(older.id, { owner: 'team-b' });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.include({ owner: 'team-b', deprecated: false, path: '/older' });
      const second = await patch(older.id, { deprecated: true });
      expect(second.body).to.include({ owner: 'team-b', deprecated: true });
      expect(await storedPath(older.id)).to.include({ owner: 'team-b', deprecated: true });
      expectInvalid(await patch(older.id, { owner: 7 }), '/owner');
      expectInvalid(await patch(older.id, { deprecated: null }), '/deprecated');
      // The original service, which does not know the field, still reads the record.
      const read = await original.request.get(paths(`/${older.id}`)).set(bearer(tenant.key));
      expect(read.status).to.equal(200);
      expect(read.body).to.include({ owner: 'team-b', deprecated: true });
    });

    it('is sortable: sort=owner and sort=-owner, absent first when ascending', async () => {
      const version = await extended.runtime.tenancy.versions.create(tenant.project.id, 'branch', 'sort-by-owner');
      const prefix = `/v2/catalog/versions/${version.id}/paths`;
      const created: Array<Record<string, unknown> & { id: string }> = [];
      for (const owner of ['b', undefined, 'a', 'B', 'b', undefined, 'é']) {
        const res = await extended.request.post(prefix).set(bearer(tenant.key)).send({ path: `/s/${created.length}`, serviceId: SERVICE_ID, ...(owner && { owner }) }); // unique: (serviceId, path) is a natural key
        expect(res.status).to.equal(201);
        created.push(res.body);
      }
      for (const direction of [1, -1] as const) {
        const expected = [...created].sort(recordOrder([{ field: 'owner', direction }])).map((record) => record.id);
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const res = await extended.request.get(prefix).set(bearer(tenant.key))
            .query({ sort: direction === 1 ? 'owner' : '-owner', limit: '2', ...(cursor && { cursor }) });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          ids.push(...res.body.items.map((item: { id: string }) => item.id));
          cursor = res.body.pagination.nextCursor;
        } while (cursor);
        expect(ids).to.deep.equal(expected);
      }
      const ascending = await extended.request.get(prefix).set(bearer(tenant.key)).query({ sort: 'owner' });
      expect(ascending.body.items.map((item: { owner?: string }) => item.owner ?? null)).to.deep.equal([null, null, 'B', 'a', 'b', 'b', 'é']);
    });

    it('a field with a default is sortable too, including records stored before it existed', async () => {
      const version = await original.runtime.tenancy.versions.create(tenant.project.id, 'branch', 'sort-by-deprecated');
      const prefix = `/v2/catalog/versions/${version.id}/paths`;
      for (const [index, [service, deprecated]] of ([[original, undefined], [extended, true], [extended, false], [original, undefined], [extended, true]] as const).entries()) {
        const res = await service.request.post(prefix).set(bearer(tenant.key)).send({ path: `/d/${index}`, serviceId: SERVICE_ID, ...(deprecated !== undefined && { deprecated }) });
        expect(res.status).to.equal(201);
      }
      for (const [sort, expected] of [['deprecated', [false, false, false, true, true]], ['-deprecated', [true, true, false, false, false]]] as const) {
        const seen: boolean[] = [];
        const ids = new Set<string>();
        let cursor: string | null = null;
        do {
          const res = await extended.request.get(prefix).set(bearer(tenant.key)).query({ sort, limit: '2', ...(cursor && { cursor }) });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          for (const item of res.body.items) {
            seen.push(item.deprecated);
            ids.add(item.id);
          }
          cursor = res.body.pagination.nextCursor;
        } while (cursor);
        expect(seen).to.deep.equal(expected);
        expect(ids.size).to.equal(5);
      }
    });
  });

  describe('a new collection (mirrors) from one descriptor entry', () => {
    it('the unchanged service has no such routes', async () => {
      expectError(await original.request.get(`${tenant.prefixes.byId}/mirrors`).set(bearer(tenant.key)), 404, 'Not found');
    });

    it('has its indexes, including its filter', async () => {
      const names = (await testDatabase().db.collection('mirrors').indexes()).map((index) => index.name);
      expect(names).to.include.members(['versionId_id', 'versionId_updatedAt_id', 'versionId_serviceId_id']);
    });

    for (const family of ['byId', 'byAddress'] as const) {
      it(`family ${family}: create, get, list with its filter, replace, update, delete`, async () => {
        const mirrors = (suffix = '') => `${tenant.prefixes[family]}/mirrors${suffix}`;
        const auth = bearer(tenant.key);

        const created = await extended.request.post(mirrors()).set(auth).send({ url: 'https://{region}.example.com', serviceId: SERVICE_ID });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(created.body.id).to.match(/^mir_[0-9A-Z]{26}$/);
        expect(created.body).to.include({ url: 'https://{region}.example.com', serviceId: SERVICE_ID, versionId: tenant.version.id });
        expect(created.body).to.deep.include({ variables: {}, kvStorage: {} });
        const id = created.body.id as string;
        const other = await extended.request.post(mirrors()).set(auth).send({ url: 'https://other.example.com' });
        expect(other.status).to.equal(201);

        expect((await extended.request.get(mirrors(`/${id}`)).set(auth)).body).to.deep.equal(created.body);

        const filtered = await extended.request.get(mirrors()).set(auth).query({ serviceId: SERVICE_ID, sort: '-url' });
        expect(filtered.status).to.equal(200);
        expect(filtered.body.items.map((item: { id: string }) => item.id)).to.include(id).and.not.include(other.body.id);
        expectInvalid(await extended.request.get(mirrors()).set(auth).query({ serviceId: 'svc_x' }), 'serviceId');
        expectInvalid(await extended.request.get(mirrors()).set(auth).query({ sort: 'variables' }), 'sort');

        const variables = { region: { default: 'eu', enum: ['eu', 'us'] } };
        const replaced = await extended.request.post(mirrors(`/${id}`)).set(auth).send({ url: 'https://{region}.example.org', variables });
        expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
        expect(replaced.body).to.deep.include({ url: 'https://{region}.example.org', variables }).and.not.have.property('serviceId');

        const patched = await extended.request.patch(mirrors(`/${id}`)).set(auth).send({ description: 'Regional' });
        expect(patched.status).to.equal(200);
        expect(patched.body).to.include({ description: 'Regional', url: 'https://{region}.example.org' });
        expectInvalid(await extended.request.patch(mirrors(`/${id}`)).set(auth).send({ variables: { region: { default: 'eu', enum: [] } } }), '/variables/region/enum');
        expectInvalid(await extended.request.post(mirrors()).set(auth).send({ url: 'u', serviceId: SERVICE_ID, pathId: newId('path_') }), '/pathId');

        expect((await extended.request.delete(mirrors(`/${id}`)).set(auth)).status).to.equal(204);
        expectError(await extended.request.get(mirrors(`/${id}`)).set(auth), 404, 'Mirror not found');
        expectError(await extended.request.delete(mirrors(`/${id}`)).set(auth), 404, 'Mirror not found');
        expectInvalid(await extended.request.get(mirrors(`/${newId('path_')}`)).set(auth), 'id');
      });
    }
  });
});

describe('Schema extension: a descriptor the service cannot serve', () => {
  it('stops loading with a message naming the collection and the missing field', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-schemas-'));
    try {
      await fs.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
      await editJson(path.join(dir, 'collections.json'), (descriptors) => {
        (descriptors['collections'] as unknown[]).push({
          name: 'conversations', title: 'Conversations', record: 'AssistantConversation',
          schema: 'https://catalog.example/schemas/records/assistant-conversation.json', notFound: 'Conversation not found',
        });
      });
      expect(() => loadSchemaRegistry(dir)).to.throw(/^collection conversations: AssistantConversation has no id property/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
