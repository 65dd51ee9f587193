// Unit tests for server/search/score.ts: words of identifiers and paths, the weights, the order.
import { expect } from 'chai';
import { queryWords, ranked, score, WEIGHTS, wordsOf } from '../../server/search/score.ts';

const nothing = { operationId: undefined, path: undefined, summary: undefined, description: undefined, tags: undefined, parameters: undefined };

describe('search scoring (server/search/score.ts)', () => {
  it('splits identifiers, paths and prose into lower-case words', () => {
    expect(wordsOf('findPetsByStatus')).to.deep.equal(['find', 'pets', 'by', 'status']);
    expect(wordsOf('/pets/{petId}/photos')).to.deep.equal(['pets', 'pet', 'id', 'photos']);
    expect(wordsOf('get_user-byID  HTTPServer')).to.deep.equal(['get', 'user', 'by', 'id', 'http', 'server']);
    expect(queryWords('  Pets pets, STATUS ')).to.deep.equal(['pets', 'status']);
    expect(queryWords(' ,; ')).to.deep.equal([]);
  });

  it('weighs operationId and path above summary above description', () => {
    const word = ['invoice'];
    const inOperationId = score(word, { ...nothing, operationId: 'getInvoice' });
    const inPath = score(word, { ...nothing, path: '/invoice' });
    const inSummary = score(word, { ...nothing, summary: 'The invoice' });
    const inDescription = score(word, { ...nothing, description: 'Returns an invoice.' });
    expect(inOperationId).to.equal(WEIGHTS.operationId);
    expect(inPath).to.equal(WEIGHTS.path);
    expect(inSummary).to.be.below(inPath).and.above(inDescription);
    expect(inDescription).to.be.above(0);
    expect(score(word, { ...nothing, tags: ['invoice'], parameters: ['invoice'] })).to.equal(WEIGHTS.tags + WEIGHTS.parameters);
  });

  it('adds up the fields and the words that match, and matches prefixes of four letters or more only', () => {
    const searchable = { ...nothing, operationId: 'listPets', summary: 'List pets by status', description: 'Pets for sale' };
    expect(score(['pets'], searchable)).to.equal(WEIGHTS.operationId + WEIGHTS.summary + WEIGHTS.description);
    expect(score(['pets', 'status'], searchable)).to.equal(WEIGHTS.operationId + WEIGHTS.summary + WEIGHTS.description + WEIGHTS.summary);
    expect(score(['stat'], searchable)).to.equal(WEIGHTS.summary);
    expect(score(['pet'], searchable)).to.equal(0);
    expect(score(['dogs'], searchable)).to.equal(0);
  });

  it('ranks by score, then key, leaving out what does not match, up to the limit', () => {
    const items = [
      { item: 'b', score: 5, key: 'b' }, { item: 'none', score: 0, key: 'a' },
      { item: 'c', score: 10, key: 'c' }, { item: 'a', score: 5, key: 'a' },
    ];
    expect(ranked(items, 10).map((entry) => entry.item)).to.deep.equal(['c', 'a', 'b']);
    expect(ranked(items, 2).map((entry) => entry.item)).to.deep.equal(['c', 'a']);
  });
});
