// Every JSON value the API accepts comes back exactly as sent, through create → GET → list →
// replace → PATCH, and is stored in the documented form (docs/storage-encoding.md). Values are
// compared as JSON text that keeps -0 (JSON.stringify would print it as 0), in the raw response.
import { expect } from 'chai';
import type { Response } from 'supertest';
import type { Document } from 'mongodb';
import { expectError, expectInvalid } from '../../support/expect.ts';
import { testDatabase } from '../../support/database.ts';
import { Client, collectionNamed, exactJson, listQueryFor, sampleOf, type Fields } from '../../support/records.ts';
import { catalogForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';
import { MAX_BODY_DEPTH } from '../../../server/store/record-cost.ts';

/** `{"__proto__": ...}` in an object literal sets the prototype; JSON.parse makes an own key, as the server sees it. */
const json = (text: string): Fields => JSON.parse(text) as Fields;

/** An object nested `levels` deep under `key`: {key: {key: ... leaf}}. */
function nestedObject(levels: number, leaf: unknown = 'bottom'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { k: value };
  return value;
}

function nestedArray(levels: number, leaf: unknown = 'bottom'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

// The deepest bodies the service accepts: the record object is level 0, its field level 1.
const DEEPEST_FIELD_LEVELS = MAX_BODY_DEPTH - 1;

interface Case {
  name: string;
  collection: 'paths' | 'requests';
  /** Top-level fields sent on top of the collection's sample. */
  fields: Fields;
}

const CORPUS: Case[] = [
  {
    name: 'a JSON Schema with $schema, $id, $ref and $defs',
    collection: 'requests',
    fields: {
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:example:pet',
        $ref: '#/$defs/pet',
        $defs: {
          pet: { type: 'object', required: ['name'], properties: { name: { $ref: '#/$defs/name' }, tags: { type: 'array', items: { $ref: 'urn:example:tag#' } } } },
          name: { type: 'string', minLength: 1, $comment: 'a.b $c' },
        },
      },
    },
  },
  {
    name: 'objects whose first keys are $ref then $id (the driver reads those as a DBRef)',
    collection: 'requests',
    fields: {
      schema: { $ref: '#/$defs/a', $id: 'urn:x', $defs: { a: { $ref: 'urn:y', $id: 'urn:z', $db: 'other' } } },
      kvStorage: { link: { $ref: 'pets', $id: 'p1' }, linkWithDb: { $ref: 'pets', $id: 1, $db: 'shop' } },
      examples: { dbref: { value: { $ref: 'pets', $id: 'p1' } } },
      headers: { 'X-Ref': { $ref: '#/components/headers/x' }, 'X-Inline': { schema: { $ref: '#/$defs/h', $id: 'urn:h' } } },
    },
  },
  {
    name: 'the whole schema value is {$ref, $id}',
    collection: 'requests',
    fields: { schema: { $ref: 'urn:only', $id: 'urn:only-id' } },
  },
  {
    name: 'kvStorage keys with $ and . anywhere',
    collection: 'paths',
    fields: {
      kvStorage: {
        $internal: true, 'x-team.owner': 'search', 'a.b.c': { $in: [1, 2], '.': '.', $: '$', '..$..': 'x' },
        'price$': 1, '$$': { '$.': { '.$': null } }, 'x-vendor': { 'nested.key': { $deep: [{ '$in.array': 1 }] } },
      },
    },
  },
  {
    name: 'keys with literal full-width ＄ ． ＼ and wrapper look-alikes',
    collection: 'paths',
    fields: {
      kvStorage: {
        '＄ref': 1, '．': 2, '＼': 3, '＼＼': 4, 'a＼＄．b': 5, '＼0': 6, '＼a': [1], '＼n': '-0', '＼s': '"x"',
        single: { '＼a': [1, [2]] }, negative: { '＼n': '-0' }, nulString: { '＼s': '"a\\u0000b"' }, unknown: { '＼z': 1 },
        mixed: { '$＄': { '.．': { '＼$': true } } },
      },
    },
  },
  {
    name: 'arrays nested several levels deep',
    collection: 'requests',
    fields: {
      kvStorage: { matrix: [[1, 2], [3, [4, [5, [6, []]]]]], empties: [[], [[]], [[[]]]], objects: [[{ a: [[{ b: [[1]] }]] }]] },
      examples: { grid: { value: [[[['deep']]], [], [[]]] } },
      descriptionBlocks: { type: 'doc', attrs: { table: [[1, 2], [3, 4]] }, content: [{ type: 'text', text: 'x', cells: [[['a']]] }] },
    },
  },
  {
    name: 'negative zero everywhere',
    collection: 'requests',
    fields: {
      kvStorage: { z: -0, list: [-0, 0, [-0, [0, -0]]], nested: { n: -0, p: 0 } },
      examples: { zero: { value: -0 }, inArray: { value: [-0] } },
      schema: { const: -0, minimum: -0, enum: [0, -0] },
    },
  },
  {
    name: 'unicode: emoji, RTL, combining marks, astral, BOM, zero-width',
    collection: 'paths',
    fields: {
      path: '/ünïcödé/😀/{ид}',
      summary: 'Résumé 👩‍👩‍👧‍👦 مرحبا بالعالم',
      description: 'e\u0301 n\u0303 \u202Eevil\u202C 𝒳𐍈🀄 \uFEFFbom \u200Bzero-width \u{10FFFF}',
      kvStorage: { '😀': '😀', 'עברית': 'שלום', 'e\u0301': 'combining', '𝒳.$𐍈': '\u{1F600}\u{E0067}', '\uFEFF': '\u200D' },
    },
  },
  {
    name: 'strings with NUL, in values, keys and typed fields',
    collection: 'paths',
    fields: {
      summary: 'before\u0000after',
      description: '\u0000',
      kvStorage: { 'a\u0000b': 'x\u0000y', list: ['\u0000', '\u0000\u0000', 'plain'], '\u0000': { '\u0000$.': '\u0000' } },
    },
  },
  {
    name: 'large and unusual numbers',
    collection: 'paths',
    fields: {
      kvStorage: {
        maxSafe: 9007199254740991, twoTo53: 9007199254740992, minSafe: -9007199254740991, minusTwoTo53: -9007199254740992,
        int32Max: 2147483647, int32Over: 2147483648, int32Min: -2147483648, int32Under: -2147483649,
        tiny: 5e-324, huge: 1.7976931348623157e308, tenth: 0.1, third: 1 / 3, exponent: 1e21, negativeFraction: -0.5,
      },
    },
  },
  {
    name: 'empty objects, arrays, strings and keys',
    collection: 'requests',
    fields: {
      description: '',
      schema: {},
      examples: {},
      headers: {},
      kvStorage: { '': '', o: {}, a: [], nested: { o: {}, a: [[], {}], '': { '': [] } } },
      descriptionBlocks: [],
    },
  },
  {
    name: 'examples of every JSON type',
    collection: 'requests',
    fields: {
      examples: {
        null: { value: null }, false: { value: false }, string: { value: 'str' }, zero: { value: 0 }, array: { value: [null, true, 1.5, 'x', {}, []] },
        none: { summary: 'no value' }, external: { summary: 's', description: 'd', externalValue: 'https://example.com/x.json' },
      },
      contentMediaType: null,
    },
  },
  {
    name: 'rich text with free-form attributes',
    collection: 'requests',
    fields: {
      descriptionBlocks: [
        { type: 'paragraph', attrs: { $ref: 'x', 'data.id': 1 }, content: [{ type: 'text', text: 'Hi', marks: [{ type: 'link', attrs: { href: 'https://x', $id: 'y' } }] }] },
        { type: 'custom', extra: { anything: [[1]] } },
      ],
    },
  },
  {
    name: '__proto__, constructor and prototype keys as data',
    collection: 'paths',
    fields: {
      // Arrays of objects under such keys: the driver used to return those objects as raw BSON.
      kvStorage: json('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "toString": [{"a": 1}], "hasOwnProperty": "x", "valueOf": [[{"b": [2]}]], "nested": {"__proto__": [1, [2], {"c": 3}]}}'),
    },
  },
  {
    name: '_id keys inside free-form fields keep their place',
    collection: 'paths',
    fields: { kvStorage: { a: 1, _id: 'mine', nested: { b: [{ c: 1, _id: 2 }], _id: { _id: null } } } },
  },
  {
    name: 'operator objects in free-form fields are plain data',
    collection: 'requests',
    fields: {
      kvStorage: { $where: 'sleep(1000)', query: { $ne: null }, $set: { summary: 'hacked' }, $unset: { kvStorage: 1 }, $expr: { $gt: ['$a', '$b'] } },
      schema: { $gt: '', properties: { $regex: { $options: 'i' } } },
      examples: { op: { value: { $inc: { n: 1 } } } },
    },
  },
  {
    name: 'objects nested as deep as the body limit allows',
    collection: 'paths',
    fields: { kvStorage: nestedObject(DEEPEST_FIELD_LEVELS - 1, { $leaf: -0 }) as Fields },
  },
  {
    name: 'arrays nested as deep as the body limit allows',
    collection: 'paths',
    fields: { kvStorage: { deep: nestedArray(DEEPEST_FIELD_LEVELS - 2, [-0]) } },
  },
];

describe('JSON round-trips', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  let client: Client;

  catalogForSuite((made) => {
    ({ service, tenant } = made);
    client = new Client(service, tenant);
  });

  /** The stored document of a record, as the database holds it (read as the service reads it, see RecordStore). */
  function storedDocument(collection: string, id: string): Promise<Document | null> {
    const documents = testDatabase().db.collection(collection, { fieldsAsRaw: Object.create(null) as Document });
    return documents.findOne({ versionId: tenant.version.id, id });
  }

  /** The response carries each field exactly: in its raw text, and parsed (JSON.parse keeps -0). */
  function expectExactly(res: Response, fields: Fields, status: number): void {
    expect(res.status, res.text.slice(0, 500)).to.equal(status);
    const record = JSON.parse(res.text) as Fields;
    expectRecordExactly(record, fields);
    for (const [field, value] of Object.entries(fields)) expect(res.text).to.include(`"${field}":${exactJson(value)}`);
  }

  function expectRecordExactly(record: Fields, fields: Fields): void {
    expect(record).to.not.have.own.property('_id');
    for (const [field, value] of Object.entries(fields)) {
      expect(exactJson(record[field]), field).to.equal(exactJson(value));
    }
  }

  describe('create → GET → list → replace → PATCH gives back exactly what was sent', () => {
    for (const { name, collection, fields } of CORPUS) {
      it(`${collection}: ${name}`, async () => {
        const body = { ...sampleOf(collectionNamed(collection)), ...fields };

        const created = await client.create(collection, body);
        expectExactly(created, fields, 201);
        const { id } = created.body as { id: string };

        const read = await client.get(collection, id);
        expectExactly(read, fields, 200);

        const listed = await client.list(collection, listQueryFor(collectionNamed(collection), body));
        expect(listed.status, listed.text.slice(0, 300)).to.equal(200);
        const items = (JSON.parse(listed.text) as { items: Fields[] }).items;
        expect(items.map((item) => item['id'])).to.deep.equal([id]);
        expectRecordExactly(items[0]!, fields);
        for (const [field, value] of Object.entries(fields)) expect(listed.text).to.include(`"${field}":${exactJson(value)}`);

        // The GET result, parsed and sent back unchanged (updatedAt included), replaces the record.
        expectExactly(await client.replace(collection, id, JSON.parse(read.text)), fields, 200);
        expectExactly(await client.update(collection, id, fields), fields, 200);
        expectExactly(await client.get(collection, id), fields, 200);
      });
    }
  });

  describe('the stored document', () => {
    it('uses the documented stored form (docs/storage-encoding.md, "A complete example")', async () => {
      const record = await client.given('paths', {
        kvStorage: { 'x-team.owner': 'search', $internal: true, matrix: [[1, 2], [3, -0]] },
      });
      const stored = await storedDocument('paths', record.id);
      expect(stored!['kvStorage']).to.deep.equal({
        'x-team\uFF0Eowner': 'search', '\uFF04internal': true, matrix: [{ '\uFF3Ca': [1, 2] }, { '\uFF3Ca': [3, { '\uFF3Cn': '-0' }] }],
      });
      const request = await client.given('requests', {
        schema: { $ref: '#/$defs/pet', $id: 'urn:pet', $defs: { pet: { type: 'object' } } },
      });
      expect((await storedDocument('requests', request.id))!['schema']).to.deep.equal({
        '\uFF04ref': '#/$defs/pet', '\uFF04id': 'urn:pet', '\uFF04defs': { pet: { type: 'object' } },
      });
    });

    it('escapes the escape characters, keys with NUL, and strings with NUL', async () => {
      const record = await client.given('paths', { summary: 'a\u0000b', kvStorage: { '＄': 1, '．': 2, '＼': 3, 'a\u0000': ['\u0000'] } });
      const stored = await storedDocument('paths', record.id);
      expect(stored!['summary']).to.deep.equal({ '\uFF3Cs': '"a\\u0000b"' });
      expect(stored!['kvStorage']).to.deep.equal({
        '\uFF3C\uFF04': 1, '\uFF3C\uFF0E': 2, '\uFF3C\uFF3C': 3, 'a\uFF3C0': [{ '\uFF3Cs': '"\\u0000"' }],
      });
      // FerretDB moves `_id` keys first in every object, so a user's `_id` is stored escaped.
      const withId = await client.given('paths', { kvStorage: { a: 1, _id: 2 } });
      expect(Object.keys((await storedDocument('paths', withId.id))!['kvStorage'] as object)).to.deep.equal(['a', '\uFF3C_id']);
    });

    it('keeps record fields under their own names, stores updatedAt as a BSON date, and holds no $ or . keys', async () => {
      for (const { collection, fields } of CORPUS) {
        const record = await client.given(collection, fields);
        const stored = (await storedDocument(collection, record.id))!;
        expect(stored, collection).to.include({ id: record.id, versionId: tenant.version.id });
        expect(stored['updatedAt']).to.be.instanceOf(Date);
        expect((stored['updatedAt'] as Date).toISOString()).to.equal(record['updatedAt']);
        expect(unstorableKeys(stored), `${collection}: ${exactJson(fields).slice(0, 80)}`).to.deep.equal([]);
      }
    });

    it('can be queried with the escaped key, as documented', async () => {
      const owner = `team-${Date.now()}`;
      const record = await client.given('paths', { kvStorage: { 'x-team.owner': owner, $legacy: { $ref: owner } } });
      const paths = testDatabase().db.collection('paths');
      expect((await paths.findOne({ 'kvStorage.x-team\uFF0Eowner': owner }))?.['id']).to.equal(record.id);
      expect((await paths.findOne({ 'kvStorage.\uFF04legacy.\uFF04ref': owner }))?.['id']).to.equal(record.id);
    });

    it('never shows _id in any response', async () => {
      const record = await client.given('paths');
      const responses = [
        await client.create('paths', sampleOf(collectionNamed('paths'))),
        await client.get('paths', record.id),
        await client.replace('paths', record.id, record),
        await client.update('paths', record.id, { summary: 'x' }),
        await client.list('paths', listQueryFor(collectionNamed('paths'), record)),
      ];
      for (const res of responses) expect(res.text).to.not.include('_id');
    });
  });

  describe('hostile input', () => {
    /** Nothing the client sends may produce a 5xx. */
    function expectClientError(res: Response, status: number): void {
      expect(res.status, res.text.slice(0, 300)).to.be.below(500);
      expect(res.status, res.text.slice(0, 300)).to.equal(status);
    }

    it(`a body nested deeper than ${MAX_BODY_DEPTH} levels is 400 before validation, on create, replace and PATCH`, async () => {
      const record = await client.given('paths');
      // Invalid in other ways too (no serviceId): the depth is reported, so it was checked first.
      for (const kvStorage of [nestedObject(DEEPEST_FIELD_LEVELS + 1), { deep: nestedArray(DEEPEST_FIELD_LEVELS) }]) {
        for (const res of [
          await client.create('paths', { path: 'no-slash', kvStorage }),
          await client.replace('paths', record.id, { path: 'no-slash', kvStorage }),
          await client.update('paths', record.id, { kvStorage, unknownField: 1 }),
        ]) {
          expectError(res, 400, 'Invalid request');
          expect(res.body.details).to.have.length(1);
          expect(res.body.details[0].field).to.match(/^\/kvStorage\//);
          expect(res.body.details[0].message).to.equal(`nests deeper than ${MAX_BODY_DEPTH} levels`);
        }
      }
      // 100,000 levels (as text: too deep for JSON.stringify here) is refused just the same.
      const text = `{"kvStorage":${'{"k":'.repeat(100_000)}1${'}'.repeat(100_001)}`;
      const res = await client.create('paths', undefined).set('Content-Type', 'application/json').send(text);
      expectError(res, 400, 'Invalid request');
      expect(res.body.details[0].message).to.equal(`nests deeper than ${MAX_BODY_DEPTH} levels`);
    });

    it('a lone surrogate in a value or a key is 400, wherever it is', async () => {
      const record = await client.given('paths');
      const cases: [Fields, string][] = [
        [{ summary: 'a\uD800b' }, '/summary'],
        [{ kvStorage: { x: ['ok', '\uDC00'] } }, '/kvStorage/x/1'],
        [{ kvStorage: { 'key\uD83D': 1 } }, '/kvStorage/key\uD83D'],
        [{ kvStorage: { nested: { '\uDFFF': 'v' } } }, '/kvStorage/nested/\uDFFF'],
      ];
      for (const [fields, field] of cases) {
        expectInvalid(await client.create('paths', { ...sampleOf(collectionNamed('paths')), ...fields }), field);
        expectInvalid(await client.replace('paths', record.id, { ...sampleOf(collectionNamed('paths')), ...fields }), field);
        expectInvalid(await client.update('paths', record.id, fields), field);
      }
      // Well-formed pairs are fine, and nothing was changed by the refused writes.
      expectExactly(await client.update('paths', record.id, { summary: '\uD83D\uDE00' }), { summary: '😀' }, 200);
    });

    it('a number beyond the range of a double is 400 (JSON.parse reads it as Infinity)', async () => {
      const record = await client.given('paths');
      const base = exactJson(sampleOf(collectionNamed('paths'))).slice(0, -1);
      for (const number of ['1e400', '-1e400', '1' + '0'.repeat(400)]) {
        const text = `${base},"kvStorage":{"ok":1.7976931348623157e308,"x":[${number}]}}`;
        const created = await client.create('paths', undefined).set('Content-Type', 'application/json').send(text);
        expectInvalid(created, '/kvStorage/x/0');
        const patched = await client.update('paths', record.id, undefined).set('Content-Type', 'application/json').send(`{"kvStorage":{"x":${number}}}`);
        expectInvalid(patched, '/kvStorage/x');
      }
    });

    it('operator objects in typed fields are 400, never run as queries', async () => {
      const record = await client.given('paths');
      const sample = sampleOf(collectionNamed('paths'));
      for (const [fields, field] of [
        [{ serviceId: { $ne: null } }, '/serviceId'],
        [{ path: { $regex: '.*' } }, '/path'],
        [{ summary: { $gt: '' } }, '/summary'],
        [{ versionId: { $ne: null } }, '/versionId'],
        [{ id: { $ne: null } }, '/id'],
      ] as [Fields, string][]) {
        expectInvalid(await client.create('paths', { ...sample, ...fields }), field);
        if (field !== '/id') expectInvalid(await client.replace('paths', record.id, { ...sample, ...fields }), field);
        expectInvalid(await client.update('paths', record.id, fields), field);
      }
      expectRecordExactly((await client.get('paths', record.id)).body, { summary: record['summary'], path: record['path'] });
    });

    it('operator objects in free-form fields are stored escaped and leave other records alone', async () => {
      const bystander = await client.given('paths', { summary: 'bystander' });
      const record = await client.given('paths');
      const kvStorage = { $set: { summary: 'hacked' }, $unset: { summary: 1 }, $rename: { summary: 'x' } };
      expectExactly(await client.update('paths', record.id, { kvStorage }), { kvStorage, summary: record['summary'] }, 200);
      expect(Object.keys((await storedDocument('paths', record.id))!['kvStorage'] as object)).to.deep.equal(['\uFF04set', '\uFF04unset', '\uFF04rename']);
      expect((await client.get('paths', bystander.id)).body).to.deep.equal(bystander);
    });

    it('__proto__ and constructor keys are data: a top-level one is an unknown field, nested ones round-trip, nothing is polluted', async () => {
      const text = `{"serviceId": "${sampleOf(collectionNamed('paths'))['serviceId'] as string}", "path": "/p", "__proto__": {"polluted": true}}`;
      const res = await client.create('paths', undefined).set('Content-Type', 'application/json').send(text);
      expectInvalid(res, '/__proto__');
      const kvStorage = json('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
      const record = await client.given('paths', { kvStorage });
      expect(exactJson((await client.get('paths', record.id)).body.kvStorage)).to.equal(exactJson(kvStorage));
      expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    });

    it('a body of about 1 MiB with many keys round-trips', async () => {
      const kvStorage: Fields = {};
      // ~2,000 keys: FerretDB's cost per document grows with the square of its keys (22,000 took 8 s).
      for (let i = 0; i < 2_000; i++) kvStorage[`key.${i}$`] = { n: i, s: `value-${i}-${'x'.repeat(420)}`, list: [[i, -0]] };
      const body = { ...sampleOf(collectionNamed('paths')), kvStorage };
      expect(exactJson(body).length).to.be.within(900_000, 1024 * 1024);
      const created = await client.create('paths', body);
      expect(created.status, created.text.slice(0, 300)).to.equal(201);
      const read = await client.get('paths', created.body.id);
      expect(read.status).to.equal(200);
      expect(exactJson(read.body.kvStorage) === exactJson(kvStorage), 'kvStorage differs').to.equal(true);
    });

    it('a body just over the limit is 413, not 500', async () => {
      const body = { ...sampleOf(collectionNamed('paths')), kvStorage: { big: 'x'.repeat(1024 * 1024) } };
      expectClientError(await client.create('paths', body), 413);
    });
  });
});

/** Keys the database (FerretDB) or the driver (DBRef) cannot hold as is: `$…`, `….…`, NUL. */
function unstorableKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unstorableKeys(item, `${path}/${i}`));
  if (typeof value !== 'object' || value === null || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(/^\$|\.|\0/.test(key) ? [`${path}/${key}`] : []),
    ...unstorableKeys(item, `${path}/${key}`),
  ]);
}
