// Unit tests for server/store/codec.ts: the stored form of free-form JSON (docs/storage-encoding.md).
import { expect } from 'chai';
import fc from 'fast-check';
import { TEXT_ENTRIES, decodeKey, decodeValue, encodeFields, encodeKey, encodeValue } from '../../server/store/codec.ts';

const RawJSON = JSON as unknown as { rawJSON(text: string): object; isRawJSON(v: unknown): boolean };

// JSON text that keeps -0 (plain JSON.stringify prints it as 0): the comparison the API cares about.
function exactText(value: unknown): string | undefined {
  return JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? RawJSON.rawJSON('-0') : v));
}

// chai's deep equal sees JSON.rawJSON('-0') as the plain object {rawJSON: '-0'} (it would even
// equal a user object of that shape), so map raw JSON back to the number before deep-comparing.
function normalize(value: unknown): unknown {
  if (RawJSON.isRawJSON(value)) return JSON.parse((value as { rawJSON: string }).rawJSON);
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== 'object' || value === null) return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, { value: normalize(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const isWrapperKey = (k: string): boolean => /^\uFF3C[A-Za-z]$/.test(k);

// What the database can hold (FerretDB 1.24 limits) plus what the driver needs (plain objects).
function storageViolations(value: unknown, path = '', found: string[] = []): string[] {
  if (typeof value === 'string' && value.includes('\0')) found.push(`${path}: NUL in string`);
  if (Object.is(value, -0)) found.push(`${path}: -0`);
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (Array.isArray(v)) found.push(`${path}/${i}: array directly inside array`);
      storageViolations(v, `${path}/${i}`, found);
    });
  } else if (typeof value === 'object' && value !== null) {
    if (Object.getPrototypeOf(value) !== Object.prototype) found.push(`${path}: not a plain object`);
    const keys = Object.keys(value);
    for (const k of keys) {
      if (k.startsWith('$')) found.push(`${path}: key ${JSON.stringify(k)} starts with $`);
      if (k.includes('.')) found.push(`${path}: key ${JSON.stringify(k)} contains .`);
      if (k.includes('\0')) found.push(`${path}: key ${JSON.stringify(k)} contains NUL`);
      if (isWrapperKey(k) && keys.length !== 1) found.push(`${path}: wrapper key ${k} among other keys`);
      storageViolations((value as Record<string, unknown>)[k], `${path}/${k}`, found);
    }
  }
  return found;
}

// The full contract for one JSON value: storable, exact round trip, input untouched.
function assertRoundTrip(input: unknown): unknown {
  const before = exactText(input);
  const clone = structuredClone(input);
  const stored = encodeValue(input);
  expect(storageViolations(stored)).to.deep.equal([]);
  // Decoding takes what it is given (a document read from the database): a copy, so that `stored` is returned as encoded.
  const decoded = decodeValue(structuredClone(stored));
  // Plain JSON.stringify on the decoded side: the HTTP layer must need no special serializer.
  expect(JSON.stringify(decoded)).to.equal(before);
  expect(normalize(decoded)).to.deep.equal(input);
  expect(exactText(input), 'encode mutated its input').to.equal(before);
  expect(input).to.deep.equal(clone);
  return stored;
}

describe('storage codec', () => {
  describe('keys', () => {
    const cases: Array<[string, string]> = [
      ['plain', 'plain'],
      ['$ref', '＄ref'],
      ['$$', '＄＄'],
      ['a.b.c', 'a．b．c'],
      ['.', '．'],
      ['$', '＄'],
      ['x$y', 'x＄y'],
      ['＄ref', '＼＄ref'],
      ['．', '＼．'],
      ['＼', '＼＼'],
      ['＼a', '＼＼a'],
      ['＼0', '＼＼0'],
      ['＼＄.$', '＼＼＼＄．＄'],
      ['a\u0000b', 'a＼0b'],
      ['', ''],
      ['__proto__', '__proto__'],
      ['constructor', 'constructor'],
    ];
    for (const [key, stored] of cases) {
      it(`${JSON.stringify(key)} is stored as ${JSON.stringify(stored)} and round-trips`, () => {
        expect(encodeKey(key)).to.equal(stored);
        expect(decodeKey(stored)).to.equal(key);
        expect(stored.startsWith('$')).to.equal(false);
        expect(stored).not.to.include('.');
        expect(stored).not.to.include('\0');
        expect(isWrapperKey(stored)).to.equal(false);
        // As an object key at two depths, including alone in its object (never read as a wrapper).
        const obj = JSON.parse(`{${JSON.stringify(key)}: {${JSON.stringify(key)}: [1]}}`) as object;
        const decoded = decodeValue(assertRoundTrip(obj)) as Record<string, unknown>;
        expect(Object.getPrototypeOf(decoded)).to.equal(Object.prototype);
        expect(Object.keys(decoded)).to.deep.equal([key]);
      });
    }
  });

  describe('stored form', () => {
    it('wraps arrays directly inside arrays, recursively; arrays under keys stay arrays', () => {
      expect(encodeValue([[1, [2]]])).to.deep.equal([{ '＼a': [1, { '＼a': [2] }] }]);
      expect(encodeValue({ a: [[]], b: [] })).to.deep.equal({ a: [{ '＼a': [] }], b: [] });
    });
    it('wraps -0 and strings containing NUL', () => {
      expect(encodeValue({ z: -0, p: 0 })).to.deep.equal({ z: { '＼n': '-0' }, p: 0 });
      expect(encodeValue(['a\u0000b'])).to.deep.equal([{ '＼s': '"a\\u0000b"' }]);
    });
    it('escapes keys at every depth, including inside wrapped arrays', () => {
      expect(encodeValue({ 'a.b': [[{ $ref: '#' }]] })).to.deep.equal({ 'a．b': [{ '＼a': [{ '＄ref': '#' }] }] });
    });
    it('keeps plain values and objects that need no escaping as they are', () => {
      const doc = { title: 'x', n: 1.5, ok: true, none: null, tags: ['a'], nested: { k: 'v' } };
      expect(encodeValue(doc)).to.deep.equal(doc);
    });
    it('decodes -0 to a value JSON.stringify prints as -0', () => {
      expect(JSON.stringify(decodeValue(encodeValue(-0)))).to.equal('-0');
      expect(JSON.stringify(decodeValue(encodeValue({ a: [[-0]] })))).to.equal('{"a":[[-0]]}');
    });
    it('re-encodes decoded values (read-modify-write) to the same stored form', () => {
      const stored = encodeValue({ a: [-0, [[-0]]], $b: 'x\u0000' });
      expect(encodeValue(decodeValue(structuredClone(stored)))).to.deep.equal(stored);
    });
    it('passes Date instances (and other class instances) through unchanged', () => {
      const d = new Date('2024-01-02T03:04:05.678Z');
      expect(decodeValue(d)).to.equal(d);
      expect((decodeValue({ at: d }) as { at: Date }).at).to.equal(d);
      expect(encodeValue(d)).to.equal(d);
    });
    it('decodes in place what needs no new object, and rebuilds an object whose keys were encoded, in their order', () => {
      const plain = { a: { b: [1, { c: 'd' }] }, e: null };
      const stored = encodeValue(plain) as typeof plain;
      expect(decodeValue(stored)).to.equal(stored);
      expect(stored.a.b[1]).to.deep.equal({ c: 'd' });
      const nested = encodeValue({ x: { $ref: '#/a', 'a.b': 1, z: [[-0]] } }) as { x: object };
      const inner = nested.x;
      const decoded = decodeValue(nested) as { x: object };
      expect(decoded).to.equal(nested);
      expect(decoded.x).to.not.equal(inner);
      expect(JSON.stringify(decoded)).to.equal('{"x":{"$ref":"#/a","a.b":1,"z":[[-0]]}}');
    });
    it('keeps a __proto__ key as data when its value is decoded in place', () => {
      const stored = JSON.parse('{"__proto__": {"list": {"＼a": [[1]]}}, "k": 1}') as Record<string, unknown>;
      const decoded = decodeValue(stored) as Record<string, unknown>;
      expect(Object.getPrototypeOf(decoded)).to.equal(Object.prototype);
      expect(JSON.stringify(decoded)).to.equal('{"__proto__":{"list":[[1]]},"k":1}');
    });
    it('refuses unknown or malformed wrappers instead of guessing', () => {
      expect(() => decodeValue({ '＼x': 1 })).to.throw(/wrapper/);
      expect(() => decodeValue({ '＼n': '0' })).to.throw(/wrapper/);
      expect(() => decodeValue([{ '＼a': 'no' }])).to.throw(/wrapper/);
      expect(() => decodeValue({ '＼s': '1' })).to.throw(/wrapper/);
    });
    it('treats only single-key objects as wrappers', () => {
      expect(decodeValue({ '＼n': '-0', b: 1 })).to.deep.equal({ n: '-0', b: 1 });
    });
    it('keeps __proto__ keys as own data properties and never touches prototypes', () => {
      const input = JSON.parse('{"__proto__": {"polluted": true}, "x": {"__proto__": []}}') as object;
      const stored = assertRoundTrip(input) as Record<string, unknown>;
      const decoded = decodeValue(stored) as Record<string, unknown>;
      for (const obj of [stored, decoded, decoded['x'] as object]) {
        expect(Object.getPrototypeOf(obj)).to.equal(Object.prototype);
        expect(Object.keys(obj)).to.include('__proto__');
      }
      expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
    });
    it('keeps key order, so {$ref, $id} stays a schema (the driver would make it a DBRef)', () => {
      const input = { schema: { $ref: '#/$defs/a', $id: 'urn:x', type: 'object' } };
      const stored = assertRoundTrip(input) as { schema: object };
      expect(Object.keys(stored.schema)).to.deep.equal(['＄ref', '＄id', 'type']);
      expect(Object.keys((decodeValue(stored) as { schema: object }).schema)).to.deep.equal(['$ref', '$id', 'type']);
    });
  });

  // FerretDB decodes every stored key of every document of a collection on each scan (a list),
  // so a record of ~10,000 keys made every list of its collection cost ~0.6 s.
  describe("a record's fields: large ones stored as JSON text", () => {
    const wide = (entries: number) => Object.fromEntries(Array.from({ length: entries }, (_, i) => [`k.${i}`, i % 2 ? [-0, 'a\u0000'] : { $ref: '#' }]));
    // JSON.stringify prints -0 as 0; a decoded -0 prints as -0.
    const exact = (value: unknown) => JSON.stringify(value).replaceAll('[0,"a', '[-0,"a');

    it(`stores a field of more than ${TEXT_ENTRIES} entries (keys and items, at every depth) as one {"＼j": "<JSON text>"}`, () => {
      const fields = { path: '/p', kvStorage: wide(TEXT_ENTRIES), tags: Array.from({ length: TEXT_ENTRIES + 1 }, String), small: { a: [1] } };
      const stored = encodeFields(fields);
      expect(Object.keys(stored)).to.deep.equal(['path', 'kvStorage', 'tags', 'small']);
      expect(stored['path']).to.equal('/p');
      expect(stored['small']).to.deep.equal({ a: [1] });
      expect(Object.keys(stored['kvStorage'] as object)).to.deep.equal(['＼j']);
      expect(JSON.parse((stored['kvStorage'] as Record<string, string>)['＼j']!)).to.deep.equal(encodeValue(fields.kvStorage));
      expect(stored['tags']).to.deep.equal({ '＼j': JSON.stringify(fields.tags) });
      expect(JSON.stringify(decodeValue(stored))).to.equal(exact(fields));
    });

    it(`keeps a field of at most ${TEXT_ENTRIES} entries in the queryable form`, () => {
      const kvStorage = Object.fromEntries(Array.from({ length: TEXT_ENTRIES / 2 - 1 }, (_, i) => [`k${i}`, { v: i }]));
      expect(encodeFields({ kvStorage })['kvStorage']).to.deep.equal(kvStorage);
    });

    it('reads a large field stored before in the queryable form too', () => {
      const kvStorage = wide(TEXT_ENTRIES * 2);
      expect(JSON.stringify(decodeValue({ kvStorage: encodeValue(kvStorage) }))).to.equal(exact({ kvStorage }));
    });
  });

  describe('value corpus round-trips exactly', () => {
    let deepObj: unknown = 'bottom';
    let deepArr: unknown = [-0];
    for (let i = 0; i < 60; i++) {
      deepObj = i % 2 ? { [`$k.${i}`]: deepObj } : [deepObj, i];
      deepArr = [deepArr];
    }
    const corpus: Record<string, unknown> = {
      'JSON Schema with $ref/$defs/$id': {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://example.com/pet',
        $defs: { 'pet.name': { type: 'string' }, tag: { $ref: '#/$defs/pet.name' } },
        properties: { name: { $ref: '#/$defs/pet.name' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } },
        allOf: [{ $ref: '#/$defs/tag', $id: 'x' }],
      },
      'object whose first keys are $ref then $id': { $ref: 'coll', $id: 'abc', $db: 'db', other: 1 },
      'kvStorage with $ and dotted keys': { '$set': { 'a.b': 1 }, 'x-vendor.flag': true, '$': '$', '.': '.' },
      'nested arrays several levels deep': [[[[[1]]], [[2, [3, [4]]]]], [], [[]]],
      'arrays of objects containing arrays': { items: [{ m: [[1, 2], [3]] }, { m: [] }, [{ n: [[{ o: [[0]] }]] }]] },
      '-0 at the top level': -0,
      '-0 inside an object': { a: -0, b: 0, c: [0, -0] },
      '-0 inside nested arrays': [[-0, [-0]], { z: [[[-0]]] }],
      unicode: { '😀.🎉': 'emoji 👩‍👩‍👧‍👦', 'עברית': 'مرحبا بالعالم', 'e\u0301': 'combining a\u0308\u0301', '＄．＼': '＄．＼' },
      'large integers': [2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e308, 5e-324, -1.5],
      'empty objects and arrays': { o: {}, a: [], oa: [{}], ao: { x: [[]] }, e: '' },
      'strings with NUL': { s: '\u0000', t: ['a\u0000b', ['\u0000\u0000']], 'k\u0000': 'v\u0000' },
      'rich text': { html: '<p class="a.b">$5 &amp; "quotes" \\ back\nslash</p>' },
      'depth 60 of objects and arrays with escaped keys': deepObj,
      'depth 60 of nested arrays': deepArr,
      'primitives at the top level': [true, false, null, 'text', 42],
    };
    for (const [name, value] of Object.entries(corpus)) {
      it(name, () => {
        assertRoundTrip(value);
      });
    }
  });

  describe('properties (fast-check)', () => {
    it('any fc.jsonValue() round-trips, is storable and is not mutated', () => {
      fc.assert(fc.property(fc.jsonValue(), (v) => { assertRoundTrip(v); }), { numRuns: 500 });
      fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary' }), (v) => { assertRoundTrip(v); }), { numRuns: 300 });
    });
    it('values with keys and strings from the escape alphabet round-trip', () => {
      const unit = fc.constantFrom('$', '.', '＄', '．', '＼', '\u0000', 'a', '0', 'n');
      const text = fc.string({ unit, maxLength: 5 });
      const { value } = fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: 'small' },
          fc.constant(null), fc.boolean(), text,
          fc.constantFrom(-0, 0, 1, -1, 2 ** 53, -(2 ** 53)),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.array(tie('value'), { maxLength: 4 }),
          // null-prototype objects included: encode must still produce Object.prototype objects
          fc.dictionary(fc.oneof(text, fc.constantFrom('__proto__', '＼a', '＼n', '＼s', '$ref', '$id')), tie('value'), { maxKeys: 4 }),
        ),
      }));
      fc.assert(fc.property(value, (v) => { assertRoundTrip(v); }), { numRuns: 1000 });
    });
  });
});
