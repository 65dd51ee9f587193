// The record limits (RECORD_MAX_BYTES, RECORD_MAX_KEYS, RECORD_MAX_DEPTH) hold for the records an
// import makes as they hold for request bodies: a document that would make one record beyond a
// limit is refused whole, naming the record by its pointer and the limit, and nothing is written.
import { expect } from 'chai';
import { catalogForSuite, startCatalog, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';
import { petstore } from './petstore.ts';

type Document = Record<string, unknown> & { components: { schemas: Record<string, unknown> } };

/** The petstore with one more component schema. */
function withSchema(name: string, schema: unknown): Document {
  const document = petstore() as Document;
  document.components.schemas[name] = schema;
  return document;
}

/** `levels` objects inside one another: `{not: {not: ... {type: string}}}`. */
function nested(levels: number): unknown {
  let schema: unknown = { type: 'string' };
  for (let level = 1; level < levels; level++) schema = { not: schema };
  return schema;
}

/** A schema with `count` properties, two keys each with the `properties` object's own. */
function wide(count: number): unknown {
  return { type: 'object', properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string' }])) };
}

describe('descriptions: the record limits hold for imported records', function () {
  this.timeout(120_000);
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  const importAs = (slug: string, document: object, dryRun = false) =>
    service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}${dryRun ? '&dryRun=true' : ''}`).set(bearer(tenant.key)).send(document);
  const slugs = async (): Promise<string[]> => {
    const res = await service.request.get(`${tenant.prefixes.byId}/services?limit=1000`).set(bearer(tenant.key));
    return res.body.items.map((item: { slug: string }) => item.slug);
  };
  const pathCount = async (): Promise<number> => {
    const res = await service.request.get(`${tenant.prefixes.byId}/paths?limit=1000`).set(bearer(tenant.key));
    return res.body.items.length;
  };

  it('refuses a component schema nesting 80 levels (limit 64) with 400 naming it, dry run or not, writing nothing', async () => {
    const document = withSchema('Deep', nested(80));
    for (const dryRun of [true, false]) {
      const res = await importAs('deep', document, dryRun);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.equal({
        error: 'Invalid request',
        details: [{ field: '/components/schemas/Deep', message: res.body.details[0].message }],
      });
      expect(res.body.details[0].message).to.match(/^makes a Resource record that nests deeper than 64 levels \(RECORD_MAX_DEPTH\), at \/schema\/not\//);
    }
    expect(await slugs()).to.not.include('deep');
  });

  it('refuses a component schema with 60,000 keys (limit 50,000) with 400 naming it', async () => {
    const res = await importAs('wide', withSchema('Wide', wide(30_000)));
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(400);
    expect(res.body.details).to.deep.equal([
      { field: '/components/schemas/Wide', message: 'makes a Resource record that has more than 50000 object keys in all (RECORD_MAX_KEYS)' },
    ]);
    expect(await slugs()).to.not.include('wide');
  });

  it('names every record beyond a limit, and leaves a service imported before exactly as it was', async () => {
    const first = await importAs('kept', petstore());
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const before = await pathCount();
    const document = withSchema('Deep', nested(70)) as Document & { paths: Record<string, unknown> };
    document.components.schemas['Deeper'] = nested(90);
    document.paths['/more'] = { get: { responses: { 200: { description: 'More' } } } };
    const res = await importAs('kept', document);
    expect(res.status).to.equal(400);
    expect(res.body.details.map((detail: { field: string }) => detail.field)).to.deep.equal(['/components/schemas/Deep', '/components/schemas/Deeper']);
    expect(await pathCount()).to.equal(before);
  });

  it('refuses a record larger than RECORD_MAX_BYTES with 413 naming it', async () => {
    const small = await startCatalog({ RECORD_MAX_BYTES: '8kb' });
    try {
      const document = withSchema('Big', { type: 'string', description: 'x'.repeat(10_000) });
      for (const dryRun of [true, false]) {
        const res = await small.request.post(`${tenant.prefixes.byId}/imports/openapi?service=big${dryRun ? '&dryRun=true' : ''}`).set(bearer(tenant.key)).send(document);
        expect(res.status, JSON.stringify(res.body)).to.equal(413);
        expect(res.body).to.deep.equal({
          error: 'Invalid request',
          details: [{ field: '/components/schemas/Big', message: 'makes a Resource record that is larger than the 8192 bytes a record may have (RECORD_MAX_BYTES)' }],
        });
      }
      expect(await slugs()).to.not.include('big');
    } finally {
      await small.close();
    }
  });

  it('imports webhooks of more than 50,000 keys in all at the default limits, exports them back in order, re-imports them unchanged and copies them (as GitHub\'s need)', async () => {
    // 150 webhooks of ~360 keys each: on the Service record they would be 54,000 keys (limit 50,000).
    const hook = (i: number) => ({ post: { operationId: `hook-${i}`, requestBody: { content: { 'application/json': { schema: wide(175) } } }, responses: { 200: { description: 'ok' } } } });
    const document = { ...petstore(), openapi: '3.1.0', webhooks: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`event-${i}`, hook(i)])) };
    // The petstore's own responses and parameters components are parts too.
    const sections = (document as unknown as { components: Record<string, Record<string, unknown> | undefined> }).components;
    const others = ['responses', 'parameters', 'requestBodies', 'callbacks', 'links', 'pathItems'].reduce((sum, section) => sum + Object.keys(sections[section] ?? {}).length, 0);
    const first = await importAs('hooks', document);
    expect(first.status, JSON.stringify(first.body).slice(0, 500)).to.equal(201);
    expect(first.body.records['service-parts']).to.deep.equal({ created: 150 + others, updated: 0, deleted: 0, unchanged: 0 });
    const exported = async (prefix: string) => {
      const listed = await service.request.get(`${prefix}/services?slug=hooks`).set(bearer(tenant.key));
      const res = await service.request.get(`${prefix}/services/${listed.body.items[0].id}/openapi`).set(bearer(tenant.key));
      return res.body as { webhooks: Record<string, unknown> };
    };
    const out = await exported(tenant.prefixes.byId);
    expect(Object.keys(out.webhooks)).to.deep.equal(Object.keys(document.webhooks));
    expect(out.webhooks).to.deep.equal(document.webhooks);
    expect((out as { components?: unknown }).components).to.deep.include({ responses: sections['responses'], parameters: sections['parameters'] });

    const again = await importAs('hooks', document);
    expect(again.body.records['service-parts']).to.deep.equal({ created: 0, updated: 0, deleted: 0, unchanged: 150 + others });
    expect(again.body.records.services.unchanged).to.equal(1);
    // One webhook inserted first and one removed: those two written, the others not.
    const { 'event-7': _gone, ...rest } = document.webhooks;
    const edited = await importAs('hooks', { ...document, webhooks: { 'event-new': hook(999), ...rest } });
    expect(edited.body.records['service-parts']).to.deep.equal({ created: 1, updated: 0, deleted: 1, unchanged: 149 + others });
    expect(Object.keys((await exported(tenant.prefixes.byId)).webhooks)).to.deep.equal(['event-new', ...Object.keys(rest)]);

    const copy = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key)).send({ type: 'branch', slug: 'hooks-copy', copyFrom: tenant.version.id });
    expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
    expect(Object.keys((await exported(`/v2/catalog/versions/${copy.body.id}`)).webhooks)).to.have.length(150);
  });

  it('deletes a service\'s parts with its Service record, leaving a copy\'s alone', async () => {
    const document = { ...petstore(), openapi: '3.1.0', webhooks: { ping: { post: { responses: { 200: { description: 'ok' } } } } } };
    expect((await importAs('gone', document)).status).to.equal(201);
    const copy = await service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key)).send({ type: 'branch', slug: 'gone-copy', copyFrom: tenant.version.id });
    expect(copy.status, JSON.stringify(copy.body)).to.equal(201);
    const listed = await service.request.get(`${tenant.prefixes.byId}/services?slug=gone`).set(bearer(tenant.key));
    const serviceId = listed.body.items[0].id as string;
    const parts = service.runtime.database.db.collection('service-parts');
    const partsIn = (versionId: string) => parts.countDocuments({ versionId, serviceId });
    expect(await partsIn(tenant.version.id)).to.be.above(0);

    const deleted = await service.request.delete(`${tenant.prefixes.byId}/services/${serviceId}`).set(bearer(tenant.key));
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
    expect(await partsIn(tenant.version.id)).to.equal(0);
    expect(await partsIn(copy.body.id)).to.be.above(0);
  });
});
