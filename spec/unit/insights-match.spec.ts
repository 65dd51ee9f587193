// Matching calls to services and operations (server/insights/match.ts), without a database:
// servers with variables and base paths, the most literal template, templates taken literally
// (no regular expression, no wildcard), shadow paths as templates.
import { expect } from 'chai';
import { foldIds } from '../../server/insights/ids.ts';
import { Matcher, expand } from '../../server/insights/match.ts';
import type { CatalogRecord } from '../../server/store/records.ts';

const VERSION = 'ver_01JDQ6AAAAAAAAAAAAAAAAAAAA';
let next = 0;
const record = (fields: Record<string, unknown>): CatalogRecord => ({ id: `x_${++next}`, versionId: VERSION, ...fields });

function catalog(): { matcher: Matcher; zoo: CatalogRecord; other: CatalogRecord } {
  const zoo = record({ slug: 'zoo' });
  const other = record({ slug: 'other' });
  const paths = ['/pets', '/pets/mine', '/pets/{petId}', '/pets/{petId}/toys/{toyId}', '/files/{name}.{ext}', '/v1/{name}:cancel']
    .map((path) => record({ serviceId: zoo.id, path }));
  const otherPath = record({ serviceId: other.id, path: '/pets/{id}' });
  const operations = [...paths.map((path) => record({ pathId: path.id, method: 'get', operationId: `get ${String(path['path'])}` })), record({ pathId: otherPath.id, method: 'get', operationId: 'other' })];
  const servers = [
    record({ serviceId: zoo.id, url: 'https://{region}.zoo.example/{base}', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, base: { default: 'v1', enum: ['v1'] } } }),
    record({ serviceId: other.id, url: 'https://eu.zoo.example/v1/other' }),
    record({ serviceId: other.id, url: '//k8s.local' }),
  ];
  return { matcher: new Matcher({ services: [zoo, other], paths: [...paths, otherPath], operations, servers }), zoo, other };
}

const call = (url: string, method = 'GET') => {
  const parsed = new URL(url);
  return { method, host: parsed.host, path: parsed.pathname };
};

describe('insights: matching calls', () => {
  it('expands server variables from their enum, else their default', () => {
    expect(expand('https://{region}.x/{v}', { region: { default: 'eu', enum: ['eu', 'us'] }, v: { default: 'v2' } })).to.deep.equal(['https://eu.x/v2', 'https://us.x/v2']);
    expect(expand('https://x', {})).to.deep.equal(['https://x']);
  });

  it('prefers the most literal template', () => {
    const { matcher } = catalog();
    const operationOf = (url: string) => matcher.match(call(url))?.operation?.['operationId'];
    expect(operationOf('https://eu.zoo.example/v1/pets/mine')).to.equal('get /pets/mine');
    expect(operationOf('https://us.zoo.example/v1/pets/42')).to.equal('get /pets/{petId}');
    expect(operationOf('https://us.zoo.example/v1/pets/42/')).to.equal('get /pets/{petId}');
    expect(operationOf('https://us.zoo.example/v1/pets/42/toys/7')).to.equal('get /pets/{petId}/toys/{toyId}');
    expect(operationOf('https://us.zoo.example/v1/files/a.txt')).to.equal('get /files/{name}.{ext}');
    expect(operationOf('https://us.zoo.example/v1/v1/ops:cancel')).to.equal('get /v1/{name}:cancel');
  });

  it('takes the longest base path among the servers of every service', () => {
    const { matcher, other, zoo } = catalog();
    expect(matcher.match(call('https://eu.zoo.example/v1/other/pets/3'))).to.include({ service: other });
    expect(matcher.match(call('https://eu.zoo.example/v1/pets/3'))).to.include({ service: zoo });
    expect(matcher.match(call('http://k8s.local:80/pets/3'))?.service).to.equal(other);
    expect(matcher.match(call('https://asia.zoo.example/v1/pets'))).to.equal(null);
    expect(matcher.match(call('https://eu.zoo.example/v10/pets'))).to.equal(null);
  });

  it('keeps an undocumented call of a known service under a template: the documented parameter where there is one, else ids folded', () => {
    const { matcher, zoo } = catalog();
    expect(matcher.match(call('https://eu.zoo.example/v1/pets/3', 'POST'))).to.deep.equal({ service: zoo, operation: null, path: '/pets/{petId}', grouped: true });
    expect(matcher.match(call('https://eu.zoo.example/v1/pets/rex/toys/7/parts', 'GET'))).to.deep.equal({ service: zoo, operation: null, path: '/pets/{petId}/toys/{toyId}/parts', grouped: true });
    expect(matcher.match(call('https://eu.zoo.example/v1/pets/mine', 'POST'))).to.deep.equal({ service: zoo, operation: null, path: '/pets/mine' });
    expect(matcher.match(call('https://eu.zoo.example/v1/cages/12/%7Bx%7D', 'GET'))?.path).to.equal('/cages/{id}/%7Bx%7D');
    const segments = 'a/12/b/3f2504e0-4f89-11d3-9a0c-0305e82c3301/c/op_01JDQ6AAAAAAAAAAAAAAAAAAAA/d/deadbeefdeadbeef/e/name/{f}'.split('/');
    expect(foldIds(segments)).to.deep.equal({ path: '/a/{id}/b/{id}/c/{id}/d/{id}/e/name/%7Bf%7D', folded: true });
  });

  it('takes every character of a template outside {…} literally: a regular expression is text, so matching stays linear (no ReDoS)', () => {
    const service = record({ slug: 'redos' });
    const templates = ['/u/{x}(.*a.*a.*a.*a.*a.*a.*a.*z)', '/star/*', '/lit/(a|b)', '/p/:id', '/q/{id}+'];
    const paths = templates.map((path) => record({ serviceId: service.id, path }));
    const operations = paths.map((path) => record({ pathId: path.id, method: 'get', operationId: String(path['path']) }));
    const matcher = new Matcher({ services: [service], paths, operations, servers: [record({ serviceId: service.id, url: 'https://redos.example' })] });
    const operationOf = (path: string) => matcher.match({ method: 'GET', host: 'redos.example', path })?.operation?.['operationId'];
    expect(operationOf('/u/x(.*a.*a.*a.*a.*a.*a.*a.*z)')).to.equal('/u/{x}(.*a.*a.*a.*a.*a.*a.*a.*z)');
    expect(operationOf('/u/x(%2E*a.*a.*a.*a.*a.*a.*a.*z)')).to.equal('/u/{x}(.*a.*a.*a.*a.*a.*a.*a.*z)');
    // `*` is no wildcard, `(a|b)` no alternation, `:id` no router parameter, `+` no quantifier.
    expect(operationOf('/star/anything')).to.equal(undefined);
    expect(operationOf('/star/*')).to.equal('/star/*');
    expect(operationOf('/lit/a')).to.equal(undefined);
    expect(operationOf('/lit/(a|b)')).to.equal('/lit/(a|b)');
    expect(operationOf('/p/7')).to.equal(undefined);
    expect(operationOf('/p/:id')).to.equal('/p/:id');
    expect(operationOf('/q/7+')).to.equal('/q/{id}+');
    expect(operationOf('/q/77')).to.equal(undefined);
    // A regular expression engine backtracks over these for seconds (7 s at 60 characters); as text they simply do not end in the literal.
    for (const length of [60, 600, 60_000]) {
      const before = matcher.steps.count;
      expect(operationOf(`/u/${'a'.repeat(length)}`)).to.equal(undefined);
      expect(operationOf(`/u/${'a'.repeat(length)}z`)).to.equal(undefined);
      // Two look-ups, three trie nodes each at most (root, `u`, the parameter), whatever the length.
      expect(matcher.steps.count - before).to.be.at.most(6);
    }
  });

  it('backs up to a less literal template when the more literal one has no template for the call', () => {
    const service = record({ slug: 'deep' });
    const paths = ['/a/x/{p}', '/a/{p}/b', '/files/{name}.{ext}', '/files/{name}.tar.gz'].map((path) => record({ serviceId: service.id, path }));
    const operations = paths.map((path) => record({ pathId: path.id, method: 'get', operationId: String(path['path']) }));
    const matcher = new Matcher({ services: [service], paths, operations, servers: [record({ serviceId: service.id, url: 'https://deep.example' })] });
    const operationOf = (path: string) => matcher.match({ method: 'GET', host: 'deep.example', path })?.operation?.['operationId'];
    expect(operationOf('/a/x/b')).to.equal('/a/x/{p}');
    expect(operationOf('/a/x/b/')).to.equal('/a/x/{p}');
    expect(operationOf('/a/y/b')).to.equal('/a/{p}/b');
    expect(operationOf('/files/site.tar.gz')).to.equal('/files/{name}.tar.gz');
    expect(operationOf('/files/site.v2.zip')).to.equal('/files/{name}.{ext}');
    expect(operationOf('/files/.zip')).to.equal(undefined);
    expect(operationOf('/files/site.')).to.equal(undefined);
  });

  it('attributes a call no server claims to the fallback service', () => {
    const { matcher, zoo } = catalog();
    expect(matcher.match({ method: 'GET', host: undefined, path: '/v1/pets/mine' }, zoo)?.operation?.['operationId']).to.equal('get /pets/mine');
    expect(matcher.match({ method: 'GET', host: 'elsewhere', path: '/pets' }, zoo)?.operation?.['operationId']).to.equal('get /pets');
  });
});
