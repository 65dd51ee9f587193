import { expect } from 'chai';
import { catalogForSuite, bearer, type TestCatalog, type Tenant } from '../support/catalog.ts';
import { expectError } from '../support/expect.ts';

describe('HTTP shell', () => {
  let service: TestCatalog;
  let tenant: Tenant;

  catalogForSuite((made) => ({ service, tenant } = made), { BODY_LIMIT: '2kb' });

  describe('GET /healthz', () => {
    it('answers 200 {"status":"ok"} without credentials while the database answers', async () => {
      const res = await service.request.get('/healthz');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
    });
  });

  describe('request ids', () => {
    it('gives every response an X-Request-Id', async () => {
      const [a, b] = await Promise.all([service.request.get('/healthz'), service.request.get('/nowhere')]);
      expect(a.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(b.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/).and.not.equal(a.headers['x-request-id']);
    });

    it("keeps a caller's plain id and replaces an unsafe one", async () => {
      expect((await service.request.get('/healthz').set('X-Request-Id', 'trace-42')).headers['x-request-id']).to.equal('trace-42');
      expect((await service.request.get('/healthz').set('X-Request-Id', 'a b<script>')).headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('security headers', () => {
    it('sends helmet headers and no X-Powered-By', async () => {
      const res = await service.request.get('/healthz');
      expect(res.headers).to.not.have.property('x-powered-by');
      expect(res.headers).to.include({ 'x-content-type-options': 'nosniff' });
      expect(res.headers).to.have.property('content-security-policy');
    });
  });

  describe('error shape', () => {
    it('unknown route: 404 Not found', async () => {
      expectError(await service.request.get('/v2/catalog/nothing-here'), 404, 'Not found');
    });

    it('known route, other method: 405 with Allow', async () => {
      const res = await service.request.put(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key));
      expectError(res, 405, 'Method not allowed');
      expect(res.headers['allow']).to.equal('GET, HEAD, POST');
    });

    it('bad JSON: 400 Invalid request', async () => {
      const res = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key))
        .set('Content-Type', 'application/json').send('{"path": "/a",');
      expectError(res, 400, 'Invalid request');
      expect(res.body.details).to.deep.equal([{ field: 'body', message: 'is not valid JSON' }]);
    });

    it('body over BODY_LIMIT: 413 Invalid request', async () => {
      const res = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key))
        .send({ path: '/a', summary: 'x'.repeat(4096) });
      expectError(res, 413, 'Invalid request');
    });

    it('body that is not JSON: 415 Invalid request', async () => {
      const res = await service.request.post(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key))
        .set('Content-Type', 'text/plain').send('path=/a');
      expectError(res, 415, 'Invalid request');
    });

    it('path that is not valid percent-encoding: 400, not 500', async () => {
      const res = await service.request.get(`${tenant.prefixes.byId}/paths/%E0%A4%A`).set(bearer(tenant.key));
      expectError(res, 400, 'Invalid request');
    });
  });
});
