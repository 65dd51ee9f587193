// Unit tests for server/search/text.ts: how text becomes search terms, for documents and queries alike.
import { expect } from 'chai';
import { canonical, methodAction, methodText, termsOf, wordsOf } from '../../server/search/text.ts';

describe('search terms (server/search/text.ts)', () => {
  it('splits identifiers, paths and prose into lower-case words', () => {
    expect(wordsOf('findPetsByStatus')).to.deep.equal(['find', 'pets', 'by', 'status']);
    expect(wordsOf('/pets/{petId}/photos')).to.deep.equal(['pets', 'pet', 'id', 'photos']);
    expect(wordsOf('get_user-byID  HTTPServer repos/list-for-org')).to.deep.equal(['get', 'user', 'by', 'id', 'http', 'server', 'repos', 'list', 'for', 'org']);
    expect(wordsOf(' ,; ')).to.deep.equal([]);
  });

  it('stems, so singular and plural and the forms of a verb are one term', () => {
    expect(termsOf('repositories')).to.deep.equal(termsOf('repository'));
    expect(termsOf('invoices')).to.deep.equal(termsOf('invoice'));
    expect(termsOf('deleting deleted')).to.deep.equal(termsOf('delete delete'));
  });

  it('drops stop words but never the verbs people use for methods', () => {
    expect(termsOf('the list of all the pets for a user')).to.deep.equal(['list', 'pet', 'user']);
    expect(termsOf('get me a new one')).to.include.members(['get', 'new']);
    expect(termsOf('make it')).to.deep.equal(['make']);
  });

  it('gives each method the verbs people say for it', () => {
    expect(termsOf(methodText('POST'))).to.include.members(termsOf('create add new open make'));
    expect(termsOf(methodText('delete'))).to.include.members(termsOf('delete remove cancel'));
    expect(termsOf(methodText('get'))).to.include.members(termsOf('list get find show read retrieve'));
    expect(termsOf(methodText('patch'))).to.include.members(termsOf('update edit change set modify'));
    expect(termsOf(methodText('put'))).to.include.members(termsOf('update edit change set modify'));
  });

  it('compares a verb with names as its action, so "open" is as good as "create"', () => {
    const action = (text: string) => termsOf(text).map(canonical);
    expect(action('open')).to.deep.equal(action('create'));
    expect(action('remove')).to.deep.equal(action('delete')).and.deep.equal([methodAction('DELETE')]);
    expect(action('edit')).to.deep.equal([methodAction('patch')]).and.deep.equal([methodAction('put')]);
    expect(action('list')).to.deep.equal([methodAction('get')]);
    // In an operationId `Post` names the method, not what it does (PostCustomersCustomer updates).
    expect(action('post')).to.deep.equal(['post']);
    expect(action('customers')).to.deep.equal(['custom']);
  });
});
