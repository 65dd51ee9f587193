// A database that freezes or dies, on a FerretDB of this suite's own (not the run's shared database):
// frozen, every request is answered 503 within DB_TIMEOUT_MS; killed, it is restarted.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../server/app.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { buildFerretDB } from '../../server/database/provision.ts';
import { expectError } from '../support/expect.ts';
import { collectionNamed, sampleOf } from '../support/records.ts';
import { JWT_SECRET, bearer } from '../support/catalog.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The FerretDB process itself: the child of the supervising wrapper. */
function databasePid(runtime: Runtime): number {
  const wrapper = runtime.databaseServer.pid;
  if (wrapper === undefined) throw new Error('the embedded database has no pid');
  // By name: the wrapper's other child is its watchdog subshell, and with pids wrapping around
  // (pid_max 32768 here) it may have the lower pid, so "the first child" is not always FerretDB.
  const children = execFileSync('pgrep', ['-P', String(wrapper), '-x', 'ferretdb'], { encoding: 'utf8' }).trim().split('\n');
  if (children.length !== 1) throw new Error(`expected one ferretdb under the wrapper ${wrapper}, found ${children.join(', ')}`);
  return Number(children[0]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `request()` again every 200 ms, for up to 10 s, until it answers 200; the last answer. */
async function untilOk(request: () => supertest.Test): Promise<supertest.Response> {
  let res = await request();
  for (let i = 0; i < 50 && res.status !== 200; i++) {
    await sleep(200);
    res = await request();
  }
  return res;
}

interface OwnService {
  runtime: Runtime;
  request: supertest.Agent;
  /** The Paths list of the tenant's version. */
  url: string;
  key: string;
  /** A key no request has used yet, so the service must look it up (API_KEY_CACHE_MS remembers used ones). */
  unusedKey: string;
}

/** The service on an embedded database of its own (not the run's shared one), with a tenant: a project, a branch, two API keys. */
async function serviceOnOwnDatabase(engine: 'ferretdb' | 'mongodb', dataDir: string): Promise<OwnService> {
  const config = loadConfig({
    DATA_DIR: dataDir, EMBEDDED_DB: engine, EMBEDDED_DB_PORT: String(await freePort()),
    JWT_SECRET, LOG_LEVEL: 'silent', DB_TIMEOUT_MS: '1000',
  });
  const runtime = await openRuntime(config, pino({ level: 'silent' }));
  const request = supertest.agent(createApp({ ...runtime, logger: pino({ level: 'silent' }) }));
  const project = await runtime.tenancy.projects.create(`own-${engine}`, `On its own ${engine}`);
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const key = (await runtime.tenancy.apiKeys.create(project.id, false)).secret;
  const unusedKey = (await runtime.tenancy.apiKeys.create(project.id, false)).secret;
  return { runtime, request, url: `/v2/catalog/versions/${version.id}/paths`, key, unusedKey };
}

describe('An embedded database that freezes or dies', function () {
  this.timeout(60_000);
  let dataDir: string;
  let runtime: Runtime;
  let request: supertest.Agent;
  let url: string;
  let key: string;
  let unusedKey: string;

  before(async function () {
    const engine = process.env['EMBEDDED_DB'];
    if (process.env['MONGODB_URI'] || (engine && engine !== 'ferretdb' && engine !== 'auto')) this.skip();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-dbfail-'));
    ({ runtime, request, url, key, unusedKey } = await serviceOnOwnDatabase('ferretdb', dataDir));
  });
  after(async () => {
    await runtime?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('frozen (SIGSTOP), /healthz and catalog requests answer 503 with Retry-After, then recover', async () => {
    expect((await request.get(url).set(bearer(key))).status).to.equal(200);
    const pid = databasePid(runtime);
    process.kill(pid, 'SIGSTOP');
    try {
      // The mocha timeout (60 s) is the only clock here; before the fix these took ~40 s each.
      const [health, list, create, mcp, tool] = await Promise.all([
        request.get('/healthz'),
        request.get(url).set(bearer(key)),
        request.post(url).set(bearer(key)).send({ serviceId: `svc_${'0'.repeat(26)}`, path: '/frozen' }),
        // tools/list reads nothing, so only the key's lookup meets the frozen database.
        request.post('/mcp').set(bearer(unusedKey)).set('Accept', 'application/json, text/event-stream')
          .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        // The key and the version are remembered: the tool's own reads meet it, within the call's budget.
        request.post('/mcp').set(bearer(key)).set('Accept', 'application/json, text/event-stream')
          .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_services', arguments: { version: url.split('/')[4] } } }),
      ]);
      for (const res of [health, list, create, mcp]) {
        expectError(res, 503, 'Service Unavailable');
        expect(res.headers['retry-after']).to.equal('1');
      }
      expect(tool.status).to.equal(200);
      expect(tool.body.result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'Service Unavailable' }] });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await untilOk(() => request.get('/healthz'))).status).to.equal(200);
    expect((await request.get(url).set(bearer(key))).status).to.equal(200);
  });

  it('killed (SIGKILL), it is restarted, counted, and the service recovers without a restart', async () => {
    const restarted = new Promise<number>((resolve) => runtime.databaseServer.onRestart!(resolve));
    const before = runtime.databaseServer.restarts;
    process.kill(databasePid(runtime), 'SIGKILL');
    expect(await restarted).to.equal(before! + 1);
    expect(runtime.databaseServer.restarts).to.equal(before! + 1);
    expect((await untilOk(() => request.get(url).set(bearer(key)))).status).to.equal(200);
    expect((await request.get('/healthz')).status).to.equal(200);
  });
});

// The mongod engine is supervised the same way. No mongod can be had on the machines this suite
// was written on, so mongod is played by spec/support/bin/mongod: a stand-in that keeps mongod's
// process contract with mongodb-memory-server and serves through FerretDB. What is under test is
// the service's side: the launch through mongodb-memory-server, the supervision and the data kept.
describe('An embedded mongod that dies (mongod played by a stand-in)', function () {
  this.timeout(60_000);
  const STAND_IN = path.resolve(import.meta.dirname, '..', 'support', 'bin', 'mongod');
  const ENV = ['MONGOMS_SYSTEM_BINARY', 'STAND_IN_FERRETDB', 'STAND_IN_VERSION'] as const;
  const saved = new Map(ENV.map((name) => [name, process.env[name]]));
  let dataDir: string;
  let runtime: Runtime;
  let request: supertest.Agent;
  let url: string;
  let key: string;

  before(async function () {
    if (process.env['MONGODB_URI']) this.skip();
    this.timeout(15 * 60_000); // builds FerretDB first when `npm run db:build` has not run
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-mongod-'));
    const { DryMongoBinary } = await import('mongodb-memory-server');
    process.env['STAND_IN_FERRETDB'] = await buildFerretDB(loadConfig({ JWT_SECRET }).cacheDir, () => {});
    process.env['STAND_IN_VERSION'] = (await DryMongoBinary.generateOptions({})).version;
    process.env['MONGOMS_SYSTEM_BINARY'] = STAND_IN;
    ({ runtime, request, url, key } = await serviceOnOwnDatabase('mongodb', dataDir));
  });
  after(async () => {
    await runtime?.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('runs the mongod engine through mongodb-memory-server, with its data under DATA_DIR/mongodb', async () => {
    expect(runtime.databaseServer.kind).to.equal('mongodb');
    expect(runtime.databaseServer.restarts).to.equal(0);
    expect(await fs.readdir(path.join(dataDir, 'mongodb'))).to.not.be.empty;
  });

  it('killed (SIGKILL), it is restarted on the same data, counted, and the service recovers without a restart', async () => {
    const created = await request.post(url).set(bearer(key)).send(sampleOf(collectionNamed('paths')));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const restarted = new Promise<number>((resolve) => runtime.databaseServer.onRestart!(resolve));
    const pid = runtime.databaseServer.pid!;
    process.kill(pid, 'SIGKILL');
    expect(await restarted).to.equal(1);
    expect(runtime.databaseServer.pid).to.not.equal(pid);
    const res = await untilOk(() => request.get(`${url}/${created.body.id}`).set(bearer(key)));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(created.body);
    expect((await request.get('/healthz')).status).to.equal(200);
  });
});
