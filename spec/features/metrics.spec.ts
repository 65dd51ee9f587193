import { expect } from 'chai';
import supertest from 'supertest';
import { metricsApp } from '../../server/http/metrics.ts';
import type { Metrics } from '../../server/http/prometheus.ts';
import { catalogForSuite, bearer, startCatalog, type Tenant, type TestCatalog } from '../support/catalog.ts';

/** The value of one sample line of the exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('Metrics', () => {
  describe('at /metrics (METRICS=on, the default)', () => {
    let service: TestCatalog;
    let tenant: Tenant;

    catalogForSuite((made) => ({ service, tenant } = made));
    before(async () => {
      await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).expect(200);
      await service.request.get(`${tenant.prefixes.byId}/paths`).set(bearer(tenant.key)).expect(200);
      await service.request.get(`${tenant.prefixes.byAddress}/paths/path_01ARZ3NDEKTSV4RRFFQ69G5FAV`).set(bearer(tenant.key)).expect(404);
      await service.request.get('/no/such/route').expect(404);
    });

    it('needs no credentials and answers the Prometheus text format', async () => {
      const res = await service.request.get('/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
      expect(res.text).to.include('# TYPE http_requests_total counter');
    });

    it('counts and times requests by route template, method and status', async () => {
      const { text } = await service.request.get('/metrics');
      const list = { route: '/v2/catalog/versions/:versionId/paths', method: 'GET', status: '200' };
      expect(sample(text, 'http_requests_total', list)).to.equal(2);
      expect(sample(text, 'http_request_duration_seconds_count', list)).to.equal(2);
      expect(sample(text, 'http_request_duration_seconds_bucket', { ...list, le: '+Inf' })).to.equal(2);
      expect(sample(text, 'http_requests_total', { route: '/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths/:id', status: '404' })).to.equal(1);
      expect(sample(text, 'http_requests_total', { route: '(unmatched)', status: '404' })).to.equal(1);
      // Unknown URLs never become labels of their own.
      expect(text).not.to.include('/no/such/route');
    });

    it('times database commands by name, and shows the pool, the process and embedded restarts', async () => {
      // The event loop's lag is measured after a scrape and shown by the next one.
      await service.request.get('/metrics').expect(200);
      const { text } = await service.request.get('/metrics');
      expect(sample(text, 'mongodb_command_duration_seconds_count', { command: 'find', outcome: 'ok' })).to.be.greaterThan(0);
      const pool = (state: string) => sample(text, 'mongodb_pool_connections', { state });
      const open = pool('open')!;
      expect(open).to.be.greaterThan(0);
      // Every open connection is in exactly one state: the gauges read the driver's own counts.
      expect(pool('available')! + pool('in_use')! + pool('pending')!).to.equal(open);
      expect(Number.isInteger(pool('in_use'))).to.equal(true);
      // Nothing waits for a connection: nothing else runs in this suite.
      expect(sample(text, 'mongodb_pool_wait_queue')).to.equal(0);
      expect(sample(text, 'process_cpu_user_seconds_total')).to.be.greaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).to.be.greaterThan(0);
      expect(sample(text, 'catalog_embedded_database_restarts_total')).to.equal(0);
    });
  });

  it('are not served with METRICS=off', async () => {
    const service = await startCatalog({ METRICS: 'off' });
    try {
      const res = await service.request.get('/metrics');
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Not found' });
    } finally {
      await service.close();
    }
  });

  it('move to their own app with METRICS_PORT', async () => {
    const service = await startCatalog({ METRICS_PORT: '0' });
    try {
      expect((await service.request.get('/metrics')).status).to.equal(404);
      await service.request.get('/healthz').expect(200);
      const own = supertest(metricsApp(service.app.locals['metrics'] as Metrics));
      const res = await own.get('/metrics');
      expect(res.status).to.equal(200);
      expect(sample(res.text, 'http_requests_total', { route: '/healthz', status: '200' })).to.equal(1);
      expect((await own.get('/v2/catalog/versions/x/paths')).body).to.deep.equal({ error: 'Not found' });
      const other = await own.delete('/metrics');
      expect([other.status, other.headers['allow']]).to.deep.equal([405, 'GET, HEAD']);
    } finally {
      await service.close();
    }
  });
});
