// JSON Pointers (RFC 6901) and component references: the one home of these rules (server/json/pointer.ts).
import { expect } from 'chai';
import { componentRef, escapeToken, pointer, unescapeToken } from '../../server/json/pointer.ts';

describe('JSON pointers', () => {
  it('escape a key into a token and back, ~ before /', () => {
    for (const [key, token] of [['a/b', 'a~1b'], ['m~n', 'm~0n'], ['~1', '~01'], ['/~', '~1~0'], ['plain', 'plain'], ['', '']]) {
      expect(escapeToken(key!)).to.equal(token);
      expect(unescapeToken(token!)).to.equal(key);
    }
  });

  it('make a pointer from keys and indexes', () => {
    expect(pointer('paths', '/pets/{id}', 'get')).to.equal('/paths/~1pets~1{id}/get');
    expect(pointer('parameters', 0)).to.equal('/parameters/0');
    expect(pointer()).to.equal('');
  });
});

describe('component references', () => {
  it('name the section and the component, percent-decoded then unescaped', () => {
    expect(componentRef('#/components/schemas/Pet')).to.deep.equal({ section: 'schemas', name: 'Pet', inside: false });
    expect(componentRef('#/components/headers/X-Rate')).to.deep.equal({ section: 'headers', name: 'X-Rate', inside: false });
    expect(componentRef('#/components/schemas/a~1b~0c')).to.deep.equal({ section: 'schemas', name: 'a/b~c', inside: false });
    expect(componentRef('#/components/schemas/My%20Pet')).to.deep.equal({ section: 'schemas', name: 'My Pet', inside: false });
  });

  it('say when they point inside the component', () => {
    expect(componentRef('#/components/schemas/Pet/properties/id')).to.deep.equal({ section: 'schemas', name: 'Pet', inside: true });
  });

  it('are undefined for other references and malformed ones', () => {
    for (const ref of ['https://example.com/pet.json', '#/definitions/Pet', '#/components/schemas', '#/components/schemas/', '#/components/schemas/100%', 'Pet']) {
      expect(componentRef(ref), ref).to.equal(undefined);
    }
  });
});
