// Unit tests for server/store/cursor.ts: the sort with its `id` tie-breaker, and the keyset
// filter, both its exact shape and (against an independent model of MongoDB's matching and
// sort order) its meaning: it selects exactly the cursor item and everything after it.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Document } from 'mongodb';
import { keysetFilter, mongoSort, withTieBreaker, type SortKey } from '../../server/store/cursor.ts';
import { encodeValue } from '../../server/store/codec.ts';
import { compareBson, recordOrder, typeRank } from '../support/bson-order.ts';

const asc = (field: string): SortKey => ({ field, direction: 1 });
const desc = (field: string): SortKey => ({ field, direction: -1 });
const CURSOR_ID = 'path_01HZZZZZZZZZZZZZZZZZZZZZZZ';
const ID_AT_OR_AFTER = { id: { $gte: CURSOR_ID } };

describe('cursor (keyset pagination)', () => {
  describe('withTieBreaker', () => {
    it('appends ascending id to a sort without id, and is the default order on its own', () => {
      expect(withTieBreaker([])).to.deep.equal([asc('id')]);
      expect(withTieBreaker([asc('path'), desc('updatedAt')])).to.deep.equal([asc('path'), desc('updatedAt'), asc('id')]);
    });

    it('keeps an id the caller placed, with its direction, and drops the keys after it (id is unique)', () => {
      expect(withTieBreaker([desc('id')])).to.deep.equal([desc('id')]);
      expect(withTieBreaker([asc('summary'), desc('id'), asc('path')])).to.deep.equal([asc('summary'), desc('id')]);
    });

    it('does not change its argument', () => {
      const keys = [asc('path')];
      withTieBreaker(keys);
      expect(keys).to.deep.equal([asc('path')]);
    });
  });

  describe('mongoSort', () => {
    it('is the sort document in key order', () => {
      const sort = mongoSort([asc('summary'), desc('updatedAt'), asc('id')]);
      expect(sort).to.deep.equal({ summary: 1, updatedAt: -1, id: 1 });
      expect(Object.keys(sort)).to.deep.equal(['summary', 'updatedAt', 'id']);
    });
  });

  describe('keysetFilter: shape', () => {
    it('id alone: id at or after the cursor, either way', () => {
      expect(keysetFilter([asc('id')], { id: CURSOR_ID })).to.deep.equal(ID_AT_OR_AFTER);
      expect(keysetFilter([desc('id')], { id: CURSOR_ID })).to.deep.equal({ id: { $lte: CURSOR_ID } });
    });

    it('ascending string: greater strings or any later type; else equal and id at or after', () => {
      expect(keysetFilter([asc('summary'), asc('id')], { id: CURSOR_ID, summary: 'abc' })).to.deep.equal({
        $or: [
          { $or: [{ summary: { $gt: 'abc' } }, { summary: { $type: ['object', 'bool', 'date'] } }] },
          { $and: [{ summary: 'abc' }, ID_AT_OR_AFTER] },
        ],
      });
    });

    it('descending string: smaller strings, null or missing, numbers', () => {
      expect(keysetFilter([desc('summary'), asc('id')], { id: CURSOR_ID, summary: 'abc' })).to.deep.equal({
        $or: [
          { $or: [{ summary: { $lt: 'abc' } }, { summary: null }, { summary: { $type: ['number'] } }] },
          { $and: [{ summary: 'abc' }, ID_AT_OR_AFTER] },
        ],
      });
    });

    it('ascending from null or missing: every non-null type; equality is `null`, which also matches missing', () => {
      const expected = {
        $or: [
          { summary: { $type: ['number', 'string', 'object', 'bool', 'date'] } },
          { $and: [{ summary: null }, ID_AT_OR_AFTER] },
        ],
      };
      expect(keysetFilter([asc('summary'), asc('id')], { id: CURSOR_ID })).to.deep.equal(expected);
      expect(keysetFilter([asc('summary'), asc('id')], { id: CURSOR_ID, summary: null })).to.deep.equal(expected);
    });

    it('descending from null: nothing sorts after it, so only the equality branch is left', () => {
      expect(keysetFilter([desc('summary'), asc('id')], { id: CURSOR_ID })).to.deep.equal({ $and: [{ summary: null }, ID_AT_OR_AFTER] });
    });

    // Each BSON type a stored scalar can have, with the types that sort after it either way.
    const TYPES: Array<[string, unknown, string[], string[]]> = [
      ['number', 7, ['string', 'object', 'bool', 'date'], ['null']],
      ['string', 's', ['object', 'bool', 'date'], ['null', 'number']],
      ['object (codec wrapper of a string with NUL)', encodeValue('a\u0000'), ['bool', 'date'], ['null', 'number', 'string']],
      ['boolean', false, ['date'], ['null', 'number', 'string', 'object']],
      ['date', new Date(0), [], ['null', 'number', 'string', 'object', 'bool']],
    ];
    for (const [name, value, laterAscending, laterDescending] of TYPES) {
      it(`${name}: later types in each direction`, () => {
        const expectedAfter = (operator: string, later: string[]): Document => {
          const options: Document[] = [{ v: { [operator]: value } }];
          if (later.includes('null')) options.push({ v: null });
          const nonNull = later.filter((type) => type !== 'null');
          if (nonNull.length > 0) options.push({ v: { $type: nonNull } });
          return options.length === 1 ? options[0]! : { $or: options };
        };
        const equal = { $and: [{ v: value }, ID_AT_OR_AFTER] };
        expect(keysetFilter([asc('v'), asc('id')], { id: CURSOR_ID, v: value }))
          .to.deep.equal({ $or: [expectedAfter('$gt', laterAscending), equal] });
        expect(keysetFilter([desc('v'), asc('id')], { id: CURSOR_ID, v: value }))
          .to.deep.equal({ $or: [expectedAfter('$lt', laterDescending), equal] });
      });
    }

    it('three keys: each branch fixes the keys before it', () => {
      const filter = keysetFilter([asc('path'), desc('updatedAt'), desc('id')], { id: CURSOR_ID, path: '/a', updatedAt: new Date(5) });
      expect(filter).to.deep.equal({
        $or: [
          { $or: [{ path: { $gt: '/a' } }, { path: { $type: ['object', 'bool', 'date'] } }] },
          { $and: [{ path: '/a' }, { $or: [{ updatedAt: { $lt: new Date(5) } }, { updatedAt: null }, { updatedAt: { $type: ['number', 'string', 'object', 'bool'] } }] }] },
          { $and: [{ path: '/a' }, { updatedAt: new Date(5) }, { id: { $lte: CURSOR_ID } }] },
        ],
      });
    });
  });

  describe('keysetFilter: meaning (against a model of MongoDB matching)', () => {
    // Stored values of every type a scalar field can hold, with duplicates likely.
    const storedValue = fc.oneof(
      fc.constant(undefined), fc.constant(null),
      fc.constantFrom(-1.5, 0, 2, 10),
      fc.constantFrom('', 'a', 'B', 'b', 'é', 'ｚ', '😀'),
      fc.constantFrom('a\u0000', 'a\u0000b', '\u0000').map(encodeValue),
      fc.boolean(),
      fc.constantFrom(0, 1, 2).map((ms) => new Date(ms)),
    );
    const documents = fc.uniqueArray(
      fc.record({ id: fc.stringMatching(/^[0-9A-Za-z]{3}$/), a: storedValue, b: storedValue }),
      { minLength: 1, maxLength: 25, selector: (doc) => doc.id },
    ).map((docs) => docs.map(withoutUndefined));
    const sorts = fc.uniqueArray(
      fc.record({ field: fc.constantFrom('a', 'b', 'id'), direction: fc.constantFrom(1 as const, -1 as const) }),
      { minLength: 1, maxLength: 3, selector: (key) => key.field },
    );

    it('selects exactly the cursor item and the items after it, for any sort and any cursor', () => {
      fc.assert(fc.property(documents, sorts, fc.nat(), (docs, sort, pick) => {
        const keys = withTieBreaker(sort);
        const cursor = docs[pick % docs.length]!;
        const order = recordOrder(keys);
        const filter = keysetFilter(keys, cursor);
        for (const doc of docs) {
          expect(matches(filter, doc), `${JSON.stringify(filter)} on ${JSON.stringify(doc)}`).to.equal(order(doc, cursor) >= 0);
        }
      }), { numRuns: 500 });
    });
  });
});

function withoutUndefined(doc: Record<string, unknown>): Document {
  return Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== undefined));
}

// A model of the MongoDB query operators keysetFilter uses, written from MongoDB's manual:
// equality with null also matches a missing field; comparison operators only match values of
// the same BSON type as the operand ("type bracketing"); $type takes aliases.
const TYPE_ALIAS: Record<string, number> = { null: 0, number: 1, string: 2, object: 3, bool: 4, date: 5 };

function matches(filter: Document, doc: Document): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$or') return (condition as Document[]).some((branch) => matches(branch, doc));
    if (key === '$and') return (condition as Document[]).every((branch) => matches(branch, doc));
    return fieldMatches(doc[key], condition);
  });
}

function fieldMatches(value: unknown, condition: unknown): boolean {
  const isOperators = typeof condition === 'object' && condition !== null && !(condition instanceof Date)
    && Object.keys(condition).every((key) => key.startsWith('$'));
  if (!isOperators) return typeRank(value) === typeRank(condition) && compareBson(value, condition) === 0;
  return Object.entries(condition as Document).every(([operator, operand]) => {
    // `$type: 'null'` does not match a missing field.
    if (operator === '$type') return value !== undefined && (operand as string[]).some((alias) => typeRank(value) === TYPE_ALIAS[alias]);
    if (value === undefined || typeRank(value) !== typeRank(operand)) return false;
    const order = compareBson(value, operand);
    switch (operator) {
      case '$gt': return order > 0;
      case '$gte': return order >= 0;
      case '$lt': return order < 0;
      case '$lte': return order <= 0;
      default: throw new Error(`model has no ${operator}`);
    }
  });
}
