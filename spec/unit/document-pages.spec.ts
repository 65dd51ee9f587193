// get_openapi's pages without a database: each within its bound, together the whole document;
// slices keep the operations asked for and the components they reach; a part larger than a
// page is cut by depth and named.
import { expect } from 'chai';
import { documentPage } from '../../server/descriptions/document-pages.ts';
import type { JsonObject } from '../../server/json/values.ts';

const text = (n: number) => 'x'.repeat(n);

function document(): JsonObject {
  const paths: JsonObject = {};
  for (let i = 0; i < 40; i++) {
    paths[`/things/${i}`] = {
      get: { operationId: `getThing${i}`, tags: [i % 2 === 0 ? 'even' : 'odd'], description: text(300), responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } } } },
    };
  }
  const schemas: JsonObject = {};
  for (let i = 0; i < 40; i++) schemas[`Thing${i}`] = { type: 'object', description: text(200), properties: { part: { $ref: '#/components/schemas/Part' } } };
  schemas['Part'] = { type: 'string' };
  schemas['Huge'] = { type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field${i}`, { type: 'string', description: text(40) }])) };
  return {
    openapi: '3.1.0', info: { title: 'Things', version: '1' }, servers: [{ url: 'https://things.example' }],
    security: [{ oauth: ['read'] }], tags: [{ name: 'even', description: 'Even things' }, { name: 'odd' }],
    paths, components: { schemas, securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://things.example/token', scopes: { read: 'Read' } } } } } },
  };
}

const LIMIT = 4096;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('unit: get_openapi pages (descriptions/document-pages.ts)', () => {
  it('answers a document that fits whole, as it is', () => {
    const small = { openapi: '3.1.0', info: { title: 'Small', version: '1' }, paths: { '/a': { get: { responses: {} } } } };
    expect(documentPage(small, {}, LIMIT, 'GET …')).to.deep.equal(small);
  });

  it('pages a larger one within the bound; put together the pages are the document', () => {
    const whole = document();
    const joined: Record<string, any> = {};
    const cut: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = documentPage(whole, { cursor }, LIMIT, 'GET …') as Record<string, any>;
      expect(bytes(page)).to.be.at.most(LIMIT);
      const { 'x-page': note, ...rest } = page;
      cut.push(...note.cut ?? []);
      for (const [key, value] of Object.entries(rest)) {
        if (key === 'paths') joined[key] = { ...joined[key], ...value };
        else if (key === 'components') for (const [section, entries] of Object.entries(value as object)) joined[key] = { ...joined[key], [section]: { ...joined[key]?.[section], ...entries } };
        else joined[key] = value;
      }
      cursor = note.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).to.be.above(5);
    // Huge alone is larger than a page: cut by depth, named; everything else whole.
    expect(cut).to.deep.equal(['/components/schemas/Huge']);
    expect(joined['components'].schemas.Huge).to.deep.equal({ type: 'object', properties: { 'x-truncated': '300 keys' } });
    const withoutHuge = (doc: Record<string, any>) => {
      const { Huge: _huge, ...schemas } = doc['components'].schemas;
      return { ...doc, components: { ...doc['components'], schemas } };
    };
    expect(withoutHuge(joined)).to.deep.equal(withoutHuge(whole));
  });

  it('slices by operation, path or tag with the components reached, security schemes included', () => {
    const one = documentPage(document(), { operation: 'getThing3' }, LIMIT, 'GET …') as Record<string, any>;
    expect(Object.keys(one['paths'])).to.deep.equal(['/things/3']);
    expect(Object.keys(one['components'].schemas).sort()).to.deep.equal(['Part', 'Thing3']);
    expect(Object.keys(one['components'].securitySchemes)).to.deep.equal(['oauth']);
    expect(one).to.not.have.property('tags');
    expect(one).to.not.have.property('x-page');

    expect(Object.keys((documentPage(document(), { path: '/things/7' }, LIMIT, 'GET …') as Record<string, any>)['paths'])).to.deep.equal(['/things/7']);

    const odd = documentPage(document(), { tag: 'odd' }, 64 * 1024, 'GET …') as Record<string, any>;
    expect(Object.keys(odd['paths'])).to.have.length(20);
    expect(odd['tags']).to.deep.equal([{ name: 'odd' }]);
  });

  it('refuses a cursor it did not give, and a slice that names nothing', () => {
    expect(() => documentPage(document(), { cursor: 'nonsense' }, LIMIT, 'GET …')).to.throw().with.property('status', 400);
    expect(() => documentPage(document(), { operation: 'nothing' }, LIMIT, 'GET …')).to.throw().with.property('error', 'Operation not found');
    expect(() => documentPage(document(), { path: '/nothing' }, LIMIT, 'GET …')).to.throw().with.property('error', 'Path not found');
    expect(() => documentPage(document(), { tag: 'nothing' }, LIMIT, 'GET …')).to.throw().with.property('status', 400);
  });
});
