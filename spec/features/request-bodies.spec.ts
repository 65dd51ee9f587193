// JSON bodies are checked by the pipeline from the schema each route documents, as query strings
// are: a bad body is the contract's 400 (`error` and `details`, nothing else) naming the field,
// and the work never runs.
import { expect } from 'chai';
import type { Response } from 'supertest';
import { SERVICE_REF_INVALID } from '../../server/errors.ts';
import { catalogForSuite, bearer, type Tenant, type TestCatalog } from '../support/catalog.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The contract's error shape (catalog-interface.md, Errors): exactly `error` and `details`, the one problem named. */
function expectRefused(res: Response, field: string, message: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(Object.keys(res.body).sort()).to.deep.equal(['details', 'error']);
  expect(res.body.error).to.equal('Invalid request');
  expect(res.body.details).to.deep.equal([{ field, message }]);
}

describe('Request bodies checked by their schemas', () => {
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made));

  describe('POST {prefix}/insights/connections (insights.json#/$defs/connectionRequest)', () => {
    const cases: [string, Json, string, string][] = [
      ['an array', [], '/', 'must be a JSON object'],
      ['a string', 'zoo', '/', 'must be a JSON object'],
      ['null', null, '/', 'must be a JSON object'],
      ['no service', {}, '/service', SERVICE_REF_INVALID],
      ['a number for service', { service: 42 }, '/service', SERVICE_REF_INVALID],
      ['an empty service', { service: '' }, '/service', SERVICE_REF_INVALID],
      ['a field the schema lacks', { service: 'zoo', extra: 1 }, '/extra', 'is not a known field'],
      ['a field with a slash in its name', { service: 'zoo', 'a/b': 1 }, '/a~1b', 'is not a known field'],
    ];
    for (const family of ['byId', 'byAddress'] as const) {
      for (const [what, body, field, message] of cases) {
        it(`family ${family}: ${what} is 400 naming ${field}`, async () => {
          const res = await service.request.post(`${tenant.prefixes[family]}/insights/connections`).set(bearer(tenant.key))
            .set('Content-Type', 'application/json').send(JSON.stringify(body));
          expectRefused(res, field, message);
        });
      }
    }

    it('a well-formed name of no service is still 404, and a malformed one 400 from the lookup', async () => {
      const unknown = await service.request.post(`${tenant.prefixes.byId}/insights/connections`).set(bearer(tenant.key)).send({ service: 'nope' });
      expect(unknown.status, JSON.stringify(unknown.body)).to.equal(404);
      expect(unknown.body).to.deep.equal({ error: service.runtime.schemas.collection('services').notFound });
      expectRefused(await service.request.post(`${tenant.prefixes.byId}/insights/connections`).set(bearer(tenant.key)).send({ service: 'Not A Slug' }), '/service', SERVICE_REF_INVALID);
    });
  });

  describe('POST /v2/catalog/projects/{projectRef}/versions (version.json#/$defs/versionCreate)', () => {
    const create = (body: Json) => service.request.post(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key))
      .set('Content-Type', 'application/json').send(JSON.stringify(body));
    const cases: [string, Json, string, string][] = [
      ['an array', [], '/', 'must be object'],
      ['no slug', { type: 'branch' }, '/slug', 'is required'],
      ['an unknown type', { type: 'tag', slug: 'x' }, '/type', 'must be one of: "branch", "environment"'],
      ['a field the schema lacks', { type: 'branch', slug: 'x', extra: true }, '/extra', 'is not a known field'],
      ['a copyFrom of neither shape', { type: 'branch', slug: 'x', copyFrom: { type: 'branch' } }, '/copyFrom', 'must be string'],
    ];
    for (const [what, body, field, message] of cases) {
      it(`${what} is 400 naming ${field}, and makes no version`, async () => {
        expectRefused(await create(body), field, message);
        const listed = await service.request.get(`/v2/catalog/projects/${tenant.project.slug}/versions`).set(bearer(tenant.key));
        expect(listed.body.items.map((version: { slug: string }) => version.slug)).to.deep.equal(['main']);
      });
    }
  });
});
