import { expect } from 'chai';
import fs from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { provisionDatabase } from '../../server/database/provision.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { testDatabase } from '../support/database.ts';
import { spawnService, runServiceToExit } from '../support/process.ts';
import { JWT_SECRET, givenTenant, startCatalog, bearer, type TestCatalog } from '../support/catalog.ts';
import supertest from 'supertest';
import { expectError } from '../support/expect.ts';

describe('The service process (npm start)', function () {
  this.timeout(120_000);

  describe('start-up with a bad setting', () => {
    it('exits 1 with one line naming the variable', async () => {
      const { code, stdout, stderr } = await runServiceToExit({ PORT: 'eighty' });
      expect(code).to.equal(1);
      expect(stdout).to.equal('');
      expect(stderr.trim().split('\n')).to.have.length(1);
      expect(stderr).to.match(/^configuration error: PORT /);
    });
  });

  describe('graceful shutdown on SIGTERM', () => {
    let service: TestCatalog;
    before(async () => { service = await startCatalog(); });
    after(() => service.close());

    it('finishes the request in flight, refuses new connections, then exits 0', async () => {
      const tenant = await givenTenant(service);
      const running = await spawnService({ MONGODB_URI: testDatabase().uri, JWT_SECRET });
      const { port } = new URL(running.url);
      const body = JSON.stringify({ serviceId: `svc_${'0'.repeat(26)}`, path: '/in-flight' });

      // Send the headers and half the body, so the request is in flight when the signal comes.
      const response = new Promise<{ status: number | undefined; text: string }>((resolve, reject) => {
        const req = http.request({
          port, method: 'POST', path: `${tenant.prefixes.byId}/paths`,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...bearer(tenant.key) },
        }, (res) => {
          let text = '';
          res.on('data', (chunk) => { text += chunk; });
          res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          running.child.kill('SIGTERM');
          running.waitFor(/shutting down/).then(() => {
            expect(running.child.exitCode).to.equal(null);
            req.end(body.slice(10));
          }, reject);
        }, 300);
      });

      const { status, text } = await response;
      expect(status, text).to.equal(201);
      expect(JSON.parse(text)).to.include({ path: '/in-flight' });
      expect(await running.exited).to.equal(0);
      const refused = await new Promise((resolve) => net.connect(Number(port)).on('error', resolve).on('connect', () => resolve(null)));
      expect(refused).to.have.property('code', 'ECONNREFUSED');
    });
  });

  describe('shutdown during a slow export', () => {
    let service: TestCatalog;
    before(async () => { service = await startCatalog({ RECORD_MAX_KEYS: '1000000' }); });
    after(() => service.close());

    it('answers the export still in flight when its time is up 503 with Retry-After, not an empty reply', async () => {
      const tenant = await givenTenant(service);
      const imported = await service.request.post(`${tenant.prefixes.byId}/imports/openapi?service=github`).set(bearer(tenant.key)).type('json')
        .send(await fs.readFile(path.join(repoRoot, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8'));
      expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).to.equal(201);
      // Requests get three quarters of it: 300 ms, far less than GitHub's export takes.
      const running = await spawnService({ MONGODB_URI: testDatabase().uri, JWT_SECRET, SHUTDOWN_TIMEOUT_MS: '400' });
      const { port } = new URL(running.url);
      const response = new Promise<{ status: number | undefined; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
        const req = http.get({ port, path: `${tenant.prefixes.byId}/services/github/openapi`, headers: bearer(tenant.key) }, (res) => {
          let text = '';
          res.on('data', (chunk) => { text += chunk; });
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        });
        req.on('error', reject);
      });
      // Once the export is under way (it reads for seconds), the signal.
      await new Promise((resolve) => setTimeout(resolve, 500));
      running.child.kill('SIGTERM');
      const { status, headers, text } = await response;
      if (status === 200) expect(JSON.parse(text)).to.have.property('openapi');
      else {
        expect(status, text).to.equal(503);
        expect(headers['retry-after']).to.match(/^\d+$/);
        expect(JSON.parse(text)).to.deep.equal({ error: 'Service Unavailable' });
      }
      expect(await running.exited).to.equal(0);
    });
  });

  describe('first run on the embedded database, and a restart', () => {
    let dataDir: string;
    before(async () => { dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-first-run-')); });
    after(() => fs.rm(dataDir, { recursive: true, force: true }));

    it('creates a demo project with a key once, and finds its data after a restart', async () => {
      const env = {
        DATA_DIR: dataDir, CACHE_DIR: path.join(repoRoot, '.cache'),
        EMBEDDED_DB: testDatabase().server.kind, EMBEDDED_DB_PORT: String(await freePort()),
      };
      const first = await spawnService({ ...env, LOG_FORMAT: 'json' });
      const [, key] = await first.waitFor(/^\s+(catk_\S+)$/m);
      expect(first.stderr()).to.include(`curl -H 'Authorization: Bearer ${key}' ${first.url}/v2/catalog/projects/demo/branch/main/paths`);
      // On the terminal, never in the JSON log stream: stdout is JSON lines only, none with the key.
      const logLines = first.stdout().split('\n').filter((line) => line !== '');
      expect(logLines.length).to.be.greaterThan(0);
      for (const line of logLines) expect(() => JSON.parse(line), line).to.not.throw();
      expect(first.stdout()).to.not.include(key);
      const demo = supertest(first.url);
      const created = await demo.post('/v2/catalog/projects/demo/branch/main/paths').set(bearer(key!))
        .send({ serviceId: `svc_${'1'.repeat(26)}`, path: '/survives-restart' });
      expect(created.status).to.equal(201);
      expect(await first.stop()).to.equal(0);

      // No JWT_SECRET: one was generated beside the data, readable by its owner only, so
      // tokens signed with it (as the admin CLI does) survive the restart.
      const secretFile = path.join(dataDir, 'jwt-secret');
      expect((await fs.stat(secretFile)).mode & 0o777).to.equal(0o600);
      const secret = (await fs.readFile(secretFile, 'utf8')).trim();
      const { token } = issueToken({ subject: 'restart-test', projects: 'all', readOnly: true, expiresInSeconds: 600 }, secret);

      const second = await spawnService(env);
      try {
        expect(second.output()).to.not.match(/First run/);
        const listed = await supertest(second.url).get('/v2/catalog/projects/demo/branch/main/paths').set(bearer(key!));
        expect(listed.status).to.equal(200);
        expect(listed.body.items).to.deep.equal([created.body]);
        const withToken = await supertest(second.url).get(`/v2/catalog/versions/${created.body.versionId}/paths`).set(bearer(token));
        expect(withToken.status).to.equal(200);
        expect(withToken.body.items).to.deep.equal([created.body]);
      } finally {
        expect(await second.stop()).to.equal(0);
      }
    });

    it('never creates a demo project on a database given by MONGODB_URI', async () => {
      const running = await spawnService({ MONGODB_URI: `${testDatabase().uri.replace(/\/[^/?]*(\?|$)/, '/catalog_no_demo$1')}`, JWT_SECRET });
      try {
        expect(running.output()).to.not.match(/First run|catk_/);
        expect(await testDatabase().client.db('catalog_no_demo').collection('projects').countDocuments()).to.equal(0);
      } finally {
        await running.stop();
        await testDatabase().client.db('catalog_no_demo').dropDatabase();
      }
    });
  });

  describe('under npm start (server/start.ts) on the embedded database', () => {
    let dataDir: string;
    let env: Record<string, string>;
    beforeEach(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-crash-'));
      env = {
        DATA_DIR: dataDir, CACHE_DIR: path.join(repoRoot, '.cache'),
        EMBEDDED_DB: testDatabase().server.kind, EMBEDDED_DB_PORT: String(await freePort()),
      };
    });
    afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

    // SIGKILL and SIGABRT end the service as a crash does (a heap out of memory aborts V8): no
    // JavaScript of the service runs on the way out.
    for (const signal of ['SIGKILL', 'SIGABRT'] as const) {
      it(`says the service crashed (${signal}) and leaves no database process behind`, async () => {
        const running = await spawnService(env, 'server/start.ts');
        const { owner } = JSON.parse(await fs.readFile(path.join(dataDir, 'embedded-database.json'), 'utf8')) as { owner: number };
        expect(processesServing(dataDir)).to.not.deep.equal([]);
        process.kill(owner, signal);
        expect(await running.exited).to.equal(1);
        expect(running.stderr(), running.stderr()).to.match(new RegExp(`^the catalog service crashed \\(killed by ${signal}\\); its embedded database stopped \\(pid \\d+, port \\d+\\)\\. It is not restarted here`, 'm'));
        expect(processesServing(dataDir)).to.deep.equal([]);
      });
    }

    it('passes SIGTERM on: the service stops gracefully with its database, and no crash is reported', async () => {
      const running = await spawnService(env, 'server/start.ts');
      expect(await running.stop('SIGTERM')).to.equal(0);
      expect(running.output()).to.match(/"msg":"stopped"/).and.not.match(/crashed/);
      expect(processesServing(dataDir)).to.deep.equal([]);
    });
  });

  describe('GET /healthz while the database is down', () => {
    it('answers 503 Service Unavailable, and so does an API call', async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-down-'));
      const server = await provisionDatabase({
        dataDir, port: 0, engine: testDatabase().server.kind, cacheDir: path.join(repoRoot, '.cache'), log: () => {},
      });
      try {
        const config = loadConfig({ MONGODB_URI: `${server.uri.replace(/\/?$/, '/')}catalog?serverSelectionTimeoutMS=300`, JWT_SECRET, LOG_LEVEL: 'silent' });
        const logger = pino({ level: 'silent' });
        const runtime = await openRuntime(config, logger);
        const app = supertest(createApp({ ...runtime, logger }));
        expect((await app.get('/healthz')).status).to.equal(200);

        await server.stop();
        expectError(await app.get('/healthz'), 503, 'Service Unavailable');
        expectError(await app.get(`/v2/catalog/versions/ver_${'0'.repeat(26)}/paths`).set(bearer('catk_anything')), 503, 'Service Unavailable');
        await runtime.close();
      } finally {
        await server.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });
  });
});

/** The processes whose command line names a folder of `dataDir` (the embedded database's, FerretDB's wrapper's). */
function processesServing(dataDir: string): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dataDir}${path.sep}`);
    } catch {
      return false;
    }
  }).map(Number);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}
