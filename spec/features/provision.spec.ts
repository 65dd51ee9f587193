// provisionDatabase: external URI, FerretDB start/stop/persistence, reuse of a running server,
// the remembered mongod download failure, and the errors that name the ways out.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { provisionDatabase, type DatabaseServer, type ProvisionOptions } from '../../server/database/provision.ts';

const REPO_CACHE = path.resolve(import.meta.dirname, '..', '..', '.cache');
const PROVISION_MODULE = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'server', 'database', 'provision.ts')).href;

describe('database provisioning', function () {
  const started: DatabaseServer[] = [];
  const tempDirs: string[] = [];
  let shared: DatabaseServer;
  let sharedLog: string[];

  async function tempDir(prefix: string): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `catalog-${prefix}-`));
    tempDirs.push(dir);
    return dir;
  }

  async function provision(options: Partial<ProvisionOptions> & { dataDir: string }, log: string[] = []): Promise<DatabaseServer> {
    const server = await provisionDatabase({
      port: 0,
      engine: 'ferretdb',
      cacheDir: REPO_CACHE,
      log: (m) => log.push(m),
      ...options,
    });
    started.push(server);
    return server;
  }

  before(async function () {
    this.timeout(15 * 60_000); // builds FerretDB first when `npm run db:build` has not run
    sharedLog = [];
    shared = await provision({ dataDir: await tempDir('shared') }, sharedLog);
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(started.map((s) => s.stop()));
    await Promise.all(tempDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it('returns an external URI as given without starting anything', async function () {
    const dataDir = await tempDir('external');
    const uri = 'mongodb://db.invalid:27017/?replicaSet=rs0';
    const server = await provisionDatabase({ uri, dataDir, port: 1, engine: 'auto', cacheDir: dataDir, log: () => expect.fail('logged') });
    expect(server).to.include({ uri, kind: 'external', reused: false });
    await server.stop();
    await server.stop();
    expect(await fs.readdir(dataDir)).to.deep.equal([]);
  });

  it('starts FerretDB on loopback with its data and log under dataDir', async function () {
    expect(shared).to.include({ kind: 'ferretdb', reused: false });
    expect(shared.uri).to.match(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    const info = await withClient(shared.uri, (c) => c.db('admin').command({ buildInfo: 1 }));
    expect(info).to.have.property('ferretdbVersion');
    expect(sharedLog.join('\n')).to.include('FerretDB on ' + shared.uri);
  });

  it('keeps data across stop and start on the same dataDir', async function () {
    const dataDir = await tempDir('persist');
    const first = await provision({ dataDir });
    await withClient(first.uri, (c) => c.db('catalog').collection('things').insertOne({ _id: 'kept' as never, n: 1 }));
    await first.stop();
    await first.stop(); // idempotent
    expect(await answers(first.uri)).to.equal(false);

    const second = await provision({ dataDir });
    const found = await withClient(second.uri, (c) => c.db('catalog').collection('things').findOne({ _id: 'kept' as never }));
    expect(found).to.deep.equal({ _id: 'kept', n: 1 });
    expect(await fs.readFile(path.join(dataDir, 'ferretdb.log'), 'utf8')).to.match(/starting FerretDB[\s\S]*starting FerretDB/);
    await second.stop();
  });

  it('attaches to a server already listening on the port, and leaves it running on stop', async function () {
    const port = portOf(shared.uri);
    const log: string[] = [];
    const reused = await provision({ dataDir: await tempDir('reuse'), port, engine: 'auto' }, log);
    expect(reused).to.deep.include({ uri: shared.uri, kind: 'ferretdb', reused: true });
    expect(log.join('\n')).to.include('already listening');
    await reused.stop();
    expect(await answers(shared.uri)).to.equal(true);
  });

  it('refuses a port held by something that is not a MongoDB server', async function () {
    this.timeout(10_000);
    const other = net.createServer((socket) => socket.on('error', () => {}).end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as net.AddressInfo).port;
      const error = await rejection(provision({ dataDir: await tempDir('busy'), port }));
      expect(error.message).to.include(`port ${port}`).and.to.include('does not answer the MongoDB protocol');
    } finally {
      other.close();
    }
  });

  it('names the ways out when no engine can start', async function () {
    const cacheDir = await tempDir('nocache');
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(cacheDir, 'no-go-here');
    let error: Error;
    try {
      error = await rejection(provision({ dataDir: await tempDir('nogo'), cacheDir }));
    } finally {
      process.env.PATH = savedPath;
    }
    expect(error.message).to.include('Go toolchain').and.to.include('not on PATH');
    expect(error.message).to.include('MONGODB_URI');
    expect(error.message).to.include('MONGOMS_');
    expect(error.message).to.include('install Go');
    expect(await fs.readdir(cacheDir)).to.deep.equal([]);
  });

  it('stops FerretDB when the process that started it is killed', async function () {
    this.timeout(15_000);
    const dataDir = await tempDir('orphan');
    const script = `
      const { provisionDatabase } = await import(${JSON.stringify(PROVISION_MODULE)});
      const s = await provisionDatabase({ dataDir: ${JSON.stringify(dataDir)}, port: 0, engine: 'ferretdb',
        cacheDir: ${JSON.stringify(REPO_CACHE)}, log: () => {} });
      console.log(s.uri);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const uri = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    expect(await answers(uri)).to.equal(true);
    child.kill('SIGKILL');
    expect(await eventually(async () => !(await acceptsTcp(portOf(uri))), 5_000)).to.equal(true);
  });

  describe('when the mongod download fails', function () {
    const env = ['MONGOMS_DOWNLOAD_MIRROR', 'MONGOMS_DOWNLOAD_DIR', 'MONGOMS_MAX_RETRIES'] as const;
    const saved = new Map<string, string | undefined>();

    before(async function () {
      for (const name of env) saved.set(name, process.env[name]);
      // An unreachable download that fails at once, into an empty download dir.
      process.env.MONGOMS_DOWNLOAD_MIRROR = `http://127.0.0.1:${await closedPort()}`;
      process.env.MONGOMS_DOWNLOAD_DIR = await tempDir('mongoms');
      process.env.MONGOMS_MAX_RETRIES = '1';
      const { DryMongoBinary } = await import('mongodb-memory-server');
      const binary = await DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions({})).catch(() => 'unusable');
      if (binary) this.skip(); // a mongod is installed or cached here: nothing to fall back from
    });

    after(function () {
      for (const name of env) {
        const value = saved.get(name);
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('auto falls back to FerretDB and remembers the failure for the next start', async function () {
      const cacheDir = await cacheWithRealFerretDB();
      const dataDir = await tempDir('auto');
      const firstLog: string[] = [];
      const first = await provision({ dataDir, cacheDir, engine: 'auto' }, firstLog);
      expect(first.kind).to.equal('ferretdb');
      expect(firstLog.join('\n')).to.match(/no mongod \(.*\); falling back to FerretDB/);
      await first.stop();
      const remembered = JSON.parse(await fs.readFile(path.join(cacheDir, 'mongod-download-failed.json'), 'utf8'));
      expect(remembered).to.have.property('reason').that.is.a('string');

      const secondLog: string[] = [];
      const second = await provision({ dataDir, cacheDir, engine: 'auto' }, secondLog);
      expect(second.kind).to.equal('ferretdb');
      expect(secondLog.join('\n')).to.include('mongod download failed').and.to.include('not retried');
      expect(secondLog.join('\n')).not.to.include('looking for a mongod');
      await second.stop();
    });

    it('engine "mongodb" retries the download and does not fall back', async function () {
      const cacheDir = await cacheWithRealFerretDB();
      const log: string[] = [];
      const error = await rejection(provision({ dataDir: await tempDir('mongodb'), cacheDir, engine: 'mongodb' }, log));
      expect(log.join('\n')).to.include('looking for a mongod');
      expect(error.message).to.match(/mongod: /).and.not.to.match(/FerretDB: /);
      expect(error.message).to.include('MONGODB_URI').and.to.include('install Go');
    });

    /** A private cacheDir (own failure memory) that shares the real FerretDB binary. */
    async function cacheWithRealFerretDB(): Promise<string> {
      const cacheDir = await tempDir('cache');
      await fs.mkdir(path.join(cacheDir, 'bin'));
      await fs.symlink(path.join(REPO_CACHE, 'bin', 'ferretdb'), path.join(cacheDir, 'bin', 'ferretdb'));
      return cacheDir;
    }
  });
});

async function withClient<T>(uri: string, use: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 2_000 });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function answers(uri: string): Promise<boolean> {
  if (!(await acceptsTcp(portOf(uri)))) return false;
  return withClient(uri, (c) => c.db('admin').command({ ping: 1 })).then(() => true, () => false);
}

function acceptsTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const portOf = (uri: string) => Number(new URL(uri).port);

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
