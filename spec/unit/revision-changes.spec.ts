// Unit tests for writtenBetween (tenancy/revisions.ts): which records a kept search index must read
// again, from the writes listed on the version, and when the list cannot say (null: the caller
// reads the collections written whole).
import { expect } from 'chai';
import { createdEmpty, listedBefore, revisionAfter, writtenBetween, type Change, type Revision } from '../../server/tenancy/revisions.ts';

const revision = (token: string, collections: Record<string, string>): Revision => ({ token, collections });
const SEARCHED = ['operations', 'paths'];

describe('writtenBetween', () => {
  const changes: Change[] = [
    { token: 't1', collections: ['operations'], ids: ['o1'] },
    { token: 't2', collections: ['operations'], ids: ['o2', 'o3'] },
    { token: 't3', collections: ['responses'], ids: ['r1'] },
    { token: 't4', collections: ['paths'], ids: ['p1'] },
    { token: 't5', collections: ['operations'], ids: ['o1'] },
  ];
  const kept = revision('t1', { operations: 't1' });

  it('gives the ids written to each collection after the kept revision, up to the current one', () => {
    const written = writtenBetween(changes, kept, revision('t4', { operations: 't2', paths: 't4', responses: 't3' }), SEARCHED);
    expect(written).to.deep.equal(new Map([['operations', new Set(['o2', 'o3'])], ['paths', new Set(['p1'])]]));
  });

  it('cannot say when the kept revision has fallen off the list', () => {
    expect(writtenBetween(changes.slice(1), kept, revision('t5', { operations: 't5', paths: 't4' }), SEARCHED)).to.equal(null);
  });

  it('cannot say when the current revision is not listed', () => {
    expect(writtenBetween(changes, kept, revision('t6', { operations: 't6', paths: 't4' }), SEARCHED)).to.equal(null);
  });

  it('cannot say when a write in between names a whole collection searched', () => {
    const whole = [...changes, { token: 't6', collections: ['operations', 'paths', 'responses'] }];
    expect(writtenBetween(whole, kept, revision('t6', { operations: 't6', paths: 't6' }), SEARCHED)).to.equal(null);
  });

  it('ignores a whole-collection write to a collection not searched', () => {
    const other = [...changes, { token: 't6', collections: ['responses'] }];
    expect(writtenBetween(other, revision('t5', { operations: 't5', paths: 't4' }), revision('t6', { operations: 't5', paths: 't4' }), SEARCHED)).to.deep.equal(new Map());
  });

  it('cannot say when the last listed write to a collection does not carry its current token (an entry lost)', () => {
    expect(writtenBetween(changes, kept, revision('t4', { operations: 't9', paths: 't4' }), SEARCHED)).to.equal(null);
  });
});

// What an import's hand-over to the search index (search/indexes.ts imported) is applied to: the
// change listed just before its own, which must be the kept revision or the version's creation.
describe('listedBefore and revisionAfter', () => {
  const changes: Change[] = [
    { token: 't1', collections: [], empty: true },
    { token: 't2', collections: ['operations', 'paths'] },
    { token: 't3', collections: ['operations'], ids: ['o1'] },
  ];

  it('gives the change listed just before a write, the creation for the first one', () => {
    expect(listedBefore(changes, 't2')).to.deep.equal(changes[0]);
    expect(listedBefore(changes, 't3')?.token).to.equal('t2');
  });

  it('cannot say for a write not listed, or listed first (what came before it has fallen off)', () => {
    expect(listedBefore(changes, 't4')).to.equal(undefined);
    expect(listedBefore(changes.slice(1), 't2')).to.equal(undefined);
  });

  it('gives the revision a bump sets: the write\'s token for the version and each collection it names', () => {
    expect(revisionAfter(revision('t2', { operations: 't2', paths: 't2' }), 't3', ['operations'])).to.deep.equal(revision('t3', { operations: 't3', paths: 't2' }));
  });

  it('lists a version made empty as such, its revision the entry\'s token', () => {
    const { revision: token, changes: [entry] } = createdEmpty();
    expect(JSON.parse(entry!)).to.deep.equal({ token, collections: [], empty: true });
  });
});
