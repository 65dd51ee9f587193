import { expect } from 'chai';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { testDatabase } from '../support/database.ts';
import { bearer, givenTenant, JWT_SECRET, tokenFor, type Tenant, type TestCatalog } from '../support/catalog.ts';
import { signIn } from './pages/sign-in.ts';

/** The service with a logger whose every line is kept, parsed. */
async function serviceLoggingTo(lines: Record<string, unknown>[]): Promise<TestCatalog> {
  const config = loadConfig({ MONGODB_URI: testDatabase().uri, JWT_SECRET, LOG_LEVEL: 'debug' });
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const runtime: Runtime = await openRuntime(config, logger);
  const app = createApp({ ...runtime, logger });
  return { app, runtime, request: supertest.agent(app), close: () => runtime.close() };
}

const SECRET_KEY = `catk_${'S3cr3t'.repeat(7)}x`;
const JWT_LIKE = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJlLXNlY3JldA';

describe('Logs', () => {
  let service: TestCatalog;
  let tenant: Tenant;
  const lines: Record<string, unknown>[] = [];
  const text = () => JSON.stringify(lines);

  before(async () => {
    service = await serviceLoggingTo(lines);
    tenant = await givenTenant(service);
  });
  after(() => service.close());
  beforeEach(() => {
    lines.length = 0;
  });

  describe('never hold a credential', () => {
    const urls: [string, (t: Tenant) => string][] = [
      ['?access_token=catk_…', (t) => `${t.prefixes.byId}/paths?access_token=${SECRET_KEY}`],
      ['credential-like query parameters', (t) => `${t.prefixes.byId}/paths?token=tok-s3cret-1&api_key=ak-s3cret-2&key=k-s3cret-3&jwt=j-s3cret-4&client_secret=cs-s3cret-5&password=pw-s3cret-6`],
      ['a catk_ secret in the path', () => `/v2/catalog/versions/${SECRET_KEY}/paths`],
      ['a percent-encoded catk_ secret in the path', () => `/v2/catalog/versions/${encodeURIComponent(SECRET_KEY).replace('_', '%5F')}/paths`],
      ['a JWT in the path', () => `/v2/catalog/projects/${JWT_LIKE}/branch/main/paths`],
      ['a JWT in an innocent-looking parameter', (t) => `${t.prefixes.byId}/paths?serviceId=${JWT_LIKE}`],
      ['a catk_ secret as a parameter name', (t) => `${t.prefixes.byId}/paths?${SECRET_KEY}=1`],
    ];
    for (const [what, url] of urls) {
      it(`redacts ${what}`, async () => {
        const target = url(tenant);
        await service.request.get(target).set(bearer(tenant.key));
        expect(lines.length, 'lines logged').to.be.greaterThan(0);
        for (const secret of [SECRET_KEY, JWT_LIKE, ...['tok', 'ak', 'k', 'j', 'cs', 'pw'].map((p, i) => `${p}-s3cret-${i + 1}`)]) {
          expect(text()).not.to.include(secret);
          expect(text()).not.to.include(encodeURIComponent(secret));
        }
        expect(text()).not.to.include("S3cr3t");
        expect(text()).to.include('[REDACTED]');
      });
    }

    it('leaves the Authorization and Cookie headers out', async () => {
      const token = tokenFor([tenant.project.id]);
      await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(token)).set('Cookie', 'session=cookie-s3cret');
      await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key));
      expect(text()).not.to.include(token.split('.')[2]!);
      expect(text()).not.to.include(tenant.key);
      expect(text()).not.to.include('cookie-s3cret');
    });
    it('holds neither the credential nor the session id of a sign-in to the pages', async () => {
      const { cookie, formToken } = await signIn(service.app, tenant.key);
      await supertest(service.app).get('/catalog').set('Cookie', cookie).set('Accept', 'text/html');
      await supertest(service.app).post('/sign-out').set('Cookie', cookie).type('form').send({ formToken });
      expect(lines.length).to.be.greaterThan(3);
      expect(text()).not.to.include(tenant.key);
      expect(text()).not.to.include(cookie.split('=')[1]!);
    });
  });

  describe('one line per request', () => {
    it('names the route template, method, status, latency, request id and URL, and nothing else', async () => {
      const res = await service.request.get(`${tenant.prefixes.byId}/paths/path_01ARZ3NDEKTSV4RRFFQ69G5FAV`).set(bearer(tenant.key));
      expect(res.status).to.equal(404);
      const access = lines.filter((line) => line['responseTime'] !== undefined);
      expect(access).to.have.length(1);
      expect(access[0]).to.deep.include({ route: '/v2/catalog/versions/:versionId/paths/:id', method: 'GET', status: 404, reqId: res.headers['x-request-id'] });
      expect(access[0]!['responseTime']).to.be.a('number');
      // Those and the URL, besides what pino puts on every line: no request object, no headers.
      const own = Object.keys(access[0]!).filter((key) => !['level', 'time', 'pid', 'hostname', 'service', 'msg'].includes(key));
      expect(own.sort()).to.deep.equal(['method', 'reqId', 'responseTime', 'route', 'status', 'url']);
    });

    it('logs successes too, and unknown routes as such', async () => {
      await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key));
      await service.request.get('/nowhere/at/all');
      const access = lines.filter((line) => line['responseTime'] !== undefined);
      expect(access.map((line) => [line['route'], line['status']])).to.deep.equal([
        ['/v2/catalog/versions/:versionId/paths', 200], ['(unmatched)', 404],
      ]);
    });
  });

  describe('database unavailable', () => {
    it('logs one warn line per cause, and no stack per request', async () => {
      const own: Record<string, unknown>[] = [];
      const down = await serviceLoggingTo(own);
      await down.runtime.database.close();
      const token = tokenFor('all');
      for (let i = 0; i < 4; i++) {
        const res = await down.request.get(`/v2/catalog/projects/demo/branch/main/paths`).set(bearer(token));
        expect(res.status).to.equal(503);
      }
      const warnings = own.filter((line) => line['level'] === 40);
      expect(warnings, JSON.stringify(own)).to.have.length(1);
      expect(JSON.stringify(own)).not.to.match(/"stack"/);
      expect(own.filter((line) => line['status'] === 503)).to.have.length(4);
    });
  });

  describe('format', () => {
    it('is JSON when the output is not a terminal, pretty when it is (LOG_FORMAT=auto)', () => {
      const written: string[] = [];
      const sink = (isTTY: boolean) => Object.assign(new Writable({
        write(chunk, _encoding, done) {
          written.push(String(chunk));
          done();
        },
      }), { isTTY });
      createLogger('info', 'auto', sink(false)).info({ route: '/healthz' }, 'hello');
      createLogger('info', 'auto', sink(true)).info({ route: '/healthz' }, 'hello');
      createLogger('info', 'json', sink(true)).info({ route: '/healthz' }, 'hello');
      expect(() => JSON.parse(written[0]!)).not.to.throw();
      expect(written[1]).to.include('INFO').and.include('hello');
      expect(() => JSON.parse(written[1]!)).to.throw();
      expect(() => JSON.parse(written[2]!)).not.to.throw();
    });
  });
});
