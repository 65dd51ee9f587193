// A version's search index patched after a write (VersionIndex.patched, server/search/ranking.ts):
// only the documents of the operations the written records touch are made anew, and the
// patched index answers exactly what an index built from scratch on the same records answers,
// for any mix of writes to operations, paths, services and parameters. A patch of an index that
// is no longer its engine's latest is a whole build, so two patches never change one engine.
// Where more operations tie than are taken as candidates, the ones taken do not depend on the
// order the engine was given its documents in.
import { expect } from 'chai';
import fc from 'fast-check';
import { SEARCH_COLLECTIONS, viewFrom, type Name, type VersionView } from '../../server/search/endpoints.ts';
import { VersionIndex } from '../../server/search/ranking.ts';
import { patchedVectorTable, vectorTableOf } from '../../server/search/vectors.ts';
import type { CatalogRecord } from '../../server/store/records.ts';
import { titleOf } from '../../server/search/documents.ts';

const WORDS = ['invoice', 'zebra', 'refund', 'customer', 'okapi', 'charge', 'list', 'create', 'delete', 'status', 'giraffe', 'payment'];
const QUERIES = ['invoice', 'zebra refund', 'create a customer', 'delete okapi', 'list payments', 'status', 'giraffe charge', 'svc1'];

type Records = Record<Name, CatalogRecord[]>;

const record = (id: string, fields: Record<string, unknown>): CatalogRecord => ({ id, versionId: 'v', ...fields }) as CatalogRecord;

/** A version of `size` operations over a few paths and two services, with parameters. */
function version(size: number): Records {
  const services = [record('svc0', { slug: 'svc0', name: 'Service zero' }), record('svc1', { slug: 'svc1', name: 'Service one' })];
  const paths = Array.from({ length: Math.ceil(size / 2) }, (_, i) => record(`path${i}`, { serviceId: `svc${i % 2}`, path: `/${WORDS[i % WORDS.length]}s/{id}/${WORDS[(i * 5) % WORDS.length]}` }));
  const operations = Array.from({ length: size }, (_, i) => record(`op${i}`, {
    pathId: `path${Math.floor(i / 2)}`, method: ['get', 'post', 'put', 'delete'][i % 4], operationId: `${WORDS[i % WORDS.length]}${WORDS[(i * 7) % WORDS.length]}${i}`,
    ...(i % 3 === 0 ? { description: `Does ${WORDS[(i * 3) % WORDS.length]} things. More text.` } : { summary: `The ${WORDS[(i * 11) % WORDS.length]} of a ${WORDS[i % WORDS.length]}` }),
  }));
  const parameters = Array.from({ length: size }, (_, i) => record(`par${i}`, i % 2 === 0 ? { operationId: `op${i}`, name: WORDS[(i * 5) % WORDS.length] } : { pathId: `path${Math.floor(i / 2)}`, name: `${WORDS[i % WORDS.length]}Id` }));
  return { services, paths, operations, parameters, servers: [], 'security-schemes': [], requests: [] };
}

const viewOf = (records: Records): VersionView => viewFrom('v', SEARCH_COLLECTIONS.map((name) => [name, [...records[name]]] as const));

/** One write: a record of a collection replaced with other words, created, or deleted. */
const write = fc.record({
  collection: fc.constantFrom<Name>('operations', 'paths', 'services', 'parameters'),
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'create', 'delete'),
  word: fc.constantFrom(...WORDS),
});

interface Write { collection: Name; at: number; kind: string; word: string }

function applied(records: Records, writes: readonly Write[]): { records: Records; written: Map<string, Set<string>> } {
  const next = Object.fromEntries(SEARCH_COLLECTIONS.map((name) => [name, [...records[name]]])) as Records;
  const written = new Map<string, Set<string>>();
  writes.forEach(({ collection, at, kind, word }, n) => {
    const list = next[collection];
    const ids = written.get(collection) ?? new Set<string>();
    written.set(collection, ids);
    if (kind === 'create' || list.length === 0) {
      const id = `new-${collection}-${n}`;
      const owner = next.operations[at % Math.max(1, next.operations.length)];
      const fields: Record<Name, Record<string, unknown>> = {
        operations: { pathId: next.paths[at % Math.max(1, next.paths.length)]?.id, method: 'post', operationId: `${word}New${n}`, summary: `New ${word}` },
        paths: { serviceId: 'svc0', path: `/${word}/new${n}` },
        services: { slug: `${word}-svc`, name: `${word} service` },
        parameters: { operationId: owner?.id, name: `${word}Filter` },
        servers: {}, 'security-schemes': {}, requests: {},
      };
      list.push(record(id, fields[collection]));
      ids.add(id);
      return;
    }
    const target = list[at % list.length]!;
    ids.add(target.id);
    if (kind === 'delete') list.splice(list.indexOf(target), 1);
    else {
      const changes: Record<Name, Record<string, unknown>> = {
        operations: { summary: `Now ${word}`, operationId: `${word}Changed${n}`, ...(at % 2 === 0 ? { pathId: next.paths[at % next.paths.length]?.id } : {}) },
        paths: { path: `/${word}s/{id}`, ...(at % 2 === 0 ? { serviceId: 'svc1' } : {}) },
        services: { name: `${word} works`, slug: `${word}-works` },
        parameters: at % 2 === 0 ? { name: `${word}Param` } : { operationId: undefined, pathId: next.paths[at % next.paths.length]?.id, name: `${word}Key` },
        servers: {}, 'security-schemes': {}, requests: {},
      };
      list[list.indexOf(target)] = record(target.id, { ...target, ...changes[collection] });
    }
  });
  return { records: next, written };
}

const answers = (index: VersionIndex) => Promise.all(QUERIES.map((query) => index.search({ query, limit: 50 })));

describe('search index patched after a write', () => {
  it('answers what an index built from scratch answers, after any writes', async () => {
    await fc.assert(fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
      const records = version(40);
      const kept = await VersionIndex.of(viewOf(records));
      const { records: after, written } = applied(records, writes);
      const patched = await kept.patched(viewOf(after), written);
      expect(patched.changed, 'patched in place').to.not.equal(undefined);
      expect(await answers(patched)).to.deep.equal(await answers(await VersionIndex.of(viewOf(after))));
    }), { numRuns: 60 });
  });

  it('makes anew only the documents of the operations touched', async () => {
    const records = version(400);
    const kept = await VersionIndex.of(viewOf(records));
    const { records: after, written } = applied(records, [{ collection: 'operations', at: 7, kind: 'replace', word: 'zebra' }]);
    const patched = await kept.patched(viewOf(after), written);
    expect([...patched.changed!]).to.deep.equal(['op7']);
    // A path's write touches the operations under it.
    const { records: again, written: path } = applied(after, [{ collection: 'paths', at: 3, kind: 'replace', word: 'okapi' }]);
    expect([...(await patched.patched(viewOf(again), path)).changed!].sort()).to.deep.equal(['op6', 'op7']);
  });

  it('builds whole when the index was patched already, and the older index answers from its own operations', async () => {
    const records = version(40);
    const kept = await VersionIndex.of(viewOf(records));
    const before = await answers(kept);
    const { records: after, written } = applied(records, [{ collection: 'operations', at: 0, kind: 'delete', word: 'zebra' }, { collection: 'operations', at: 0, kind: 'create', word: 'giraffe' }]);
    const first = await kept.patched(viewOf(after), written);
    expect(first.changed).to.not.equal(undefined);
    const second = await kept.patched(viewOf(after), written);
    expect(second.changed, 'a whole build').to.equal(undefined);
    expect(await answers(second)).to.deep.equal(await answers(first));
    // The older index never answers an operation it does not have (the created one), nor the deleted one.
    const ids = new Set(records.operations.map((operation) => operation.id));
    for (const hits of await answers(kept)) for (const hit of hits) expect(ids.has((hit['operation'] as { id: string }).id)).to.equal(true);
    expect((await answers(kept)).flat().some((hit) => (hit['operation'] as { id: string }).id === 'op0')).to.equal(false);
    expect(before.flat().some((hit) => (hit['operation'] as { id: string }).id === 'op0')).to.equal(true);
  });

  it('answers what a whole build answers when more operations tie than it takes as candidates', async () => {
    // 300 GET operations alike: "show" finds each by its method's verbs with one score.
    const records = version(0);
    records.services = [record('svc0', { slug: 'svc0', name: 'Service zero' })];
    records.paths = Array.from({ length: 300 }, (_, i) => record(`path${i}`, { serviceId: 'svc0', path: `/things${i}` }));
    records.operations = records.paths.map((path, i) => record(`op${i}`, { pathId: path.id, method: 'get', operationId: `thing${i}`, summary: `Thing ${i}` }));
    const table = (view: VersionView) => {
      const made = vectorTableOf(view, 'sha', titleOf);
      for (const id of made.texts.keys()) made.vectors.set(id, Float32Array.of(1, Number(id.slice(2)) % 7 / 10));
      return made;
    };
    const kept = await VersionIndex.of(viewOf(records));
    // The first 50 written again as they were: the patch adds their documents after the others.
    const patched = await kept.patched(viewOf(records), new Map([['operations', new Set(records.operations.slice(0, 50).map((operation) => operation.id))]]));
    const whole = await VersionIndex.of(viewOf(records));
    [patched.vectors, whole.vectors] = [table(patched.view), table(whole.view)];
    for (const vector of [undefined, Float32Array.of(0.6, 0.8)]) {
      const ask = async (index: VersionIndex) => (await index.search({ query: 'show me as away', limit: 20, ...(vector ? { vector } : {}) })).map((hit) => (hit['operation'] as { operationId: string }).operationId);
      expect(await ask(patched), vector ? 'hybrid' : 'lexical').to.deep.equal(await ask(whole));
    }
    expect((await whole.search({ query: 'show', limit: 3 })).map((hit) => (hit['operation'] as { operationId: string }).operationId)).to.deep.equal(['thing0', 'thing1', 'thing10']);
  });

  it('keeps the vectors and texts of the operations not touched', async () => {
    const records = version(40);
    const table = vectorTableOf(viewOf(records), 'sha', titleOf);
    for (const id of table.texts.keys()) table.vectors.set(id, Float32Array.of(1));
    const { records: after } = applied(records, [{ collection: 'operations', at: 5, kind: 'replace', word: 'okapi' }]);
    const patched = patchedVectorTable(table, new Set(['op5']), viewOf(after), 'sha', titleOf);
    expect(patched.texts).to.deep.equal(vectorTableOf(viewOf(after), 'sha', titleOf).texts);
    expect(patched.vectors.has('op5')).to.equal(false);
    expect(patched.vectors.size).to.equal(table.vectors.size - 1);
  });
});
