// OpenAPI import (a sync) and export, on both route families with both bearer schemes.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { stringify as toYaml, parse as parseYaml } from 'yaml';
import { validate } from '@scalar/openapi-parser';
import { catalogForSuite, startCatalog, bearer, tokenFor, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

type Changes = Record<string, { created: number; updated: number; deleted: number; unchanged: number }>;

const total = (changes: Changes, kind: 'created' | 'updated' | 'deleted' | 'unchanged'): number =>
  Object.values(changes).reduce((sum, counts) => sum + counts[kind], 0);

describe('descriptions: OpenAPI import and export', function () {
  // Whole documents go through validation, upgrade and a sync: seconds on a shared machine.
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  const credentials = () => [
    { scheme: 'API key', auth: bearer(tenant.key), readOnly: bearer(tenant.readOnlyKey) },
    { scheme: 'personal access token', auth: bearer(tokenFor([tenant.project.id])), readOnly: bearer(tokenFor([tenant.project.id], { readOnly: true })) },
  ];

  for (const family of ['byId', 'byAddress'] as const) {
    for (const index of [0, 1]) {
      it(`imports, re-imports unchanged, edits, removes and exports (family ${family}, scheme ${index === 0 ? 'API key' : 'token'})`, async () => {
        const { auth, readOnly } = credentials()[index]!;
        const prefix = tenant.prefixes[family];
        const slug = `pets-${family.toLowerCase()}-${index}`;
        const url = `${prefix}/imports/openapi?service=${slug}`;

        const dry = await service.request.post(`${url}&dryRun=true`).set(auth).send(petstore());
        expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
        expect(dry.body.dryRun).to.equal(true);
        expect(dry.body.records.operations.created).to.equal(4);
        const nothing = await service.request.get(`${prefix}/services?slug=${slug}`).set(auth);
        expect((nothing.body.items ?? []).filter((s: { slug: string }) => s.slug === slug)).to.have.length(0);

        const first = await service.request.post(url).set(auth).send(petstore());
        expect(first.status, JSON.stringify(first.body)).to.equal(201);
        expect(first.body.service.slug).to.equal(slug);
        expect(first.body.records.operations).to.deep.equal({ created: 4, updated: 0, deleted: 0, unchanged: 0 });
        expect(first.body.records.responses.created).to.equal(6);
        expect(first.body.records.requests.created).to.equal(2);
        expect(first.body.warnings).to.deep.equal([]);
        const serviceId = first.body.service.id as string;
        const ops = await service.request.get(`${prefix}/operations?limit=100`).set(auth);
        const getPet = ops.body.items.find((op: Record<string, unknown>) => op['operationId'] === 'getPet' && op['updatedAt']);

        const second = await service.request.post(url).set(auth).send(petstore());
        expect(second.status).to.equal(200);
        expect(total(second.body.records, 'created') + total(second.body.records, 'updated') + total(second.body.records, 'deleted')).to.equal(0);
        const stillSame = await service.request.get(`${prefix}/operations/${getPet.id}`).set(auth);
        expect(stillSame.body.updatedAt, 'an unchanged record is not written').to.equal(getPet.updatedAt);

        const edited = petstore() as { paths: Record<string, Record<string, Record<string, unknown>>> };
        edited.paths['/pets']!['get']!['summary'] = 'List all pets';
        delete edited.paths['/pets/{petId}']!['delete'];
        const third = await service.request.post(url).set(auth).send(edited);
        expect(third.status).to.equal(200);
        expect(third.body.records.operations).to.deep.equal({ created: 0, updated: 1, deleted: 1, unchanged: 2 });
        expect(third.body.records.responses.deleted).to.equal(1);
        expect(third.body.records.servers.deleted).to.equal(1);

        const exported = await service.request.get(`${prefix}/services/${serviceId}/openapi`).set(readOnly);
        expect(exported.status).to.equal(200);
        const document = exported.body;
        expect((await validate(structuredClone(document))).valid).to.equal(true);
        expect(document.openapi).to.match(/^3\.1\./);
        expect(document.paths['/pets'].get.summary).to.equal('List all pets');
        expect(document.paths['/pets/{petId}']).to.not.have.property('delete');
        expect(document.paths['/pets'].get.parameters[0].schema).to.deep.equal({ type: ['integer', 'null'], maximum: 100 });
        expect(document.paths['/pets'].get['x-rate-limited']).to.equal(true);
        expect(document.paths['/pets'].get.responses['200'].headers['X-Next']).to.deep.equal({ $ref: '#/components/headers/Next' });
        // What the description took from components by reference, the export refers to again.
        expect(document.paths['/pets'].get.responses.default).to.deep.equal({ $ref: '#/components/responses/Problem' });
        expect(document.components.responses.Problem.description).to.equal('Something went wrong');
        expect(document.paths['/pets'].get.parameters).to.deep.include({ $ref: '#/components/parameters/Trace' });
        expect(document.paths['/pets'].post.requestBody.content['application/json'].examples.tom).to.deep.equal({ $ref: '#/components/examples/Tom' });
        expect(Object.keys(document.paths['/pets'].post.requestBody.content)).to.deep.equal(['application/json', 'application/x-www-form-urlencoded']);
        expect(document.components.schemas.Pet.allOf[0]).to.deep.equal({ $ref: '#/components/schemas/NewPet' });
        expect(document.components.securitySchemes.apiKey).to.deep.equal({ type: 'apiKey', in: 'header', name: 'X-Api-Key', 'x-issuer': 'pets' });
        expect(document.servers[0].url).to.equal('https://{region}.pets.example/v1');
        expect(document.paths['/pets/{petId}'].servers).to.deep.equal([{ url: 'https://pets-eu.example/v1' }]);
      });
    }
  }

  it('completes an interrupted import when run again, and runs imports of one service one at a time', async () => {
    const url = `${tenant.prefixes.byId}/imports/openapi?service=interrupted`;
    const [a, b] = await Promise.all([
      service.request.post(url).set(bearer(tenant.key)).send(petstore()),
      service.request.post(url).set(bearer(tenant.key)).send(petstore()),
    ]);
    expect([a.status, b.status].sort()).to.deep.equal([200, 201]);
    const second = a.status === 200 ? a : b;
    expect(total(second.body.records, 'created')).to.equal(0);
    // An import cut short: some of its records never written.
    const responses = await service.request.get(`${tenant.prefixes.byId}/responses?limit=100`).set(bearer(tenant.key));
    const operations = await service.request.get(`${tenant.prefixes.byId}/operations?limit=100`).set(bearer(tenant.key));
    const ours = new Set(operations.body.items.filter((op: { kvStorage: Record<string, { service?: string }> }) => op.kvStorage['x-catalog']?.service === second.body.service.id).map((op: { id: string }) => op.id));
    const lost = responses.body.items.filter((r: { operationId: string }) => ours.has(r.operationId)).slice(0, 3);
    for (const response of lost) {
      expect((await service.request.delete(`${tenant.prefixes.byId}/responses/${response.id}`).set(bearer(tenant.key))).status).to.equal(204);
    }
    const again = await service.request.post(url).set(bearer(tenant.key)).send(petstore());
    expect(again.body.records.responses).to.deep.equal({ created: 3, updated: 0, deleted: 0, unchanged: 3 });
  });

  it('reads and writes YAML', async () => {
    // The version holds the Pet Store under other slugs already: beside them on purpose, its slug from its title.
    const res = await service.request.post(`${tenant.prefixes.byAddress}/imports/openapi?beside=true`).set(bearer(tenant.key))
      .set('Content-Type', 'application/yaml').send(toYaml(petstore()));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.service.slug).to.equal('pet-store');
    const out = await service.request.get(`${tenant.prefixes.byAddress}/services/${res.body.service.id}/openapi`)
      .set(bearer(tenant.key)).set('Accept', 'application/yaml').buffer(true).parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => { text += chunk.toString(); });
        r.on('end', () => done(null, text));
      });
    expect(out.status).to.equal(200);
    expect(out.headers['content-type']).to.match(/^application\/yaml/);
    const document = parseYaml(out.body as string);
    expect(Object.keys(document.paths)).to.deep.equal(['/pets', '/pets/{petId}']);
  });

  it('exports a service named by its slug as by its id; an unknown slug is 404, neither form 400', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=by-slug`).set(bearer(tenant.key)).send(petstore());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    for (const prefix of [tenant.prefixes.byId, tenant.prefixes.byAddress]) {
      const byId = await service.request.get(`${prefix}/services/${res.body.service.id}/openapi`).set(bearer(tenant.readOnlyKey));
      const bySlug = await service.request.get(`${prefix}/services/by-slug/openapi`).set(bearer(tenant.readOnlyKey));
      expect(bySlug.status, JSON.stringify(bySlug.body)).to.equal(200);
      expect(bySlug.body).to.deep.equal(byId.body);
      const unknown = await service.request.get(`${prefix}/services/no-such-service/openapi`).set(bearer(tenant.readOnlyKey));
      expect([unknown.status, unknown.body]).to.deep.equal([404, { error: 'Service not found' }]);
      const malformed = await service.request.get(`${prefix}/services/Not_A_Slug/openapi`).set(bearer(tenant.readOnlyKey));
      expect(malformed.status).to.equal(400);
      expect(malformed.body.details.map((detail: { field: string }) => detail.field)).to.deep.equal(['id']);
    }
  });

  it('refuses a document that is not valid OpenAPI with the findings as JSON pointers, writing nothing', async () => {
    const bad = petstore() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    (bad.paths['/pets']!['get']!['responses'] as Record<string, unknown>)['200'] = { descriptio: 'typo' };
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=broken`).set(bearer(tenant.key)).send(bad);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('Invalid request');
    expect(res.body.details[0].field).to.match(/^\/paths\/~1pets\/get\/responses\/200/);
    const services = await service.request.get(`${tenant.prefixes.byId}/services?limit=100`).set(bearer(tenant.key));
    expect(services.body.items.map((s: { slug: string }) => s.slug)).to.not.include('broken');

    const yaml = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key))
      .set('Content-Type', 'application/yaml').send('openapi: [unclosed');
    expect(yaml.status).to.equal(400);
    const text = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key))
      .set('Content-Type', 'text/plain').send('hello');
    expect(text.status).to.equal(415);
  });

  it('refuses a service that is not a slug, writing nothing', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=Not_A_Slug`).set(bearer(tenant.key)).send(petstore());
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ error: 'Invalid request', details: [{ field: 'service', message: 'must be a service slug (lowercase letters, digits and hyphens)' }] });
    const services = await service.request.get(`${tenant.prefixes.byId}/services?limit=100`).set(bearer(tenant.key));
    expect(services.body.items.map((s: { slug: string }) => s.slug)).to.not.include('Not_A_Slug');
  });

  it('needs write access to import and read access to export', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.readOnlyKey)).send(petstore());
    expect(res.status).to.equal(403);
    const none = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).send(petstore());
    expect(none.status).to.equal(401);
    const missing = await service.request.get(`${tenant.prefixes.byId}/services/svc_01M84F1JTPJ82S6K6669243TB0/openapi`).set(bearer(tenant.key));
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('Service not found');
  });

  it('lists what it cannot carry in warnings with its JSON pointer, and keeps the rest', async () => {
    const document = petstore() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const get = document.paths['/pets']!['get']! as { parameters?: Record<string, unknown>[] };
    // The same query parameter twice (OpenAPI forbids it; its schema cannot tell): one Parameter.
    get.parameters = [...(get.parameters ?? []), { name: 'twice', in: 'query', schema: { type: 'string' } }, { name: 'twice', in: 'query', description: 'again', schema: { type: 'string' } }];
    const index = get.parameters.length - 1;
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=with-warnings`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings).to.have.length(1);
    expect(res.body.warnings[0].pointer).to.equal(`/paths/~1pets/get/parameters/${index}`);
    expect(res.body.records.responses.created).to.equal(6);
  });

  it('keeps status code ranges (2XX, 4XX, 5XX) with their operation and exports them where they were', async () => {
    const document = petstore() as { paths: Record<string, Record<string, Record<string, Record<string, unknown>>>> };
    const ranges = {
      '2XX': { description: 'Some success', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
      '5XX': { description: 'Server trouble', headers: { 'Retry-After': { schema: { type: 'integer' } } } },
    };
    Object.assign(document.paths['/pets']!['get']!['responses']!, ranges);
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=with-ranges`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings).to.deep.equal([]);
    expect(res.body.records.responses.created).to.equal(6);
    const out = await service.request.get(`${tenant.prefixes.byId}/services/${res.body.service.id}/openapi`).set(bearer(tenant.key));
    expect(out.status).to.equal(200);
    expect((await validate(structuredClone(out.body))).valid).to.equal(true);
    const responses = out.body.paths['/pets'].get.responses;
    expect(responses['2XX']).to.deep.equal(ranges['2XX']);
    expect(responses['5XX']).to.deep.equal(ranges['5XX']);
    expect(Object.keys(responses)).to.include.members(Object.keys(document.paths['/pets']!['get']!['responses']!));
    const again = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=with-ranges`).set(bearer(tenant.key)).send(document);
    // Importing it again changes nothing: the ranges compare equal with what was kept.
    expect(['created', 'updated', 'deleted'].map((kind) => total(again.body.records, kind as 'created'))).to.deep.equal([0, 0, 0]);
  });

  it('carries server variables without an enum: the record gets the default as its one value, export leaves it out', async () => {
    // As GitHub Enterprise Server's description has them (document and operation level).
    const variables = { hostname: { default: 'HOSTNAME', description: 'Your hostname' }, protocol: { default: 'http', enum: ['http', 'https'] } };
    const document = petstore() as { servers?: unknown[]; paths: Record<string, Record<string, Record<string, unknown>>> };
    document.servers = [{ url: 'https://api.example/' }, { url: '{protocol}://{hostname}/api/v3', variables }];
    document.paths['/pets']!['get']!['servers'] = [{ url: '{protocol}://{hostname}', variables }];
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=enumless-variables`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings).to.deep.equal([]);
    const stored = await service.request.get(`${tenant.prefixes.byId}/servers?limit=1000`).set(bearer(tenant.key));
    const record = (stored.body.items as { url: string; variables: Record<string, unknown> }[]).find((item) => item.url === '{protocol}://{hostname}/api/v3');
    expect(record?.variables).to.deep.equal({ hostname: { default: 'HOSTNAME', enum: ['HOSTNAME'] }, protocol: { default: 'http', enum: ['http', 'https'] } });
    const out = await service.request.get(`${tenant.prefixes.byId}/services/${res.body.service.id}/openapi`).set(bearer(tenant.key));
    expect(out.body.servers).to.deep.equal(document.servers);
    expect(out.body.paths['/pets'].get.servers).to.deep.equal([{ url: '{protocol}://{hostname}', variables }]);
  });

  it('has its own body limit (IMPORT_BODY_LIMIT): 413 above it, with details like the body limit\'s', async () => {
    const small = await startCatalog({ IMPORT_BODY_LIMIT: '1kb' });
    try {
      const message = 'is larger than the 1024 bytes an API description may have (IMPORT_BODY_LIMIT)';
      const res = await small.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key)).send(petstore());
      expect(res.status).to.equal(413);
      expect(res.body).to.deep.equal({ error: 'Invalid request', details: [{ field: 'Content-Length', message }] });
      // Sent in chunks, without a Content-Length: refused when the stream passes the limit.
      const body = new TextEncoder().encode(JSON.stringify(petstore()));
      const listening = small.app.listen(0);
      await once(listening, 'listening');
      const { port } = listening.address() as AddressInfo;
      const chunked = await fetch(`http://127.0.0.1:${port}${tenant.prefixes.byId}/imports/openapi`, {
        method: 'POST', headers: { ...bearer(tenant.key), 'content-type': 'application/json' }, duplex: 'half',
        body: new ReadableStream({ start(controller) { controller.enqueue(body); controller.close(); } }),
      } as RequestInit);
      expect(chunked.status).to.equal(413);
      expect(await chunked.json()).to.deep.equal({ error: 'Invalid request', details: [{ field: 'body', message }] });
      listening.close();
    } finally {
      await small.close();
    }
  });

  it('imports a Swagger 2.0 document, upgraded to 3.1', async () => {
    const swagger = {
      swagger: '2.0', info: { title: 'Old API', version: '1' }, host: 'old.example', basePath: '/v1', schemes: ['https'],
      paths: { '/things': { get: { operationId: 'things', produces: ['application/json'], responses: { 200: { description: 'ok', schema: { $ref: '#/definitions/Thing' } } } } } },
      definitions: { Thing: { type: 'object', properties: { id: { type: 'string' } } } },
    };
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi`).set(bearer(tenant.key)).send(swagger);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const out = await service.request.get(`${tenant.prefixes.byId}/services/${res.body.service.id}/openapi`).set(bearer(tenant.key));
    expect(out.body.paths['/things'].get.responses['200'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Thing' });
    expect(out.body.servers[0].url).to.equal('https://old.example/v1');
  });
});
