// The interface of every collection, route by route: the route table (both families, every
// collection of the catalog, six operations) crossed with each documented outcome. A new
// collection in schemas/collections.json is walked by every table-driven block automatically.
import { expect } from 'chai';
import type { Response } from 'supertest';
import { expectError, expectInvalid } from '../../support/expect.ts';
import {
  Client, ISO_UTC_MS, ULID, VIAS, call, schemas, fieldSchema, listQueryFor, minimalOf, newIdOf, optionalTextField,
  otherKindId, referenceField, routeCases, sampleOf, urlOf, type Fields, type RouteCase,
} from '../../support/records.ts';
import { notFoundOf } from '../../support/contract.ts';
import { catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { ACTIONS } from '../../../server/records/table.ts';
import { FAMILIES } from '../../../server/routes/route.ts';
import type { CompiledCollection } from '../../../server/schemas/registry.ts';

const ALL = routeCases();
const only = (...names: string[]): RouteCase[] => ALL.filter((rc) => names.includes(rc.route.action.name));
const WRITES = ALL.filter((rc) => rc.route.action.access === 'write');
const READS = ALL.filter((rc) => rc.route.action.access === 'read');
const WITH_BODY = ALL.filter((rc) => rc.route.action.body);
const ITEM = ALL.filter((rc) => rc.route.action.item);

/** The contract's defaults (decisions.md, Operations); other collections: their schema's. */
const DEFAULTS: Record<string, Fields> = { paths: { kvStorage: {} }, requests: { kvStorage: {}, headers: {}, examples: {} } };

const defaultsOf = (collection: CompiledCollection): Fields => DEFAULTS[collection.name] ?? { ...collection.defaults };

/** A 400 with `details` entries of exactly `{field, message}`, one of them at `field`. */
function expectInvalidAt(res: Response, field: string): void {
  expectInvalid(res, field);
  for (const detail of res.body.details as object[]) {
    expect(Object.keys(detail).sort(), JSON.stringify(detail)).to.deep.equal(['field', 'message']);
    expect(Object.values(detail).every((value) => typeof value === 'string')).to.equal(true);
  }
}

describe('collections: the route matrix', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;
  /** One record per collection that the error tests address (they must leave it unchanged). */
  const fixtures = new Map<string, Fields & { id: string }>();

  catalogForSuite((made) => {
    ({ service, tenant } = made);
    client = new Client(service, tenant);
  });
  before(async () => {
    for (const collection of schemas.collections) fixtures.set(collection.name, await client.given(collection.name));
  });

  const fixture = (rc: RouteCase): Fields & { id: string } => fixtures.get(rc.route.collection.name)!;

  /** A valid body for the route's operation (create/replace: a sample; update: one text field). */
  function validBody(rc: RouteCase): Fields | undefined {
    const { collection, action: operation } = rc.route;
    if (operation.name === 'update') return { [optionalTextField(collection)]: 'patched' };
    return operation.body ? sampleOf(collection) : undefined;
  }

  /** Calls the route; the item is the collection's fixture and the body a valid one unless given. */
  async function send(rc: RouteCase, options: { id?: string; body?: unknown; key?: string | null; text?: string; contentType?: string } = {}): Promise<Response> {
    const { key = tenant.key, id = fixture(rc).id, body = validBody(rc), ...rest } = options;
    return await call(service, rc.route.action.method, urlOf(rc, tenant, id), { key, body, ...rest });
  }

  /** The fixture is as it was (an error left nothing behind). */
  async function expectFixtureUnchanged(rc: RouteCase): Promise<void> {
    const res = await client.get(rc.route.collection.name, fixture(rc).id);
    expect(res.body, 'the record changed').to.deep.equal(fixture(rc));
  }

  describe('the route table', () => {
    it('walks every collection of the running catalog, through both families and all six operations', () => {
      expect(service.runtime.schemas.collections.map((c) => c.name)).to.deep.equal(schemas.collections.map((c) => c.name));
      const expected = schemas.collections.flatMap((collection) => FAMILIES.flatMap((family) => ACTIONS.map((operation) =>
        `${family.name} ${collection.name} ${operation.name}`)));
      const walked = new Set(ALL.map((rc) => `${rc.route.family.name} ${rc.route.collection.name} ${rc.route.action.name}`));
      expect([...walked].sort()).to.deep.equal(expected.sort());
      expect(ALL.filter((rc) => rc.route.family.name === 'P').map((rc) => rc.via)).to.include.members(['P/slug', 'P/id']);
    });

    it('has a valid sample body for every collection', () => {
      for (const collection of schemas.collections) {
        expect(collection.checkRecord({ ...sampleOf(collection), versionId: tenant.version.id }), collection.name).to.deep.equal([]);
        expect(collection.checkRecord({ ...minimalOf(collection), versionId: tenant.version.id }), collection.name).to.deep.equal([]);
      }
    });
  });

  describe('success: each operation answers with its status and the record', () => {
    for (const rc of ALL) {
      const { collection, action: operation } = rc.route;
      it(rc.title, async () => {
        const given = await client.given(collection.name);
        switch (operation.name) {
          case 'list': {
            const query = listQueryFor(collection, given);
            const res = await call(service, 'GET', urlOf(rc, tenant) + query, { key: tenant.key });
            expect(res.status).to.equal(200);
            if (query.includes('limit=1')) {
              // No filter picks it out: the newest record, one per page.
              expect(res.body.items).to.deep.equal([given]);
              expect(res.body.pagination).to.include({ limit: 1 });
            } else {
              expect(res.body).to.deep.equal({ items: [given], pagination: { nextCursor: null, hasMore: false, limit: 50 } });
            }
            break;
          }
          case 'create': {
            const body = sampleOf(collection);
            const res = await send(rc, { body });
            expect(res.status, res.text).to.equal(201);
            expect(res.headers['content-type']).to.match(/^application\/json/);
            expect(res.body).to.deep.include({ ...body, versionId: tenant.version.id });
            expect((await client.get(collection.name, res.body.id)).body).to.deep.equal(res.body);
            break;
          }
          case 'get': {
            const res = await send(rc, { id: given.id });
            expect(res.status).to.equal(200);
            expect(res.body).to.deep.equal(given);
            break;
          }
          case 'replace': {
            const body = sampleOf(collection);
            const replaced = await send(rc, { id: given.id, body });
            expect(replaced.status, replaced.text).to.equal(200);
            expect(replaced.body).to.deep.include({ ...body, id: given.id, versionId: tenant.version.id });
            const id = newIdOf(collection.idPrefix);
            const other = sampleOf(collection); // another natural key: the first body's is taken now
            const created = await send(rc, { id, body: other });
            expect(created.status, created.text).to.equal(201);
            expect(created.body).to.deep.include({ ...other, id });
            expect((await client.get(collection.name, id)).body).to.deep.equal(created.body);
            break;
          }
          case 'update': {
            const res = await send(rc, { id: given.id });
            expect(res.status, res.text).to.equal(200);
            expect(res.body).to.deep.include({ ...given, ...validBody(rc), updatedAt: res.body.updatedAt });
            break;
          }
          case 'delete': {
            const res = await send(rc, { id: given.id });
            expect(res.status).to.equal(204);
            expect(res.text).to.equal('');
            expect(res.headers).to.not.have.property('content-type');
            expectError(await client.get(collection.name, given.id), 404, notFoundOf(collection));
            expectError(await send(rc, { id: given.id }), 404, notFoundOf(collection));
            break;
          }
        }
      });
    }
  });

  describe('401 Unauthorized without a valid credential, with WWW-Authenticate: Bearer', () => {
    for (const rc of ALL) {
      it(rc.title, async () => {
        const responses = await Promise.all([
          send(rc, { key: null }),
          send(rc, { key: 'catk_not-a-key' }),
          call(service, rc.route.action.method, urlOf(rc, tenant, fixture(rc).id), { key: null, body: validBody(rc) })
            .set('Authorization', `Basic ${Buffer.from('user:pass').toString('base64')}`),
        ]);
        for (const res of responses) {
          expectError(res, 401, 'Unauthorized');
          expect(res.body).to.not.have.property('details');
          expect(res.headers['www-authenticate']).to.equal('Bearer');
        }
      });
    }
  });

  describe('403 Forbidden for a read-only key on every write', () => {
    for (const rc of WRITES) {
      it(rc.title, async () => {
        expectError(await send(rc, { key: tenant.readOnlyKey }), 403, 'Forbidden');
        await expectFixtureUnchanged(rc);
      });
    }
  });

  describe('a read-only key may read', () => {
    for (const rc of READS) {
      it(rc.title, async () => {
        expect((await send(rc, { key: tenant.readOnlyKey })).status).to.equal(200);
      });
    }
  });

  describe('404 "<Kind> not found" for an id that is not in the version', () => {
    for (const rc of only('get', 'update', 'delete')) {
      it(rc.title, async () => {
        const res = await send(rc, { id: newIdOf(rc.route.collection.idPrefix) });
        expectError(res, 404, notFoundOf(rc.route.collection));
        expect(res.body).to.deep.equal({ error: notFoundOf(rc.route.collection) });
      });
    }
  });

  describe('400 for a malformed item id in the route (never 404)', () => {
    for (const rc of ITEM) {
      it(rc.title, async () => {
        const { idPrefix } = rc.route.collection;
        const bad = [
          otherKindId(rc.route.collection), // a well-formed id of the other collection's kind
          `${idPrefix}short`,
          newIdOf(idPrefix).slice(0, -1),
          `${newIdOf(idPrefix)}0`,
          `${idPrefix}${'-'.repeat(26)}`,
          newIdOf(idPrefix.toUpperCase()),
        ];
        for (const res of await Promise.all(bad.map((id) => send(rc, { id })))) expectInvalidAt(res, 'id');
      });
    }
  });

  describe('400 for a query parameter on an operation that takes none', () => {
    for (const rc of ALL.filter((rc) => rc.route.action.name !== 'list')) {
      it(rc.title, async () => {
        const url = `${urlOf(rc, tenant, fixture(rc).id)}?limit=5`;
        expectInvalidAt(await call(service, rc.route.action.method, url, { key: tenant.key, body: validBody(rc) }), 'limit');
      });
    }
  });

  describe('how a route names its version: 400 when malformed, 403 when it names nothing the key can reach', () => {
    for (const rc of ALL) {
      it(rc.title, async () => {
        const { collection, action: operation } = rc.route;
        const path = `/${collection.name}${operation.item ? `/${fixture(rc).id}` : ''}`;
        const { project, version } = tenant;
        const attempt = (prefix: string): Promise<Response> =>
          call(service, operation.method, `${prefix}${path}`, { key: tenant.key, body: validBody(rc) }).then((res) => res);
        const ref = rc.via === 'P/id' ? project.id : project.slug;
        const cases: [string, string | 403][] = rc.via === 'V'
          ? [
            ['/v2/catalog/versions/ver_short', 'versionId'],
            [`/v2/catalog/versions/${newIdOf('proj_')}`, 'versionId'],
            [`/v2/catalog/versions/${newIdOf('ver_')}`, 403],
          ]
          : [
            [`/v2/catalog/projects/${ref}/tag/${version.slug}`, 'versionType'],
            [`/v2/catalog/projects/${ref}/${version.type}/no-such-slug`, 403],
            [`/v2/catalog/projects/${ref}/environment/${version.slug}`, 403],
            [`/v2/catalog/projects/${rc.via === 'P/id' ? newIdOf('proj_') : 'no-such-project'}/${version.type}/${version.slug}`, 403],
          ];
        await Promise.all(cases.map(async ([prefix, outcome]) => {
          const res = await attempt(prefix);
          if (outcome === 403) expectError(res, 403, 'Forbidden');
          else expectInvalidAt(res, outcome);
        }));
      });
    }
  });

  describe('400 for a body that is not a JSON object', () => {
    for (const rc of WITH_BODY) {
      it(rc.title, async () => {
        const texts = ['[]', `[${JSON.stringify(sampleOf(rc.route.collection))}]`, '"text"', '42', 'null', 'true'];
        for (const res of await Promise.all(texts.map((text) => send(rc, { text })))) {
          expectInvalidAt(res, '/');
          expect(res.body.details).to.deep.equal([{ field: '/', message: 'must be a JSON object' }]);
        }
        await expectFixtureUnchanged(rc);
      });
    }
  });

  describe('400 for a body that breaks the schema, with details pointing at the field', () => {
    /** [what to change in a valid body, the JSON pointer the details must name]. */
    function violations(collection: CompiledCollection): [string, (body: Fields) => void, string][] {
      const reference = referenceField(collection);
      const text = optionalTextField(collection);
      const references: [string, (body: Fields) => void, string][] = reference === undefined ? [] : [
        [`no ${reference}`, (body) => delete body[reference], `/${reference}`],
        [`malformed ${reference}`, (body) => { body[reference] = `${String(body[reference]).slice(0, 5)}!`; }, `/${reference}`],
        [`${reference} of another kind`, (body) => { body[reference] = newIdOf('ver_'); }, `/${reference}`],
      ];
      const common: [string, (body: Fields) => void, string][] = [
        ...references,
        [`${text} not a string`, (body) => { body[text] = 42; }, `/${text}`],
        ['kvStorage a string', (body) => { body['kvStorage'] = 'x'; }, '/kvStorage'],
        ['kvStorage an array', (body) => { body['kvStorage'] = [{}]; }, '/kvStorage'],
        ['kvStorage null', (body) => { body['kvStorage'] = null; }, '/kvStorage'],
        ['an unknown top-level field', (body) => { body['color'] = 'red'; }, '/color'],
        ['an unknown field with JSON-pointer characters', (body) => { body['a/b~c'] = 1; }, '/a~1b~0c'],
      ];
      const specific: Record<string, [string, (body: Fields) => void, string][]> = {
        paths: [
          ['a path without a leading /', (body) => { body['path'] = 'pets'; }, '/path'],
          ['a path that is a number', (body) => { body['path'] = 7; }, '/path'],
        ],
        requests: [
          ['contentMediaType a number', (body) => { body['contentMediaType'] = 5; }, '/contentMediaType'],
          ['a header whose `required` is a string', (body) => { body['headers'] = { 'X-A': { required: 'yes' } }; }, '/headers/X-A/required'],
          ['a header name needing pointer escapes', (body) => { body['headers'] = { 'a/b~c': 5 }; }, '/headers/a~1b~0c'],
          ['an example with a numeric externalValue', (body) => { body['examples'] = { e: { externalValue: 1 } }; }, '/examples/e/externalValue'],
          ['rich text whose content is not an array', (body) => { body['descriptionBlocks'] = { content: 'x' }; }, '/descriptionBlocks/content'],
          ['schema an array', (body) => { body['schema'] = [true]; }, '/schema'],
        ],
      };
      return [...common, ...(specific[collection.name] ?? [])];
    }

    for (const rc of only('create', 'replace')) {
      it(rc.title, async () => {
        await Promise.all(violations(rc.route.collection).map(async ([name, change, pointer]) => {
          const body = sampleOf(rc.route.collection);
          change(body);
          const res = await send(rc, { body });
          expect(res.status, `${name}: ${res.text}`).to.equal(400);
          expectInvalidAt(res, pointer);
        }));
        await expectFixtureUnchanged(rc);
      });
    }

    for (const rc of only('create')) {
      it(`${rc.title}: a body id that is null, malformed or of another kind`, async () => {
        await Promise.all([null, 42, 'path_x', otherKindId(rc.route.collection)].map(async (id) => {
          expectInvalidAt(await send(rc, { body: { ...sampleOf(rc.route.collection), id } }), '/id');
        }));
      });
    }
  });

  describe('400 when the body names another version than the route', () => {
    for (const rc of only('create', 'replace', 'update')) {
      it(rc.title, async () => {
        await Promise.all([newIdOf('ver_'), 'ver_x', null].map(async (versionId) => {
          expectInvalidAt(await send(rc, { body: { ...validBody(rc), versionId } }), '/versionId');
        }));
        await expectFixtureUnchanged(rc);
        // The route's own version (family P: the version it resolves to) is accepted.
        const res = await send(rc, { body: { ...validBody(rc), versionId: tenant.version.id } });
        expect(res.status, res.text).to.equal(rc.route.action.name === 'create' ? 201 : 200);
        if (rc.route.action.name !== 'create') fixtures.set(rc.route.collection.name, res.body);
      });
    }
  });

  describe('400 when the body id is not the route id', () => {
    for (const rc of only('replace', 'update')) {
      it(rc.title, async () => {
        await Promise.all([newIdOf(rc.route.collection.idPrefix), otherKindId(rc.route.collection), 'x', null].map(async (id) => {
          expectInvalidAt(await send(rc, { body: { ...validBody(rc), id } }), '/id');
        }));
        await expectFixtureUnchanged(rc);
        const res = await send(rc, { body: { ...validBody(rc), id: fixture(rc).id } });
        expect(res.status, res.text).to.equal(200);
        fixtures.set(rc.route.collection.name, res.body);
      });
    }
  });

  describe('PATCH refuses a change the record cannot take', () => {
    /** Null and a malformed id in the required reference field, where the kind has one. */
    function reference(collection: CompiledCollection): [Fields, string][] {
      const field = referenceField(collection);
      return field === undefined ? [] : [[{ [field]: null }, `/${field}`], [{ [field]: 'svc_' }, `/${field}`]];
    }

    for (const rc of only('update')) {
      it(rc.title, async () => {
        const { collection } = rc.route;
        const cases: [Fields, string][] = [
          [{ color: 'red' }, '/color'],
          [{ [optionalTextField(collection)]: 'ok', color: 'red' }, '/color'],
          ...reference(collection),
          [{ [optionalTextField(collection)]: null }, `/${optionalTextField(collection)}`],
          [{ kvStorage: null }, '/kvStorage'],
          [{ kvStorage: 'x' }, '/kvStorage'],
          [{ id: newIdOf(collection.idPrefix) }, '/id'],
          [{ id: null }, '/id'],
        ];
        await Promise.all(cases.map(async ([body, pointer]) => expectInvalidAt(await send(rc, { body }), pointer)));
        await expectFixtureUnchanged(rc);
      });
    }
  });

  describe('409 Conflict for a create with an id that exists in the version', () => {
    for (const rc of only('create')) {
      it(rc.title, async () => {
        const res = await send(rc, { body: { ...sampleOf(rc.route.collection), id: fixture(rc).id } });
        expectError(res, 409, 'Conflict');
        await expectFixtureUnchanged(rc);
      });
    }
  });

  describe('415 for a body that is not JSON', () => {
    for (const rc of WITH_BODY) {
      it(rc.title, async () => {
        const text = JSON.stringify(validBody(rc));
        await Promise.all(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'].map(async (contentType) => {
          expectError(await send(rc, { text, contentType }), 415, 'Invalid request');
        }));
        await expectFixtureUnchanged(rc);
      });
    }
  });

  describe('defaults are present on every returned record', () => {
    for (const rc of ALL.filter((rc) => rc.route.action.name !== 'delete')) {
      it(rc.title, async () => {
        const { collection, action: operation } = rc.route;
        const minimal = minimalOf(collection);
        const given = operation.name === 'create' ? undefined : await client.given(collection.name, { ...minimal, ...emptied(collection) });
        let records: Fields[];
        if (operation.name === 'list') {
          const res = await call(service, 'GET', urlOf(rc, tenant) + listQueryFor(collection, minimal), { key: tenant.key });
          records = res.body.items;
          expect(records).to.have.length(1);
        } else {
          const body = operation.name === 'update' ? { [optionalTextField(collection)]: 'x' } : minimal;
          const res = await send(rc, { id: given?.id, body: operation.body ? body : undefined });
          expect(res.status, res.text).to.be.oneOf([200, 201]);
          records = [res.body];
        }
        // The field a PATCH sets may be one with a default (a Service's name): it holds the new value.
        const { [operation.name === 'update' ? optionalTextField(collection) : '']: _patched, ...defaults } = defaultsOf(collection);
        for (const record of records) expect(record).to.deep.include(defaults);
      });
    }

    /** The minimal body without the defaulted fields at all (the service fills them). */
    function emptied(collection: CompiledCollection): Fields {
      return Object.fromEntries(Object.keys(defaultsOf(collection)).map((field) => [field, undefined]));
    }
  });

  for (const collection of schemas.collections) {
    const name = collection.name;

    describe(`${name}: updatedAt is assigned by the service`, () => {
      it('is ISO 8601 UTC with milliseconds, set on every write; a submitted value is ignored', async () => {
        const before = Date.now();
        const created = await client.create(name, { ...sampleOf(collection), updatedAt: '1999-01-01T00:00:00.000Z' });
        expect(created.status, created.text).to.equal(201);
        const stamp = (res: Response): number => {
          expect(res.body.updatedAt).to.match(ISO_UTC_MS);
          return Date.parse(res.body.updatedAt);
        };
        expect(stamp(created)).to.be.within(before, Date.now());
        const { id } = created.body;
        for (const updatedAt of [null, 'not a date', 42, '2999-01-01T00:00:00.000Z']) {
          const patched = await client.update(name, id, { updatedAt, [optionalTextField(collection)]: 'again' });
          expect(patched.status, patched.text).to.equal(200);
          expect(stamp(patched)).to.be.within(before, Date.now() + 5);
        }
        const replaced = await client.replace(name, id, { ...sampleOf(collection), updatedAt: '1970-01-01T00:00:00.000Z' });
        expect(stamp(replaced)).to.be.within(stamp(created), Date.now() + 5);
      });

      it('a GET result can be POSTed back unchanged to replace the record', async () => {
        const given = await client.given(name);
        const read = await client.get(name, given.id);
        const res = await client.replace(name, given.id, read.body);
        expect(res.status, res.text).to.equal(200);
        expect({ ...res.body, updatedAt: undefined }).to.deep.equal({ ...read.body, updatedAt: undefined });
        expect(Date.parse(res.body.updatedAt)).to.be.at.least(Date.parse(read.body.updatedAt));
      });
    });

    describe(`${name}: generated ids`, () => {
      it(`are ${collection.idPrefix} + 26 ULID characters, in creation order; a supplied id is used as given`, async () => {
        const first = await client.given(name);
        const second = await client.given(name);
        for (const { id } of [first, second]) {
          expect(id).to.have.length(collection.idPrefix.length + 26);
          expect(id.startsWith(collection.idPrefix)).to.equal(true);
          expect(id.slice(collection.idPrefix.length)).to.match(ULID);
        }
        expect(second.id > first.id).to.equal(true);
        const supplied = `${collection.idPrefix}${'abcdefghijklmnopqrstuvwxyz'}`;
        const res = await client.create(name, { ...sampleOf(collection), id: supplied });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.id).to.equal(supplied);
        expect((await client.get(name, supplied)).body).to.deep.equal(res.body);
      });
    });

    describe(`${name}: both families reach the same records`, () => {
      it('a record written through any family is read, changed and deleted through the others', async () => {
        for (const writer of VIAS) {
          const created = await client.create(name, sampleOf(collection), writer);
          expect(created.status, created.text).to.equal(201);
          const reads = await Promise.all(VIAS.map((reader) => client.get(name, created.body.id, reader)));
          for (const read of reads) expect(read.body).to.deep.equal(created.body);
          const changer = VIAS[(VIAS.indexOf(writer) + 1) % VIAS.length]!;
          const patched = await client.update(name, created.body.id, { [optionalTextField(collection)]: writer }, changer);
          expect(patched.status).to.equal(200);
          for (const read of await Promise.all(VIAS.map((reader) => client.get(name, created.body.id, reader)))) {
            expect(read.body).to.deep.equal(patched.body);
          }
          expect((await client.delete(name, created.body.id, changer)).status).to.equal(204);
          for (const read of await Promise.all(VIAS.map((reader) => client.get(name, created.body.id, reader)))) {
            expectError(read, 404, notFoundOf(collection));
          }
        }
      });

      it('another version of the same project does not see them', async () => {
        const given = await client.given(name);
        const other = await service.runtime.tenancy.versions.create(tenant.project.id, 'environment', `env-${name}`);
        const otherTenant = { ...tenant, version: other };
        const elsewhere = new Client(service, otherTenant);
        for (const via of VIAS) expectError(await elsewhere.get(name, given.id, via), 404, notFoundOf(collection));
        // The same id is free there: create and replace make a second, separate record.
        expect((await elsewhere.create(name, { ...sampleOf(collection), id: given.id })).status).to.equal(201);
        expect((await client.get(name, given.id)).body).to.deep.equal(given);
      });
    });

    describe(`${name}: replace is a full replacement`, () => {
      it('drops the fields not sent and re-applies the defaults', async () => {
        const given = await client.given(name, { kvStorage: { keep: 'no' } });
        const minimal = minimalOf(collection);
        const res = await client.replace(name, given.id, minimal);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          ...minimal, ...defaultsOf(collection), id: given.id, versionId: tenant.version.id, updatedAt: res.body.updatedAt,
        });
        expect((await client.get(name, given.id)).body).to.deep.equal(res.body);
      });
    });

    describe(`${name}: PATCH changes only the supplied fields`, () => {
      it('replaces each supplied field whole and leaves the others', async () => {
        const given = await client.given(name, { kvStorage: { owner: 'a', nested: { keep: 1 } } });
        const text = optionalTextField(collection);
        const patched = await client.update(name, given.id, { [text]: 'changed' });
        expect(patched.body).to.deep.equal({ ...given, [text]: 'changed', updatedAt: patched.body.updatedAt });
        // A whole new value, not a merge: even one whose values equal the old one's under other keys.
        const renamed = await client.update(name, given.id, { kvStorage: { team: 'a', other: { keep: 1 } } });
        expect(renamed.body.kvStorage).to.deep.equal({ team: 'a', other: { keep: 1 } });
        expect((await client.get(name, given.id)).body).to.deep.equal(renamed.body);
        expect((await client.update(name, given.id, { kvStorage: {} })).body.kvStorage).to.deep.equal({});
      });

      it('accepts null where the schema allows it, and an empty PATCH changes nothing but updatedAt', async () => {
        const given = await client.given(name);
        const nullable = [...collection.fields].filter((field) => field !== 'updatedAt' && [fieldSchema(collection, field)['type']].flat().includes('null'));
        for (const field of nullable) {
          const res = await client.update(name, given.id, { [field]: null });
          expect(res.status, res.text).to.equal(200);
          expect(res.body[field]).to.equal(null);
        }
        const now = (await client.get(name, given.id)).body;
        const empty = await client.update(name, given.id, {});
        expect(empty.status).to.equal(200);
        expect({ ...empty.body, updatedAt: undefined }).to.deep.equal({ ...now, updatedAt: undefined });
      });
    });
  }
});
