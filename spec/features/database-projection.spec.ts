// The FerretDB this project builds applies a projection of top-level fields without copying each
// document (scripts/ferretdb/patches/projection_fast.go), and decodes of each stored document only
// the top-level fields a find's projection, filter and sort name (find_fields.go, query_fields.go).
// Either would be wrong in silence: a field the filter reads and the projection does not must still
// be decoded (a missing field matches `null` and `$exists: false`). Each find here runs as written
// and without its projection, the projection then applied as MongoDB does; the answers must agree.
import { expect } from 'chai';
import type { Collection, Document, Filter, Sort } from 'mongodb';
import { testDatabase } from '../support/database.ts';

const COLLECTION = 'projection-probe';

function documents(): Document[] {
  return [
    { _id: 'd01', kind: 'a', name: 'one', size: 1, nested: { x: 1, y: 'y1' }, list: [1, 2], note: 'long '.repeat(200) },
    { _id: 'd02', kind: 'a', name: 'two', nested: { y: 'y2' }, list: [{ x: 3 }, { y: 4 }] },
    { _id: 'd03', kind: 'b', size: 3, nested: 'scalar', tag: null },
    { _id: 'd04', kind: ['a', 'c'], name: 'four', size: 4.5, nested: { x: { deep: true } } },
    { _id: 'd05', name: 'five', size: 5, tag: 'x' },
    { _id: 'd06', kind: 'b', name: { first: 'six' }, size: null, list: [] },
    { _id: 'd07', kind: 'c', size: 7, nested: { x: 7, y: 'y7' }, tag: 'y' },
    // Fields in another order than the projection names them, and `_id` not first as written.
    { tag: 'z', size: 8, _id: 'd08', name: 'eight', kind: 'a' },
  ];
}

interface Probe { filter: Filter<Document>; projection: Document; sort?: Sort }

function probes(): Probe[] {
  const projections: Document[] = [
    { name: 1 }, { name: 1, size: 1 }, { size: true, name: true }, { _id: 0, name: 1 }, { _id: 1 }, { _id: 0, nested: 1, list: 1 },
    { name: 1, absent: 1 }, { kind: 1, tag: 1, _id: 0 },
    // Not top-level inclusion: applied by FerretDB's own projection, which must see the fields too.
    { 'nested.x': 1 }, { 'nested.y': 1, name: 1 }, { note: 0 }, { name: 0, _id: 0 },
  ];
  const filters: Filter<Document>[] = [
    {}, { kind: 'a' }, { size: { $gte: 4 } }, { tag: null }, { tag: { $exists: false } }, { name: { $exists: true } },
    { $or: [{ kind: 'b' }, { tag: 'x' }] }, { $and: [{ kind: { $ne: 'c' } }, { size: { $lt: 6 } }] }, { $nor: [{ kind: 'a' }] },
    { 'nested.x': 1 }, { 'list.x': 3 }, { 'name.first': 'six' }, { kind: 'a', $comment: 'a comment' }, { _id: { $in: ['d02', 'd05'] as never[] } },
  ];
  return [
    ...projections.flatMap((projection) => filters.map((filter) => ({ filter, projection }))),
    ...projections.map((projection) => ({ filter: { kind: { $exists: true } }, projection, sort: { size: -1, _id: 1 } as Sort })),
  ];
}

/** MongoDB's projection of a whole document, for the projections above: inclusion of top-level or one-level dotted fields, or exclusion. */
function projected(document: Document, projection: Document): Document {
  const entries = Object.entries(projection);
  const withId = projection['_id'] === undefined || Boolean(projection['_id']);
  const exclusion = entries.some(([field, value]) => field !== '_id' && !value) || entries.every(([, value]) => !value);
  if (exclusion) {
    return Object.fromEntries(Object.entries(document).filter(([field]) => !(field in projection) || (field === '_id' && withId)));
  }
  const out: Document = withId ? { _id: document['_id'] } : {};
  for (const [field, value] of Object.entries(document)) {
    if (field === '_id') continue;
    if (projection[field]) out[field] = value;
    const inner = entries.filter(([path, on]) => on && path.startsWith(`${field}.`)).map(([path]) => path.slice(field.length + 1));
    if (inner.length === 0) continue;
    if (Array.isArray(value)) out[field] = value.filter((item) => typeof item === 'object' && item !== null).map((item: Document) => pick(item, inner));
    else if (typeof value === 'object' && value !== null) out[field] = pick(value as Document, inner);
  }
  return out;
}

function pick(document: Document, fields: readonly string[]): Document {
  return Object.fromEntries(Object.entries(document).filter(([field]) => fields.includes(field)));
}

async function found(collection: Collection, { filter, projection, sort }: Probe, project: boolean): Promise<Document[]> {
  let cursor = collection.find(filter, project ? { projection } : {});
  if (sort) cursor = cursor.sort(sort);
  const documents = await cursor.toArray();
  const answer = project ? documents : documents.map((document) => projected(document, projection));
  // Without a sort the order is the engine's own: compare as sets.
  return sort ? answer : answer.sort((a, b) => String(a['_id'] ?? JSON.stringify(a)).localeCompare(String(b['_id'] ?? JSON.stringify(b))));
}

describe('database: projections and the fields a find decodes', function () {
  this.timeout(60_000);
  let collection: Collection;

  before(async () => {
    collection = testDatabase().db.collection(COLLECTION);
    await collection.insertMany(documents());
  });
  after(() => collection.drop());

  it('answers every find with a projection as the same find without it, projected as MongoDB does', async () => {
    const mismatches: string[] = [];
    for (const probe of probes()) {
      const [withProjection, reference] = [await found(collection, probe, true), await found(collection, probe, false)];
      if (JSON.stringify(withProjection) !== JSON.stringify(reference)) {
        mismatches.push(`${JSON.stringify(probe)}:\n  projected ${JSON.stringify(withProjection)}\n  reference ${JSON.stringify(reference)}`);
      }
    }
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
  });

  it('keeps the document\'s order of fields, `_id` first, in a case worked out by hand', async () => {
    const [eighth] = await collection.find({ _id: 'd08' as never }, { projection: { kind: 1, name: 1, tag: 1 } }).toArray();
    expect(JSON.stringify(eighth)).to.equal('{"_id":"d08","tag":"z","name":"eight","kind":"a"}');
  });

  it('matches a missing field the projection leaves out as missing, not as absent from the read', async () => {
    const names = await collection.find({ tag: { $exists: false } }, { projection: { _id: 0, name: 1 } }).toArray();
    expect(names.map((document) => document['name'])).to.have.deep.members(['one', 'two', 'four', { first: 'six' }]);
  });
});
