// An import's changes report compares only the paths its plan touches when nothing else changes
// (server/changes/plan-scope.ts), and finds exactly what comparing the whole service finds: on
// real descriptions of every size, for the edits a CI re-import brings.
import { expect } from 'chai';
import { changesBetween, plannedSnapshot, snapshotFrom, type ChangeReport } from '../../../server/changes/catalog.ts';
import { scopedPlan } from '../../../server/changes/plan-scope.ts';
import { prepareDocument } from '../../../server/descriptions/document.ts';
import { importDocument, type ImportPlan } from '../../../server/descriptions/sync.ts';
import { readDescription, withoutOneOperation, withPathFirst } from '../../support/directory.ts';
import { bearer, givenTenant, catalogForSuite, type TestCatalog } from '../../support/catalog.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Asana and Giphy, and descriptions spread over the package's size range (below 2 MB, for the test run's time; smallest first, the largest of them last). */
const DESCRIPTIONS = [
  'asana.com.json', 'giphy.com.json',
  'ipinfodb.com.json', 'azure.com/postgresql-PrivateLinkResources.json', 'slideroom.com.json', 'azure.com/containerservice-openShiftManagedClusters.json',
  'googleapis.com/adsensehost.json', 'azure.com/sql-advisors.json', 'googleapis.com/gkeonprem.json', 'github.com/ghes-2.21.json', 'here.com/tracking.json',
];

/** The edits of a day's re-import, each a function of the document (undefined: not applicable to it). */
const EDITS: Record<string, (document: Json) => Json | undefined> = {
  'one operation removed': (document) => withoutOneOperation(document)?.document,
  'a path inserted first': (document) => withPathFirst(document),
  'an operation renamed and given a required query parameter': (document) => withOperation(document, (operation) => {
    operation['summary'] = `${String(operation['summary'] ?? '')} (renamed)`;
    operation['parameters'] = [...(operation['parameters'] ?? []), { name: 'catalogRequired', in: 'query', required: true, schema: { type: 'string' } }];
  }),
  'the last path removed': (document) => {
    const paths = Object.keys(document['paths'] ?? {});
    if (paths.length < 2) return undefined;
    const { [paths.at(-1)!]: _gone, ...rest } = document['paths'];
    return { ...document, paths: rest };
  },
  'two operations of different paths edited': (document) => {
    const once = withOperation(document, (operation) => { operation['deprecated'] = true; });
    return once && withOperation(once, (operation) => { operation['description'] = 'Edited.'; }, -1);
  },
};

/** The document with the `at`th operation (from the end when negative) changed by `edit`, on a copy. */
function withOperation(document: Json, edit: (operation: Json) => void, at = 0): Json | undefined {
  const copy = structuredClone(document);
  const operations = Object.values(copy['paths'] ?? {}).flatMap((item: any) => METHODS.filter((method) => item?.[method]).map((method) => item[method] as Json));
  const operation = operations.at(at);
  if (!operation) return undefined;
  edit(operation);
  return copy;
}

describe('changes: an import\'s report compares only the paths it touches', function () {
  this.timeout(600_000);
  let service: TestCatalog;
  catalogForSuite((made) => ({ service } = made));

  async function planOf(versionId: string, projectId: string, document: Json, slug: string): Promise<ImportPlan> {
    let plan: ImportPlan | undefined;
    const { runtime } = service;
    await importDocument({ stores: runtime.stores, versionId, projectId, limits: runtime.config.recordLimits, serviceParts: runtime.serviceParts }, await prepareDocument(structuredClone(document)), { service: slug, dryRun: true, review: async (made) => { plan = made; } });
    return plan!;
  }
  const reportOf = (plan: ImportPlan): Promise<ChangeReport> => changesBetween(snapshotFrom(plan.kinds, plan.existing), plannedSnapshot(plan), plan.serviceId);
  const pathsOf = (plan: ImportPlan): number => plan.existing.get('paths')!.length + plan.inserts.get('paths')!.length;

  it(`finds what the whole service's comparison finds, for ${Object.keys(EDITS).length} edits of ${DESCRIPTIONS.length} real descriptions`, async () => {
    let compared = 0;
    for (const file of DESCRIPTIONS) {
      const document = readDescription(file);
      const tenant = await givenTenant(service);
      const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=described`).set(bearer(tenant.key)).send(document);
      if (res.status !== 201) continue; // refused (invalid OpenAPI): nothing to re-import
      for (const [name, edit] of Object.entries(EDITS)) {
        const edited = edit(document);
        if (!edited) continue;
        const plan = await planOf(tenant.version.id, tenant.project.id, edited, 'described');
        const scoped = scopedPlan(plan);
        const [whole, cut] = [await reportOf(plan), await reportOf(scoped)];
        expect(cut, `${file}: ${name}`).to.deep.equal(whole);
        expect(whole.changes.length, `${file}: ${name} changes something`).to.be.greaterThan(0);
        if (Object.keys(document['paths'] ?? {}).length > 3) expect(pathsOf(scoped), `${file}: ${name} is cut to the paths it touches`).to.be.lessThan(pathsOf(plan));
        compared++;
      }
    }
    expect(compared).to.be.greaterThan(30);
  });

  it('compares the whole service when a schema, a server or a version-wide scheme may show under any path', async () => {
    const giphy = readDescription('giphy.com.json') as Json;
    const tenant = await givenTenant(service);
    expect((await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=giphy`).set(bearer(tenant.key)).send(giphy)).status).to.equal(201);
    const schema = structuredClone(giphy);
    delete schema['components']['schemas']['User']['properties']['avatar_url'];
    const servers = { ...giphy, servers: [{ url: 'https://api.example.com/v2' }] };
    for (const edited of [schema, servers]) {
      const plan = await planOf(tenant.version.id, tenant.project.id, edited, 'giphy');
      expect(scopedPlan(plan)).to.equal(plan);
      expect((await reportOf(plan)).summary.breaking).to.be.greaterThan(0);
    }
    // A scheme made over HTTP for the whole version: the export takes it by name for any operation.
    const versionWide = await service.request.post(`${tenant.prefixes.byId}/security-schemes`).set(bearer(tenant.key)).send({ name: 'sharedKey', type: 'apiKey', in: 'header' });
    expect(versionWide.status, JSON.stringify(versionWide.body)).to.equal(201);
    const plan = await planOf(tenant.version.id, tenant.project.id, withoutOneOperation(giphy)!.document, 'giphy');
    expect(scopedPlan(plan)).to.equal(plan);
  });

  it('answers the dry run over HTTP with the one breaking change of one operation removed', async () => {
    const asana = readDescription('asana.com.json') as Json;
    const tenant = await givenTenant(service);
    expect((await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=asana`).set(bearer(tenant.key)).send(asana)).status).to.equal(201);
    const removed = withoutOneOperation(asana)!;
    const res = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=asana&dryRun=true`).set(bearer(tenant.key)).send(removed.document);
    expect(res.status).to.equal(200);
    expect(res.body.changes.summary).to.deep.equal({ breaking: 1, nonBreaking: 0, planned: 0 });
    expect(`${res.body.changes.changes[0].operation.method} ${res.body.changes.changes[0].operation.path}`).to.equal(removed.operation);
  });
});
