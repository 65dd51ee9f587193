// An import's plan alone, on real descriptions and no database: from the document and the
// service's stored records to what the import inserts, replaces and deletes.
import { expect } from 'chai';
import { loadConfig } from '../../server/config.ts';
import { prepareDocument } from '../../server/descriptions/document.ts';
import { planImport, type PlanInput, type PlannedImport } from '../../server/descriptions/import-plan.ts';
import { mappedKinds } from '../../server/descriptions/kinds.ts';
import { loadSchemaRegistry } from '../../server/schemas/registry.ts';
import type { CatalogRecord } from '../../server/store/records.ts';
import { readDescription, withoutOneOperation, withPathFirst } from '../support/directory.ts';
import type { JsonObject } from '../../server/json/values.ts';

const kinds = mappedKinds(loadSchemaRegistry().collections);
const { recordLimits } = loadConfig({});

/** Ids that count up, so that two plans of one input are alike to the letter. */
function counting(): (prefix: string) => string {
  let next = 0;
  return (prefix) => `${prefix}${String(next++).padStart(26, '0')}`;
}

const nothingStored = (): Map<string, CatalogRecord[]> => new Map(kinds.map(({ name }) => [name, []]));

function input(document: JsonObject, existing: ReadonlyMap<string, readonly CatalogRecord[]>): PlanInput {
  return { document, slug: 'giphy', versionId: 'ver_01M8G4KCKFVH3TNW1J8XPW8DHP', projectId: 'prj_1', kinds, existing, limits: recordLimits, newId: counting() };
}

/** The records the plan leaves in the version, as a store would hold them. */
function storedAfter(plan: PlannedImport): Map<string, CatalogRecord[]> {
  const updatedAt = '2026-01-01T00:00:00.000Z';
  return new Map(kinds.map(({ name }) => {
    const deleted = new Set(plan.deletes.get(name));
    const replaced = new Map(plan.replaces.get(name)!.map((record) => [record.id, record]));
    const kept = (plan.existing.get(name) ?? []).filter((record) => !deleted.has(record.id)).map((record) => replaced.get(record.id) ?? record);
    return [name, [...kept, ...plan.inserts.get(name)!].map((record) => ({ ...structuredClone(record), updatedAt }))];
  }));
}

const count = (records: ReadonlyMap<string, readonly unknown[]>): number => [...records.values()].reduce((sum, list) => sum + list.length, 0);

describe('unit: an import\'s plan (Giphy\'s description)', function () {
  this.timeout(30_000);
  let giphy: JsonObject;
  let first: PlannedImport;
  before(async () => {
    giphy = await prepareDocument(readDescription('giphy.com.json'));
    first = await planImport(input(giphy, nothingStored()));
  });

  it('inserts every record of a service not there yet, and counts them created', () => {
    expect(count(first.inserts)).to.be.greaterThan(50);
    expect(count(first.replaces) + count(first.deletes)).to.equal(0);
    for (const { name } of kinds) expect(first.changes[name], name).to.deep.equal({ created: first.inserts.get(name)!.length, updated: 0, deleted: 0, unchanged: 0 });
    expect(first.inserts.get('services')!.map(({ id }) => id)).to.deep.equal([first.serviceId]);
    expect(first.inserts.get('operations')!.length).to.equal(Object.values(giphy['paths'] as JsonObject).reduce<number>((sum, item) => sum + Object.keys(item as JsonObject).filter((key) => key === 'get' || key === 'post').length, 0));
  });

  it('is the same plan for the same input, and leaves the stored records it is given as they were', async () => {
    const stored = storedAfter(first);
    const before = structuredClone(stored);
    const [a, b] = [await planImport(input(giphy, stored)), await planImport(input(giphy, stored))];
    expect(a).to.deep.equal(b);
    expect(stored).to.deep.equal(before);
  });

  it('writes nothing when the document is what is stored: the same ids, all unchanged', async () => {
    const again = await planImport(input(giphy, storedAfter(first)));
    expect(again.serviceId).to.equal(first.serviceId);
    expect(count(again.inserts) + count(again.replaces) + count(again.deletes)).to.equal(0);
    for (const { name } of kinds) expect(again.changes[name], name).to.deep.equal({ created: 0, updated: 0, deleted: 0, unchanged: first.inserts.get(name)!.length });
  });

  it('deletes an operation the document no longer has, with what it owns, and leaves the rest', async () => {
    const less = withoutOneOperation(giphy)!;
    const plan = await planImport(input(await prepareDocument(less.document), storedAfter(first)));
    const [method, path] = less.operation.split(' ');
    const gone = first.inserts.get('operations')!.find((operation) => operation['method'] === method!.toLowerCase()
      && first.inserts.get('paths')!.find(({ id }) => id === operation['pathId'])?.['path'] === path)!;
    expect(plan.deletes.get('operations')).to.deep.equal([gone.id]);
    const owned = (name: string) => first.inserts.get(name)!.filter((record) => record['operationId'] === gone.id).map(({ id }) => id);
    for (const name of ['parameters', 'requests', 'responses']) expect(plan.deletes.get(name), name).to.deep.equal(owned(name));
    expect(count(plan.inserts) + count(plan.replaces)).to.equal(0);
  });

  it('inserts only the records of a path put before all others: the stored ones keep their places', async () => {
    const plan = await planImport(input(await prepareDocument(withPathFirst(giphy)), storedAfter(first)));
    expect(plan.inserts.get('paths')!.map((record) => record['path'])).to.deep.equal(['/catalog-spec-inserted']);
    expect(plan.inserts.get('operations')!.map((record) => record['operationId'])).to.deep.equal(['catalogSpecInserted']);
    expect(count(plan.replaces) + count(plan.deletes)).to.equal(0);
  });
});
