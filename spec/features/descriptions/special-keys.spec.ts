// Keys JavaScript treats specially (`__proto__`, `constructor`, `prototype`) are data like any
// other: a schema, security scheme or example so named, and such keys inside extensions and
// schemas, survive import and export, and a record's kvStorage keeps them through export (a
// `__proto__` once vanished silently, leaving a dangling `$ref`). The documents are written as
// text: in an object literal, `__proto__` would set the prototype instead of making a key.
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { bearer, catalogForSuite, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const DOCUMENT = `{
  "openapi": "3.1.0",
  "info": { "title": "Special keys", "version": "1", "x-meta": { "__proto__": { "a": 1 }, "constructor": "c", "prototype": { "p": true } } },
  "security": [{ "__proto__": [] }],
  "paths": {
    "/things": {
      "get": {
        "operationId": "listThings",
        "x-flags": { "__proto__": "kept" },
        "responses": {
          "200": {
            "description": "ok",
            "content": { "application/json": {
              "schema": { "$ref": "#/components/schemas/__proto__" },
              "examples": { "__proto__": { "$ref": "#/components/examples/__proto__" } }
            } }
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "__proto__": { "type": "object", "properties": { "__proto__": { "type": "string" }, "constructor": { "$ref": "#/components/schemas/constructor" } } },
      "constructor": { "type": "string", "x-keys": { "__proto__": null } }
    },
    "securitySchemes": { "__proto__": { "type": "apiKey", "in": "header", "name": "X-Key" } },
    "examples": { "__proto__": { "value": { "__proto__": 1, "prototype": 2 } } },
    "callbacks": { "__proto__": { "{$url}": { "post": { "responses": { "200": { "description": "ok" } } } } } }
  }
}`;

describe('descriptions: keys JavaScript treats specially are data', function () {
  this.timeout(60_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  const exported = async (slug: string): Promise<unknown> => {
    const res = await service.request.get(`${tenant.prefixes.byId}/services/${slug}/openapi`).set(bearer(tenant.key));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    return JSON.parse(res.text) as unknown;
  };

  it('imports __proto__, constructor and prototype wherever a document has them, and exports the document as it was', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=special`).set(bearer(tenant.key))
      .set('Content-Type', 'application/json').send(DOCUMENT);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
    expect(res.body.warnings ?? []).to.deep.equal([]);
    // Exported as imported, the example named by its reference too (the export shares a part equal to a component).
    const expected = JSON.parse(DOCUMENT);
    const document = await exported('special');
    expect(document, JSON.stringify(document)).to.deep.equal(expected);
    const yaml = await service.request.get(`${tenant.prefixes.byId}/services/special/openapi`).set(bearer(tenant.key)).set('Accept', 'application/yaml').buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk; });
      res.on('end', () => done(null, text));
    });
    expect(parseYaml(yaml.body as string)).to.deep.equal(expected);
    const integrity = await service.request.get(`${tenant.prefixes.byId}/integrity`).set(bearer(tenant.key));
    expect(JSON.stringify(integrity.body)).to.not.include('__proto__');
    const again = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=special`).set(bearer(tenant.key))
      .set('Content-Type', 'application/json').send(DOCUMENT);
    expect(again.status).to.equal(200);
    expect(again.body.records.resources).to.deep.include({ unchanged: 2, created: 0 });
  });

  it('refuses a Swagger 2.0 description whose __proto__ key the upgrade would lose, naming its keys so named', async () => {
    const swagger = '{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "paths": {}, "securityDefinitions": {"__proto__": {"type": "apiKey", "in": "header", "name": "k"}}}';
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=old&dryRun=true`).set(bearer(tenant.key))
      .set('Content-Type', 'application/json').send(swagger);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.details).to.deep.equal([{ field: '/securityDefinitions/__proto__', message: 'is a key named __proto__, which the upgrade to OpenAPI 3.1 would lose: import the description as OpenAPI 3.1, or rename the key' }]);
  });

  it('exports a __proto__ key of a record\'s kvStorage written over the record interface', async () => {
    const res = await service.request.post(`${tenant.prefixes.byId}/services`).set(bearer(tenant.key)).set('Content-Type', 'application/json')
      .send('{"slug": "kv", "name": "KV", "organizationId": "org", "kvStorage": {"__proto__": {"k": 1}, "x-a": {"__proto__": 2}}}');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const stored = await service.request.get(`${tenant.prefixes.byId}/services/${res.body.id}`).set(bearer(tenant.key));
    expect(JSON.parse(stored.text).kvStorage).to.deep.equal(JSON.parse('{"__proto__": {"k": 1}, "x-a": {"__proto__": 2}}'));
    const document = await exported('kv') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(document, '__proto__')?.value).to.deep.equal({ k: 1 });
    expect(document['x-a']).to.deep.equal(JSON.parse('{"__proto__": 2}'));
  });
});
