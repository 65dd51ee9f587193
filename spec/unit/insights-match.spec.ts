// Matching calls to services and operations (server/insights/match.ts), without a database:
// servers with variables and base paths, the most literal template, shadow paths folded.
import { expect } from 'chai';
import { Matcher, expand, foldIds } from '../../server/insights/match.ts';
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

  it('keeps an undocumented call of a known service under its path, ids folded', () => {
    const { matcher, zoo } = catalog();
    expect(matcher.match(call('https://eu.zoo.example/v1/pets/3', 'POST'))).to.deep.equal({ service: zoo, operation: null, path: '/pets/{id}' });
    expect(foldIds('/a/12/b/3f2504e0-4f89-11d3-9a0c-0305e82c3301/c/op_01JDQ6AAAAAAAAAAAAAAAAAAAA/d/deadbeefdeadbeef/e/name')).to.equal('/a/{id}/b/{id}/c/{id}/d/{id}/e/name');
  });

  it('attributes a call no server claims to the fallback service', () => {
    const { matcher, zoo } = catalog();
    expect(matcher.match({ method: 'GET', host: undefined, path: '/v1/pets/mine' }, zoo)?.operation?.['operationId']).to.equal('get /pets/mine');
    expect(matcher.match({ method: 'GET', host: 'elsewhere', path: '/pets' }, zoo)?.operation?.['operationId']).to.equal('get /pets');
  });
});
