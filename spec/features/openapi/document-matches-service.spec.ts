// The document says what the service does: request schemas are what the service enforces (a body
// the document calls valid is accepted, one it refuses is refused), examples are sent and
// accepted, and the outcomes it lists are the ones the service answers.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { serviceDocument } from '../../../server/openapi/inventory.ts';
import { declaredRooms } from '../../../server/rooms.ts';
import { loadSchemaRegistry } from '../../../server/schemas/registry.ts';
import { expectError } from '../../support/expect.ts';
import { Client, collectionNamed, newIdOf, sampleOf } from '../../support/records.ts';
import { catalogForSuite, bearer, type Tenant, type TestCatalog } from '../../support/catalog.ts';

type Json = Record<string, unknown>;
type Operation = Json & { operationId: string; requestBody?: { content: Record<string, { schema: Json; example?: unknown }> }; responses: Record<string, Json> };
type Document = Json & { paths: Record<string, Record<string, Operation>> };

const V = '/v2/catalog/versions/{versionId}';

const minimalOf = (openapi: string) => ({ openapi, info: { title: 'Tiny', version: '1' }, paths: {} });

describe('The document says what the service does', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;
  let document: Document;
  let ajv: Ajv2020;

  catalogForSuite((made) => ({ service, tenant } = made));
  before(async () => {
    client = new Client(service, tenant);
    document = (await service.request.get('/v2/openapi.json')).body as Document;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, 'https://catalog.test/openapi.json');
  });

  const operation = (path: string, method: string): Operation => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found;
  };
  /** The JSON body schema of an operation, compiled against the document's components. */
  const bodySchema = (path: string, method: string, mediaType = 'application/json'): ValidateFunction => {
    const pointer = ['paths', path, method, 'requestBody', 'content', mediaType, 'schema'].map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    operation(path, method);
    return ajv.compile({ $ref: `https://catalog.test/openapi.json#/${pointer}` });
  };
  const exampleOf = (path: string, method: string): Json => operation(path, method).requestBody!.content['application/json']!.example as Json;

  describe('create, replace and update bodies are what the service enforces', () => {
    it('create: a body without versionId or id is valid; one naming another version is not', () => {
      const create = bodySchema(`${V}/paths`, 'post');
      const sample = sampleOf(collectionNamed('paths'));
      const { versionId: _omitted, ...withoutVersion } = sample;
      expect(create(withoutVersion), JSON.stringify(create.errors)).to.equal(true);
      expect(create({ ...withoutVersion, versionId: newIdOf('ver_') })).to.equal(false);
      expect(create({ ...withoutVersion, updatedAt: 'whenever' }), 'updatedAt is ignored, whatever it is').to.equal(true);
      expect(create({ ...withoutVersion, id: newIdOf('path_') }), 'a chosen id').to.equal(true);
    });

    it('replace: a body naming another id or version is not valid', () => {
      const replace = bodySchema(`${V}/paths/{id}`, 'post');
      const { versionId: _omitted, ...body } = sampleOf(collectionNamed('paths'));
      expect(replace(body), JSON.stringify(replace.errors)).to.equal(true);
      expect(replace({ ...body, id: newIdOf('path_') })).to.equal(false);
      expect(replace({ ...body, versionId: newIdOf('ver_') })).to.equal(false);
    });

    it('update: any subset of fields but id and versionId', () => {
      const update = bodySchema(`${V}/paths/{id}`, 'patch');
      expect(update({ summary: 'x' })).to.equal(true);
      expect(update({})).to.equal(true);
      expect(update({ versionId: newIdOf('ver_') })).to.equal(false);
      expect(update({ id: newIdOf('path_') })).to.equal(false);
      expect(update({ nothing: 1 })).to.equal(false);
    });

    it('the service refuses what the schemas refuse and accepts what they accept', async () => {
      const { versionId: _omitted, ...body } = sampleOf(collectionNamed('paths'));
      expect((await client.create('paths', { ...body, versionId: newIdOf('ver_') })).status).to.equal(400);
      const created = await client.create('paths', body);
      expect(created.status).to.equal(201);
      expect((await client.replace('paths', created.body.id, { ...body, id: newIdOf('path_') })).status).to.equal(400);
      expect((await client.update('paths', created.body.id, { versionId: newIdOf('ver_') })).status).to.equal(400);
    });

    it('every collection\'s examples are valid by their schemas and accepted by the service when sent, in order', async () => {
      for (const collection of service.runtime.schemas.collections) {
        const list = `${V}/${collection.name}`;
        const item = `${list}/{id}`;
        const create = exampleOf(list, 'post');
        expect(bodySchema(list, 'post')(create), `${collection.name} create example`).to.equal(true);
        const created = await client.create(collection.name, create);
        expect(created.status, `${collection.name} create example: ${created.text}`).to.equal(201);
        const replace = exampleOf(item, 'post');
        expect(bodySchema(item, 'post')(replace), `${collection.name} replace example`).to.equal(true);
        const replaced = await client.replace(collection.name, created.body.id, replace);
        expect(replaced.status, `${collection.name} replace example: ${replaced.text}`).to.equal(200);
        const patch = exampleOf(item, 'patch');
        expect(bodySchema(item, 'patch')(patch), `${collection.name} update example`).to.equal(true);
        const updated = await client.update(collection.name, created.body.id, patch);
        expect(updated.status, `${collection.name} update example: ${updated.text}`).to.equal(200);
      }
    });
  });

  it('every request example in the document is valid by its schema', () => {
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(item)) {
        for (const [mediaType, media] of Object.entries(found.requestBody?.content ?? {})) {
          if (media.example === undefined) continue;
          const valid = bodySchema(path, method, mediaType);
          expect(valid(media.example), `${method} ${path} ${mediaType}: ${JSON.stringify(valid.errors)}`).to.equal(true);
          checked += 1;
        }
      }
    }
    expect(checked).to.be.greaterThan(60);
  });

  describe('list', () => {
    it('documents the 400 of a cursor whose item is gone under a sort other than id', async () => {
      const list = operation(`${V}/paths`, 'get');
      const cursor = (list['parameters'] as { name: string; description: string }[]).find((parameter) => parameter.name === 'cursor')!;
      expect(cursor.description).to.match(/gone|no longer exists|does not exist/);
      expect(cursor.description).to.include('400');
      const res = await client.list('paths', `?sort=path&cursor=${newIdOf('path_')}`);
      expect(res.status).to.equal(400);
      expect(res.body.details[0].field).to.equal('cursor');
    });
  });

  describe('query parameters', () => {
    const parameterSchema = (path: string, name: string): ValidateFunction => {
      const parameters = operation(path, 'get')['parameters'] as { name: string }[];
      const index = parameters.findIndex((parameter) => parameter.name === name);
      return ajv.compile({ $ref: `https://catalog.test/openapi.json#/paths/${path.replaceAll('/', '~1')}/get/parameters/${index}/schema` });
    };

    it('sort: sortable fields, comma-separated or the parameter repeated (an array, form style), as the service takes them', async () => {
      const sort = parameterSchema(`${V}/paths`, 'sort');
      for (const [value, status] of [['path,-id', 200], ['-updatedAt', 200], ['nothing', 400], ['path,', 400], ['kvStorage', 400]] as const) {
        expect(sort([value]), value).to.equal(status === 200);
        expect((await client.list('paths', `?sort=${encodeURIComponent(value)}`)).status, value).to.equal(status);
      }
      expect(sort(['path', '-updatedAt'])).to.equal(true);
      expect((await client.list('paths', '?sort=path&sort=-updatedAt')).status).to.equal(200);
    });

    it('search q: at least one letter or digit, as the service takes it', async () => {
      const q = parameterSchema(`${V}/search`, 'q');
      for (const [value, status] of [['pets', 200], ['é', 200], ['\u0015', 400], [' - ', 400]] as const) {
        expect(q(value), value).to.equal(status === 200);
        expect((await service.request.get(`${tenant.prefixes.byId}/search?q=${encodeURIComponent(value)}`).set(bearer(tenant.key))).status, value).to.equal(status);
      }
    });
  });

  describe('POST …/imports/openapi', () => {
    it('documents an OpenAPI or Swagger document, which {} is not', async () => {
      const schema = bodySchema(`${V}/imports/openapi`, 'post');
      expect(schema({})).to.equal(false);
      const minimal = { openapi: '3.1.0', info: { title: 'Tiny', version: '1' }, paths: {} };
      const example = exampleOf(`${V}/imports/openapi`, 'post');
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?dryRun=true`).set(bearer(tenant.key)).send(example);
      expect(imported.status, `the document's example (a dry run: 200): ${imported.text}`).to.equal(200);
      expect(schema(minimal), JSON.stringify(schema.errors)).to.equal(true);
      expect(schema({ swagger: '2.0', info: { title: 'Tiny', version: '1' }, paths: {} })).to.equal(true);
      // Found by the conformance run: the validator wants tag objects.
      expect(schema({ swagger: '2.0', info: { title: 'Tiny', version: '1' }, paths: {}, tags: [null, null] })).to.equal(false);
      const dressed = { ...minimalOf('3.1.0'), tags: [{ name: 'pets' }], servers: [{ url: '/v1' }], security: [{ key: [] }] };
      expect(schema(dressed)).to.equal(true);
      expect((await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=dressed&dryRun=true`).set(bearer(tenant.key)).send(dressed)).status).to.equal(200);
      const refused = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=tiny`).set(bearer(tenant.key)).send({});
      expect(refused.status).to.equal(400);
      const accepted = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=tiny`).set(bearer(tenant.key)).send(minimal);
      expect(accepted.status, accepted.text).to.equal(201);
    });
  });

  describe('POST …/imports/openapi: a defect the conformance run found', () => {
    it('refuses an info.version that is not a string, as the document says (the validator lets it by)', async () => {
      for (const document of [{ swagger: '2.0', info: { title: 'Odd', version: {} }, paths: {} }, { openapi: '3.1.0', info: { title: 'Odd', version: 5 }, paths: {} }]) {
        expect(bodySchema(`${V}/imports/openapi`, 'post')(document)).to.equal(false);
        const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?dryRun=true`).set(bearer(tenant.key)).send(document);
        expect(res.status, res.text).to.equal(400);
        expect(res.body.details).to.deep.include({ field: '/info/version', message: 'must be string' });
      }
    });
  });

  describe('POST /mcp', () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } };
    const ACCEPT = 'application/json, text/event-stream';

    it('documents 406 without Accept: application/json, text/event-stream, and answers it', async () => {
      const mcp = operation('/mcp', 'post');
      expect(mcp.responses).to.have.property('406');
      expect(String(mcp['description'])).to.include('text/event-stream');
      const res = await service.request.post('/mcp').set(bearer(tenant.key)).set('Accept', 'application/json').send(initialize);
      expect(res.status).to.equal(406);
    });

    it('documents its 400 as a JSON-RPC error, which it is', async () => {
      const mcp = operation('/mcp', 'post');
      const answer = (mcp.responses['400']!['content'] as Record<string, { schema: Json }>)['application/json']!.schema;
      const res = await service.request.post('/mcp').set(bearer(tenant.key)).set('Accept', ACCEPT).send({ jsonrpc: '2.0', method: 'nothing', params: 'x' });
      expect(res.status).to.equal(400);
      expect(ajv.compile({ $ref: `https://catalog.test/openapi.json#/paths/~1mcp/post/responses/400/content/application~1json/schema` })(res.body), JSON.stringify(res.body)).to.equal(true);
      expect(JSON.stringify(answer)).to.include('jsonrpc');
    });

    it('documents a batch answer as an array, which it is', async () => {
      const res = await service.request.post('/mcp').set(bearer(tenant.key)).set('Accept', ACCEPT).send([initialize]);
      const ok = ajv.compile({ $ref: `https://catalog.test/openapi.json#/paths/~1mcp/post/responses/${res.status}/content/application~1json/schema` });
      expect(ok(res.body), `${res.status} ${JSON.stringify(res.body)}`).to.equal(true);
    });
  });

  describe('public routes answer other methods as catalog routes do: 405 with Allow', () => {
    for (const [method, path] of [['put', '/v2/openapi.json'], ['delete', '/metrics'], ['post', '/healthz'], ['delete', '/docs']] as const) {
      it(`${method.toUpperCase()} ${path}`, async () => {
        const res = await service.request[method](path);
        expectError(res, 405, 'Method not allowed');
        expect(res.headers['allow']).to.equal('GET, HEAD');
      });
    }
  });
});

describe('Request bodies grow with the record schemas', () => {
  it('a field added to schemas/records/path.json is in the create, replace and update bodies, with no code change', async () => {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'catalog-bodies-'));
    try {
      await fs.promises.cp(path.join(repoRoot, 'schemas'), dir, { recursive: true });
      const file = path.join(dir, 'records', 'path.json');
      const schema = JSON.parse(await fs.promises.readFile(file, 'utf8')) as { properties: Json; required: string[] };
      schema.properties['color'] = { type: 'string', description: 'A colour.' };
      schema.required.push('color');
      await fs.promises.writeFile(file, JSON.stringify(schema));
      const schemas = (serviceDocument(loadSchemaRegistry(dir), declaredRooms(loadSchemaRegistry(dir))) as unknown as { components: { schemas: Record<string, { properties: Json; required?: string[] }> } }).components.schemas;
      for (const body of ['PathCreate', 'PathReplace', 'PathUpdate']) {
        expect(schemas[body]!.properties['color'], body).to.deep.equal({ $ref: '#/components/schemas/Path/properties/color' });
      }
      expect(schemas['PathCreate']!.required).to.include('color');
      expect(schemas['PathUpdate']!.required).to.equal(undefined);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  });
});
