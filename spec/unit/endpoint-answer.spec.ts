// Unit tests for server/search/endpoint-answer.ts: get_endpoint's answer without bookkeeping, one
// entry per distinct body, and cut down the ladder (examples, descriptions, error schemas,
// depth across $refs) only as far as the bound needs, saying what was cut.
import { expect } from 'chai';
import { endpointAnswer, type EndpointParts } from '../../server/search/endpoint-answer.ts';
import type { CatalogRecord } from '../../server/store/records.ts';

const record = (fields: Record<string, unknown>): CatalogRecord => ({ id: 'rec_1', versionId: 'ver_1', updatedAt: '2026-11-25T00:00:00.000Z', kvStorage: {}, ...fields });

function parts(overrides: Partial<EndpointParts> = {}): EndpointParts {
  return {
    endpoint: { operation: { id: 'op_1', operationId: 'addNote' }, path: { id: 'path_1', path: '/notes' }, service: { id: 'svc_1', slug: 'notes', name: 'Notes' }, observed: null },
    operation: record({ id: 'op_1', operationId: 'addNote', method: 'post', pathId: 'path_1', summary: 'Add a note', tags: [], security: [{ key: [] }] }),
    parameters: [record({ id: 'param_1', operationId: 'op_1', name: 'dryRun', in: 'query', required: false, deprecated: false, schema: { type: 'boolean' }, examples: {} })],
    requests: [
      record({ id: 'req_1', operationId: 'op_1', contentMediaType: 'application/json', schema: { $ref: '#/components/schemas/Note' }, headers: {}, examples: {} }),
      record({ id: 'req_2', operationId: 'op_1', contentMediaType: 'application/xml', schema: { $ref: '#/components/schemas/Note' }, headers: {}, examples: {} }),
      record({ id: 'req_3', operationId: 'op_1', contentMediaType: 'text/plain', schema: { type: 'string' }, headers: {}, examples: {} }),
    ],
    responses: [record({ id: 'res_1', operationId: 'op_1', statusCode: 201, contentMediaType: null, description: 'Added', headers: {}, examples: {} })],
    components: new Map<string, unknown>([['Note', { type: 'object', properties: { text: { type: 'string' }, author: { $ref: '#/components/schemas/Person' } } }], ['Person', { type: 'object', properties: { name: { type: 'string' } } }]]),
    ...overrides,
  };
}

// A body with many fields, each long-described, exemplified and nested: far over any bound.
function hugeBody(): Record<string, unknown> {
  const nested = (depth: number): Record<string, unknown> => (depth === 0 ? { type: 'string', description: 'Leaf. '.repeat(20) }
    : { type: 'object', description: `Level ${depth}. ${'More words here. '.repeat(10)}`, example: { a: 'x'.repeat(200) }, properties: { a: nested(depth - 1), b: nested(depth - 1) } });
  return { type: 'object', required: ['field0'], properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, nested(4)])) };
}

describe('get_endpoint answer', () => {
  it('drops bookkeeping and empty defaults, keeps the operation\'s id and operationId', () => {
    const answer = endpointAnswer(parts());
    expect(answer['operation']).to.deep.equal({ id: 'op_1', operationId: 'addNote', method: 'post', summary: 'Add a note' });
    expect(answer['parameters']).to.deep.equal([{ name: 'dryRun', in: 'query', schema: { type: 'boolean' } }]);
    expect(answer['responses']).to.deep.equal([{ statusCode: 201, description: 'Added' }]);
    expect(JSON.stringify(answer)).to.not.match(/"(versionId|updatedAt|kvStorage|pathId)"|rec_1/);
    expect(answer).to.not.have.property('truncated');
  });

  it('gives one entry per distinct body with its media types, and the schemas they reference', () => {
    const answer = endpointAnswer(parts());
    expect(answer['requests']).to.deep.equal([
      { mediaTypes: ['application/json', 'application/xml'], schema: { $ref: '#/components/schemas/Note' } },
      { mediaTypes: ['text/plain'], schema: { type: 'string' } },
    ]);
    expect(Object.keys(answer['schemas'] as object)).to.deep.equal(['Note', 'Person']);
  });

  it('cuts a huge body down to the bound, keeping every top-level field named and saying what was cut', () => {
    const big = parts({ requests: [record({ id: 'req_1', operationId: 'op_1', contentMediaType: 'application/json', schema: hugeBody() })] });
    const full = JSON.stringify(endpointAnswer(big, Number.MAX_SAFE_INTEGER)).length;
    const answer = endpointAnswer(big, 16 * 1024);
    const size = Buffer.byteLength(JSON.stringify(answer));
    expect(full).to.be.above(100 * 1024);
    expect(size).to.be.at.most(16 * 1024);
    const schema = (answer['requests'] as { schema: { properties: Record<string, unknown>; required: string[] } }[])[0]!.schema;
    expect(Object.keys(schema.properties)).to.have.length(40);
    expect(schema.required).to.deep.equal(['field0']);
    const truncated = answer['truncated'] as { cut: string[]; rest: string };
    expect(truncated.cut).to.include.members(['examples', 'descriptions after their first sentence']);
    expect(truncated.cut.some((note) => note.startsWith('schemas nested deeper than'))).to.equal(true);
    expect(truncated.rest).to.equal('The whole operation is in the service\'s OpenAPI document: get_openapi {version, service: "notes", path: "/notes"}, at paths["/notes"].post.');
  });

  it('cuts only as far as needed: a bound that the answer without examples meets keeps the descriptions whole', () => {
    const withExamples = parts({ requests: [record({ id: 'req_1', operationId: 'op_1', contentMediaType: 'application/json', schema: { type: 'object', description: 'A note. It has text.', example: { text: 'x'.repeat(4000) } } })] });
    const answer = endpointAnswer(withExamples, 2048);
    expect((answer['requests'] as { schema: unknown }[])[0]!.schema).to.deep.equal({ type: 'object', description: 'A note. It has text.' });
    expect((answer['truncated'] as { cut: string[] }).cut).to.deep.equal(['examples']);
  });

  it('names a component it cannot include by its $ref and lists it as cut', () => {
    const chain = new Map<string, unknown>([
      ['A', { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }],
      ['B', { type: 'object', properties: { c: { $ref: '#/components/schemas/C' } } }],
      ['C', { type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field${i}`, { type: 'string' }])) }],
    ]);
    const answer = endpointAnswer(parts({ components: chain, requests: [record({ id: 'req_1', operationId: 'op_1', contentMediaType: 'application/json', schema: { $ref: '#/components/schemas/A' } })] }), 1500);
    const schemas = answer['schemas'] as Record<string, any>;
    expect(schemas['A']).to.deep.equal({ type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } });
    expect(schemas['B']).to.deep.equal({ type: 'object', properties: { c: { $ref: '#/components/schemas/C' } } });
    expect(schemas).to.not.have.property('C');
    expect((answer['truncated'] as { cut: string[] }).cut.some((note) => /the definitions of schemas .*C/.test(note))).to.equal(true);
  });
});
