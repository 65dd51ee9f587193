// The FerretDB this project builds decodes a stored document in one pass (scripts/ferretdb/patches/
// sjson_fast.go) and hands what that pass does not take to FerretDB's own decoder. Every value type
// FerretDB stores, at the top level, nested and in arrays, with strings its JSON writes escaped,
// must come back as it went in: the same BSON, byte for byte, types and key order included. (FerretDB
// itself refuses arrays in arrays, writes -0 as 0, and writes a key holding a quote or a backslash
// as broken JSON, which the store's key escaping avoids: store/codec.ts.)
import { expect } from 'chai';
import { Binary, BSON, BSONRegExp, Double, Int32, Long, ObjectId, Timestamp, type Document } from 'mongodb';
import { testDatabase } from '../support/database.ts';

const COLLECTION = 'decode-probe';

function values(): Record<string, unknown> {
  return {
    plain: 'text', empty: '', escaped: 'a"b\\c/d\n\t\r\b\f', html: '<p>a & b</p>', control: '\u0001\u001f\u007f',
    unicode: 'é 日本 😀 \u2028\u2029', lone: '\ud800x',
    int: new Int32(-7), intMax: new Int32(2147483647), long: Long.fromString('9007199254740993'), longMin: Long.fromString('-9223372036854775808'),
    double: new Double(200.5), integral: new Double(200), big: new Double(1e21), tiny: new Double(5e-324),
    yes: true, no: false, nothing: null,
    date: new Date(0), datePast: new Date(-62135596800000), dateNow: new Date(1795827538154),
    oid: new ObjectId('72ec5f2a1b3c4d5e6f708192'),
    bytes: new Binary(Buffer.from([0, 1, 2, 255])), uuid: new Binary(Buffer.alloc(16, 7), 4), noBytes: new Binary(Buffer.alloc(0)),
    regex: new BSONRegExp('^a.*"b$', 'im'), timestamp: new Timestamp({ t: 1700000000, i: 3 }),
  };
}

function documents(): Document[] {
  const all = values();
  return [
    { _id: 'flat', ...all },
    { _id: 'nested', deep: { a: { b: { c: { d: all } } } }, emptyDoc: {}, order: { z: 1, a: 2, m: 3 } },
    { _id: 'arrays', list: Object.values(all), empty: [], documents: [{}, { a: [null, { b: 'c', d: [] }] }, { list: Object.values(all) }] },
    { _id: 'keys', 'with space': 1, 'é': 2, 'x-catalog': { '＄ref': 'r', 'a:b': 'colon' } },
    { _id: new ObjectId('65ec5f2a1b3c4d5e6f708192'), n: new Int32(1) },
    { _id: new Int32(7), n: new Int32(2) },
    // One shape, three documents: the decoder parses a shape's schema once and shares it
    // (sjson_fast.go sharedSchema), so the values must still be each document's own.
    ...['one', 'two', 'three'].map((n, i) => ({ _id: `shape-${n}`, name: n, inner: { at: new Int32(i), list: [n, new Double(i + 0.5)] } })),
    // Schema text with brackets and braces inside keys: the cache's key is the schema's text.
    { _id: 'braces', 'br{a}ce': { '[x]': 'a}b', '{': { '}': ']' } } },
  ];
}

describe('database: stored documents read back as they were written', function () {
  this.timeout(60_000);

  it('returns every value type, nested and in arrays, byte for byte', async () => {
    const collection = testDatabase().db.collection(COLLECTION);
    const written = documents();
    // One at a time: a document the server refuses names itself.
    for (const document of written) await collection.insertOne(document);
    // Raw: the server's bytes, not the driver's reading of them.
    const read = await collection.find({}, { raw: true }).toArray() as unknown as Buffer[];
    expect(read.map((bytes) => Buffer.from(bytes).toString('hex'))).to.have.members(written.map((document) => Buffer.from(BSON.serialize(document)).toString('hex')));
  });
});
