// Reports from real clients: a HAR recorded by headless Chromium (playwright-core) while a page
// calls the running catalog, fed to the catalog holding the catalog's own description; and the
// OpenTelemetry JS SDK (HTTP instrumentation, OTLP/HTTP JSON exporter) of a traced service,
// exporting straight to the report endpoint. Credentials, bodies and query values in those
// reports never reach the database.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../support/chromium.ts';
import { startCatalog, givenTenant, bearer, type TestCatalog, type Tenant } from '../../support/catalog.ts';

interface Item { operation: { operationId: string } | null; method: string; path: string; status: string; count: number; statusCodes: Record<string, number> }

describe('traffic insights from real clients', function () {
  // A browser start and a second Node process on a busy two-core machine take seconds.
  this.timeout(180_000);
  let service: TestCatalog;
  let server: Server;
  let origin: string;
  let port: number;

  before(async () => {
    service = await startCatalog();
    server = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
    await service?.close();
  });

  /** Imports a description as `slug` with one server (a template and its variables). */
  async function givenService(tenant: Tenant, slug: string, document: Record<string, unknown>, url: string, variables: Record<string, unknown>): Promise<string> {
    const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=${slug}`).set(bearer(tenant.key)).send(document);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const serviceId = imported.body.service.id as string;
    const added = await service.request.post(`${tenant.prefixes.byId}/servers`).set(bearer(tenant.key)).send({ url, variables, serviceId });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    return serviceId;
  }

  /** The catalog's own description, served at /v2/openapi.json, reachable at this test's port. */
  async function givenCatalog(tenant: Tenant): Promise<string> {
    const own = (await service.request.get('/v2/openapi.json')).body as Record<string, unknown>;
    return givenService(tenant, 'catalog', own, 'http://{host}:{port}', { host: { default: '127.0.0.1', enum: ['127.0.0.1', 'localhost'] }, port: { default: String(port), enum: [String(port)] } });
  }

  async function view(tenant: Tenant, service_: string): Promise<Map<string, Item>> {
    const res = await service.request.get(`${tenant.prefixes.byId}/insights/endpoints`).query({ service: service_, limit: '1000' }).set(bearer(tenant.readOnlyKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return new Map((res.body.items as Item[]).map((item) => [`${item.method} ${item.path}`, item]));
  }

  async function serviceRecord(tenant: Tenant, slug: string): Promise<Record<string, unknown>> {
    return (await service.request.get(`${tenant.prefixes.byId}/services`).query({ slug }).set(bearer(tenant.key))).body.items[0];
  }

  /** Everything the insights collections hold, as one string to search. */
  async function storedInsights(): Promise<string> {
    const { db } = service.runtime.database;
    const documents = [...await db.collection('observations').find().toArray(), ...await db.collection('insight-keys').find().toArray()];
    return JSON.stringify(documents);
  }

  describe('a HAR recorded by Chromium', () => {
    let browser: Browser;
    let dir: string;
    before(async () => {
      browser = await launchChromium();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-har-'));
    });
    after(async () => {
      await browser?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('counts the page\'s calls of the catalog against the catalog\'s own description', async () => {
      const tenant = await givenTenant(service);
      const catalogId = await givenCatalog(tenant);
      const harPath = path.join(dir, 'calls.har');
      const context = await browser.newContext({ recordHar: { path: harPath } });
      const page = await context.newPage();
      await page.goto(`${origin}/healthz`);
      const calls = await page.evaluate(async ({ V, P, key, serviceId }) => {
        const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
        const statuses: number[] = [];
        const call = async (url: string, init: { method?: string; body?: string } = {}) => {
          const res = await fetch(url, { headers, ...init });
          statuses.push(res.status);
          return res.json() as Promise<{ id?: string }>;
        };
        await call(`${V}/paths`);
        await call(`${V}/paths?limit=5`);
        const created = await call(`${V}/paths`, { method: 'POST', body: JSON.stringify({ serviceId, path: '/secret-body-marker' }) });
        await call(`${V}/paths/${created.id!}`);
        await call(`${P}/search?q=query-secret-marker`);
        await call(`${V}/no-such-collection/12345`);
        return statuses;
      }, { V: tenant.prefixes.byId, P: tenant.prefixes.byAddress, key: tenant.key, serviceId: catalogId });
      expect(calls).to.deep.equal([200, 200, 201, 200, 200, 404]);
      await context.close();
      const har = fs.readFileSync(harPath, 'utf8');
      // The HAR holds what an analyzer's report would: the credential among it.
      expect(har).to.include(tenant.key);

      const res = await service.request.post(`${tenant.prefixes.byId}/insights/reports`).set(bearer(tenant.key)).type('application/har+json').send(har);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const entries = (JSON.parse(har) as { log: { entries: unknown[] } }).log.entries.length;
      expect(res.body).to.include({ received: entries, duplicate: false });
      expect(res.body.matched).to.be.at.least(6);

      const items = await view(tenant, 'catalog');
      expect(items.get('GET /v2/catalog/versions/{versionId}/paths')).to.deep.include({ status: 'active', count: 2, statusCodes: { 200: 2 } });
      expect(items.get('POST /v2/catalog/versions/{versionId}/paths')).to.deep.include({ count: 1, statusCodes: { 201: 1 } });
      expect(items.get('GET /v2/catalog/versions/{versionId}/paths/{id}')).to.include({ count: 1 });
      expect(items.get('GET /v2/catalog/projects/{projectRef}/{versionType}/{versionSlug}/search')!.operation!.operationId).to.equal('searchEndpointsByProject');
      // Answered 404 on a path the description does not have: a path nobody serves, no shadow endpoint.
      expect(items.has('GET /v2/catalog/versions/{id}/no-such-collection/{id}')).to.equal(false);
      expect(res.body.unmatched).to.be.at.least(1);
      expect(items.get('DELETE /v2/catalog/versions/{versionId}/paths/{id}')).to.include({ status: 'unobserved', count: 0 });
      const record = await serviceRecord(tenant, 'catalog');
      expect(record['lastReportAt']).to.be.a('string');
      expect(record['lastMentionAt']).to.be.a('string');

      const stored = await storedInsights();
      for (const secret of [tenant.key, 'secret-body-marker', 'query-secret-marker']) expect(stored).to.not.include(secret);
    });
  });

  describe('OTLP from the OpenTelemetry JS SDK', () => {
    let app: ChildProcess | undefined;
    after(() => {
      app?.kill();
    });

    it('counts the traced service\'s server spans, and its call of the catalog mentions the catalog', async () => {
      const tenant = await givenTenant(service);
      await givenCatalog(tenant);
      app = spawn(process.execPath, [path.join(import.meta.dirname, 'traced-app.ts')], {
        env: { ...process.env, REPORT_URL: `${origin}${tenant.prefixes.byAddress}/insights/reports`, REPORT_TOKEN: tenant.key, CALLS_URL: `${origin}/healthz` },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const appPort = await new Promise<string>((resolve, reject) => {
        app!.stdout!.once('data', (data) => resolve(String(data).trim()));
        app!.once('exit', (code) => reject(new Error(`the traced app exited (${code})`)));
      });
      await givenService(tenant, 'menagerie', menagerie(), 'http://127.0.0.1:{port}/v1', { port: { default: appPort, enum: [appPort] } });

      for (const call of ['/v1/pets', '/v1/pets/mine', '/v1/pets/3', '/v1/pets/4?owner=secret', '/v1/admin/7']) {
        await (await fetch(`http://127.0.0.1:${appPort}${call}`)).text();
      }
      // The exporter's POST to the report endpoint has been answered when the flush is.
      expect(await (await fetch(`http://127.0.0.1:${appPort}/flush`)).text()).to.equal('flushed');

      const items = await view(tenant, 'menagerie');
      expect(items.get('GET /pets')).to.include({ status: 'active', count: 1 });
      expect(items.get('GET /pets/mine')).to.include({ count: 1 });
      expect(items.get('GET /pets/{petId}')).to.deep.include({ count: 2, statusCodes: { 200: 2 } });
      // The app answers 404 there: no endpoint, so no shadow either.
      expect(items.has('GET /admin/{id}')).to.equal(false);
      expect((await serviceRecord(tenant, 'menagerie'))['lastReportAt']).to.be.a('string');
      const catalog = await serviceRecord(tenant, 'catalog');
      expect(catalog['lastMentionAt']).to.be.a('string');
      // The client span mentions; it does not count a call of the catalog.
      expect([...(await view(tenant, 'catalog')).values()].every((item) => item.count === 0)).to.equal(true);
      expect(await storedInsights()).to.not.include('secret');
    });
  });
});

function menagerie(): Record<string, unknown> {
  const ok = { 200: { description: 'OK' } };
  return {
    openapi: '3.1.0',
    info: { title: 'Menagerie', version: '1.0.0' },
    paths: {
      '/pets': { get: { operationId: 'listPets', responses: ok } },
      '/pets/mine': { get: { operationId: 'myPets', responses: ok } },
      '/pets/{petId}': { get: { operationId: 'getPet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: ok } },
    },
  };
}
