// What a schema author adds in schemas/ alone is never lost by the OpenAPI
// import and export. In a copy of schemas/: an optional `owner` on Path and Response travels
// through export → import under `x-catalog-fields`; two service-owned kinds with no OpenAPI
// mapping (Notes without a natural key, Labels with one) survive a re-import of their service.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { openRuntime } from '../../../server/boot.ts';
import { loadConfig, repoRoot } from '../../../server/config.ts';
import { CATALOG_FIELDS, checkKinds } from '../../../server/descriptions/kinds.ts';
import { loadSchemaRegistry } from '../../../server/schemas/registry.ts';
import { testDatabase } from '../../support/database.ts';
import { bearer, givenTenant, JWT_SECRET, startCatalog, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

type Json = Record<string, unknown>;

async function editJson(file: string, edit: (json: Json) => void): Promise<void> {
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Json;
  edit(json);
  await fs.writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

const OWNER = { title: 'Owner', description: 'Team that owns it.', type: 'string', maxLength: 40 };

/** A record schema of a service-owned kind: a service reference and one string field. */
function ownedKind(record: string, idDef: string, field: string): Json {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://catalog.example/schemas/records/${record.toLowerCase()}.json`,
    title: record, description: `A ${record} of a service.`, type: 'object', additionalProperties: false, required: ['versionId'],
    properties: {
      id: { $ref: `../defs/ids.json#/$defs/${idDef}`, title: 'Id', description: 'Its id.' },
      serviceId: { $ref: '../defs/ids.json#/$defs/serviceId', title: 'Service id', description: 'The service it belongs to.' },
      [field]: { title: field, description: `Its ${field}.`, type: 'string' },
      versionId: { $ref: '../defs/ids.json#/$defs/versionId', title: 'Version id', description: 'Its version.' },
      updatedAt: { $ref: '../defs/common.json#/$defs/timestamp', title: 'Updated at', description: 'When written.', readOnly: true },
    },
  };
}

/** Copies schemas/ to `dir` with the schema author's edits. */
async function extendedSchemas(dir: string): Promise<void> {
  await fs.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
  for (const record of ['path', 'response']) {
    await editJson(path.join(dir, `records/${record}.json`), (schema) => { (schema['properties'] as Json)['owner'] = OWNER; });
  }
  await editJson(path.join(dir, 'defs/ids.json'), (ids) => {
    const defs = ids['$defs'] as Json;
    for (const [name, prefix] of [['noteId', 'note_'], ['labelId', 'lbl_']]) {
      defs[name!] = {
        title: name, description: 'An id.', type: 'string', 'x-id-prefix': prefix,
        pattern: `^${prefix}[0-9A-Za-z]{26}$`, minLength: prefix!.length + 26, maxLength: prefix!.length + 26,
      };
    }
  });
  await fs.writeFile(path.join(dir, 'records/note.json'), JSON.stringify(ownedKind('Note', 'noteId', 'text')));
  await fs.writeFile(path.join(dir, 'records/label.json'), JSON.stringify(ownedKind('Label', 'labelId', 'name')));
  await editJson(path.join(dir, 'collections.json'), (descriptors) => {
    (descriptors['collections'] as Json[]).push(
      { name: 'notes', title: 'Notes', record: 'Note', schema: 'https://catalog.example/schemas/records/note.json', notFound: 'Note not found', references: { serviceId: 'services' } },
      { name: 'labels', title: 'Labels', record: 'Label', schema: 'https://catalog.example/schemas/records/label.json', notFound: 'Label not found', references: { serviceId: 'services' }, naturalKey: ['serviceId', 'name'] },
    );
  });
}

describe('descriptions: fields and kinds added in schemas/ survive import and export', function () {
  this.timeout(60_000);
  let dir: string;
  let service: TestCatalog;
  let tenant: Tenant;
  let serviceId: string;
  const url = (suffix: string) => `${tenant.prefixes.byId}${suffix}`;
  const importInto = (slug: string, document: unknown) => service.request.post(url(`/imports/openapi?service=${slug}`)).set(bearer(tenant.key)).send(document as object);

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-kinds-'));
    await extendedSchemas(dir);
    service = await startCatalog({}, loadSchemaRegistry(dir));
    tenant = await givenTenant(service);
    const res = await importInto('pets', petstore());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    serviceId = res.body.service.id;
  });
  after(async () => {
    await service?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('a field set over HTTP on a Path and a Response is exported under x-catalog-fields, and an import of the export keeps it', async () => {
    const auth = bearer(tenant.key);
    const pathRecord = (await service.request.get(url('/paths')).query({ serviceId, path: '/pets' }).set(auth)).body.items[0];
    const operation = (await service.request.get(url('/operations')).query({ pathId: pathRecord.id, method: 'get' }).set(auth)).body.items[0];
    const response = (await service.request.get(url('/responses')).query({ operationId: operation.id, statusCode: 200 }).set(auth)).body.items[0];
    expect((await service.request.patch(url(`/paths/${pathRecord.id}`)).set(auth).send({ owner: 'team-a' })).status).to.equal(200);
    expect((await service.request.patch(url(`/responses/${response.id}`)).set(auth).send({ owner: 'team-b' })).status).to.equal(200);

    const exported = (await service.request.get(url(`/services/${serviceId}/openapi`)).set(auth)).body;
    expect(exported.paths['/pets'][CATALOG_FIELDS]).to.deep.equal({ owner: 'team-a' });
    expect(exported.paths['/pets'].get.responses['200'].content[response.contentMediaType][CATALOG_FIELDS]).to.deep.equal({ owner: 'team-b' });
    expect(exported.paths['/pets/{petId}'], 'a path without the field').to.not.have.property(CATALOG_FIELDS);

    // Re-imported into its own service: nothing to write; into another: the fields set.
    const again = await importInto('pets', exported);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.records.paths.updated + again.body.records.responses.updated).to.equal(0);
    expect((await service.request.get(url(`/paths/${pathRecord.id}`)).set(auth)).body.owner).to.equal('team-a');
    const copy = await importInto('pets-copy', exported);
    expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
    const copied = (await service.request.get(url('/paths')).query({ serviceId: copy.body.service.id, path: '/pets' }).set(auth)).body.items[0];
    expect(copied.owner).to.equal('team-a');
    expect(copied.kvStorage).to.not.have.property(CATALOG_FIELDS);
  });

  it('an unknown name under x-catalog-fields stays in kvStorage and is exported back', async () => {
    const document = petstore() as { paths: Record<string, Json> };
    document.paths['/pets']![CATALOG_FIELDS] = { owner: 'team-c', nickname: 'kennel' };
    const res = await importInto('pets-unknown', document);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const stored = (await service.request.get(url('/paths')).query({ serviceId: res.body.service.id, path: '/pets' }).set(bearer(tenant.key))).body.items[0];
    expect(stored.owner).to.equal('team-c');
    expect(stored.kvStorage[CATALOG_FIELDS]).to.deep.equal({ nickname: 'kennel' });
    const exported = (await service.request.get(url(`/services/${res.body.service.id}/openapi`)).set(bearer(tenant.key))).body;
    expect(exported.paths['/pets'][CATALOG_FIELDS]).to.deep.equal({ owner: 'team-c', nickname: 'kennel' });
  });

  for (const [kind, field] of [['notes', 'text'], ['labels', 'name']] as const) {
    it(`a service-owned kind with no mapping (${kind}${kind === 'labels' ? ', with a natural key' : ''}): a re-import answers 200 and its record stays`, async () => {
      const auth = bearer(tenant.key);
      const created = await service.request.post(url(`/${kind}`)).set(auth).send({ serviceId, [field]: 'kept' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const res = await importInto('pets', petstore());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.records).to.not.have.property(kind);
      const got = await service.request.get(url(`/${kind}/${created.body.id}`)).set(auth);
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(created.body);
    });
  }

  describe('the start-up check of the mapping', () => {
    it('names the service-owned kinds without a mapping', () => {
      expect(checkKinds(loadSchemaRegistry(dir).collections)).to.deep.equal(['notes', 'labels']);
      expect(checkKinds(loadSchemaRegistry().collections)).to.deep.equal([]);
    });

    it('logs one line at start-up naming them', async () => {
      const lines: Array<{ msg: string; kinds?: string[] }> = [];
      const sink = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
      const runtime = await openRuntime(loadConfig({ MONGODB_URI: testDatabase().uri, JWT_SECRET }), pino({ level: 'info' }, sink), loadSchemaRegistry(dir));
      await runtime.close();
      const unmapped = lines.filter(({ msg }) => msg.includes('no OpenAPI mapping'));
      expect(unmapped).to.have.length(1);
      expect(unmapped[0]).to.include({ msg: 'service-owned kinds with no OpenAPI mapping, left out of import and export: notes, labels' });
    });

    it('stops at a kind the code names without a descriptor, or a mapped field its schema lacks', async () => {
      const broken = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-kinds-'));
      try {
        await fs.cp(path.join(repoRoot, 'schemas'), broken, { recursive: true });
        await editJson(path.join(broken, 'collections.json'), (descriptors) => {
          descriptors['collections'] = (descriptors['collections'] as Array<{ name: string }>).filter((c) => c.name !== 'examples');
        });
        expect(() => checkKinds(loadSchemaRegistry(broken).collections)).to.throw('schemas/collections.json has no examples collection: the catalog\'s code reads it by name (server/schemas/kind-names.ts)');
        await fs.cp(path.join(repoRoot, 'schemas/collections.json'), path.join(broken, 'collections.json'));
        await editJson(path.join(broken, 'records/path.json'), (schema) => { delete (schema['properties'] as Json)['summary']; });
        expect(() => checkKinds(loadSchemaRegistry(broken).collections)).to.throw('OpenAPI mapping of paths: the Path schema has no summary');
      } finally {
        await fs.rm(broken, { recursive: true, force: true });
      }
    });
  });
});
