// `npm run bench:scale`: the catalog-scale scenario of issue 10, run on every embedded-database
// candidate side by side: 10 versions × 10,000 records over two collections, then a get by id,
// a first and a deep page of 50 filtered and sorted records of one version, measured with the
// driver alone (the service adds the same small cost on every engine; see `npm run bench`).
// Each query is measured twice: with only its own version stored, and with all ten, which shows
// whether its cost grows with the other versions' records.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { keysetFilter, mongoSort, withTieBreaker } from '../../server/store/cursor.ts';
import { documentId } from '../../server/store/records.ts';
import { pathBodies, prng } from './fixtures.ts';

interface Options {
  versions: number;
  records: number;
  engines: string[];
  mjsLib: string;
  samples: number;
  maxSeconds: number;
}

/** One candidate: how to start it, and which processes are "the database" for CPU accounting. */
interface Engine {
  name: string;
  /** Collection names for a version: one per kind shared by all versions, or one per kind and version. */
  layout: 'shared' | 'per-version';
  start(dir: string, port: number): Promise<Running>;
}

interface Running {
  uri: string;
  pids(): number[];
  stop(): Promise<void>;
}

/** What to stop should we be interrupted. */
const cleanups = new Set<() => void>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const cleanup of cleanups) try { cleanup(); } catch { /* best effort */ }
    process.exit(130);
  });
}

const FERRETDB = path.resolve('.cache/bin/ferretdb');
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PAGE = 50;
const SORT = withTieBreaker([{ field: 'path', direction: 1 }]);

function ferretdb(handler: 'sqlite' | 'postgresql', layout: Engine['layout']): Engine {
  return {
    name: `ferretdb-${handler === 'sqlite' ? 'sqlite' : 'postgres'}${layout === 'per-version' ? ' (collection per version)' : ''}`,
    layout,
    async start(dir, port) {
      let pg: Running | undefined;
      const args = [`--listen-addr=127.0.0.1:${port}`, '--telemetry=disable', '--debug-addr=-', '--log-level=error', `--state-dir=${dir}`];
      if (handler === 'sqlite') {
        fs.mkdirSync(path.join(dir, 'sqlite'), { recursive: true });
        args.push('--handler=sqlite', `--sqlite-url=file:${dir}/sqlite/`);
      } else {
        pg = await startPostgres(path.join(dir, 'pg'));
        args.push('--handler=postgresql', `--postgresql-url=postgres://postgres@/ferretdb?host=${path.join(dir, 'pg')}`);
      }
      const child = spawn(FERRETDB, args, { stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'ferretdb.log'), 'a')] });
      cleanups.add(() => child.kill('SIGKILL'));
      const uri = `mongodb://127.0.0.1:${port}/`;
      await waitForMongo(uri);
      return {
        uri,
        pids: () => [child.pid!, ...(pg?.pids() ?? [])],
        async stop() {
          await kill(child);
          await pg?.stop();
        },
      };
    },
  };
}

/** A throwaway PostgreSQL on a Unix socket only (no TCP port), run as `postgres` when we are root. */
async function startPostgres(dir: string): Promise<Running> {
  fs.mkdirSync(dir, { recursive: true });
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asUser.length) spawnSync('chown', ['-R', 'postgres:postgres', path.dirname(dir)]);
  const run = (bin: string, ...args: string[]) => {
    const [command, ...rest] = [...asUser, path.join(PG_BIN, bin), ...args];
    const result = spawnSync(command!, rest, { encoding: 'utf8', cwd: '/tmp' });
    if (result.status !== 0) throw new Error(`${bin} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', '-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8');
  run('pg_ctl', '-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-o', `-c listen_addresses='' -c unix_socket_directories=${dir}`, 'start');
  run('createdb', '-h', dir, '-U', 'postgres', 'ferretdb');
  cleanups.add(() => run('pg_ctl', '-D', path.join(dir, 'data'), '-m', 'immediate', 'stop'));
  const postmaster = Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    uri: dir,
    pids: () => [postmaster, ...childrenOf(postmaster)],
    async stop() {
      run('pg_ctl', '-D', path.join(dir, 'data'), '-m', 'fast', '-w', 'stop');
    },
  };
}

function mongoJavaServer(lib: string): Engine {
  return {
    name: 'mongo-java-server (H2)',
    layout: 'shared',
    async start(dir, port) {
      const compiled = spawnSync('javac', ['-cp', `${lib}/*`, '-d', path.join(dir, 'classes'), path.resolve('scripts/bench/mjs/MjsMain.java')], { encoding: 'utf8' });
      if (compiled.status !== 0) throw new Error(`javac failed: ${compiled.stderr}`);
      const child = spawn('java', ['-cp', `${lib}/*:${path.join(dir, 'classes')}`, 'MjsMain', path.join(dir, 'h2.mv'), String(port)], { stdio: ['ignore', 'ignore', 'ignore'] });
      cleanups.add(() => child.kill('SIGKILL'));
      const uri = `mongodb://127.0.0.1:${port}/`;
      await waitForMongo(uri, 60_000);
      return { uri, pids: () => [child.pid!], stop: () => kill(child) };
    },
  };
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch { /* gone */ }
  }
  return found;
}

/** CPU ms (user + system, with reaped children) of the given processes. */
function cpuMs(pids: number[]): number {
  const tick = 1000 / 100;
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * tick;
    } catch { /* gone */ }
  }
  return total;
}

async function waitForMongo(uri: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, directConnection: true });
    try {
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await client.close().catch(() => {});
    }
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Stored documents of one version, in the form RecordStore writes (see records.ts toDocument). */
function versionDocuments(versionId: string, count: number, seed: number): { paths: Document[]; requests: Document[] } {
  const bodies = pathBodies(Math.ceil(count / 2), seed);
  const random = prng(seed + 1000);
  const updatedAt = new Date('2026-11-01T00:00:00Z');
  const paths: Document[] = bodies.map((body, i) => {
    const id = `path_${String(i).padStart(6, '0')}`;
    return { _id: documentId(versionId, id), id, versionId, updatedAt, ...body };
  });
  const requests = Array.from({ length: Math.floor(count / 2) }, (_, i) => {
    const id = `req_${String(i).padStart(6, '0')}`;
    const pathDoc = paths[Math.floor(random() * paths.length)]!;
    return {
      _id: documentId(versionId, id), id, versionId, updatedAt,
      pathId: pathDoc['id'], method: ['get', 'post', 'put', 'patch', 'delete'][i % 5],
      summary: `${pathDoc['summary']} (${i})`, description: pathDoc['description'], kvStorage: pathDoc['kvStorage'],
    };
  });
  return { paths, requests };
}

const collectionName = (engine: Engine, kind: string, versionId: string) => engine.layout === 'shared' ? kind : `${kind}_${versionId}`;

async function seed(db: ReturnType<MongoClient['db']>, engine: Engine, versionId: string, count: number, seedNo: number): Promise<void> {
  const { paths, requests } = versionDocuments(versionId, count, seedNo);
  for (const [kind, documents] of [['paths', paths], ['requests', requests]] as const) {
    const collection = db.collection(collectionName(engine, kind, versionId));
    for (let i = 0; i < documents.length; i += 500) await collection.insertMany(documents.slice(i, i + 500) as never[], { ordered: false });
  }
}

async function createIndexes(db: ReturnType<MongoClient['db']>, engine: Engine, versionId: string): Promise<void> {
  for (const kind of ['paths', 'requests']) {
    const collection = db.collection(collectionName(engine, kind, versionId));
    await collection.createIndex({ versionId: 1, id: 1 }, { unique: true, name: 'versionId_id' });
    await collection.createIndex({ versionId: 1, [kind === 'paths' ? 'serviceId' : 'pathId']: 1, id: 1 });
  }
}

interface Measured { p50Ms: number; dbCpuMsPerRequest: number; samples: number }

async function measure(run: () => Promise<unknown>, pids: () => number[], options: Options): Promise<Measured> {
  await run(); // warm
  const times: number[] = [];
  const ids = pids();
  const cpuBefore = cpuMs(ids);
  const deadline = Date.now() + options.maxSeconds * 1000;
  while (times.length < options.samples && (times.length < 3 || Date.now() < deadline)) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const cpu = cpuMs(ids) - cpuBefore;
  times.sort((a, b) => a - b);
  return { p50Ms: round(times[Math.floor(times.length / 2)]!), dbCpuMsPerRequest: round(cpu / times.length), samples: times.length };
}

const round = (value: number) => Math.round(value * 10) / 10;

async function queries(collection: Collection, versionId: string, serviceId: string, deepAfter: Document) {
  const filter = { versionId, serviceId };
  return {
    get: () => collection.findOne({ _id: documentId(versionId, 'path_000123') as never }),
    first: () => collection.find(filter).sort(mongoSort(SORT)).limit(PAGE + 1).toArray(),
    deep: () => collection.find({ $and: [filter, keysetFilter(SORT, deepAfter)] }).sort(mongoSort(SORT)).limit(PAGE + 1).toArray(),
  };
}

async function runEngine(engine: Engine, options: Options, port: number): Promise<Document> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-scale-'));
  fs.chmodSync(dir, 0o755);
  process.stderr.write(`\n${engine.name}: starting in ${dir}\n`);
  const running = await engine.start(dir, port);
  const client = new MongoClient(running.uri, { directConnection: true });
  const result: Document = { engine: engine.name };
  try {
    const db = client.db('catalog');
    const versionIds = Array.from({ length: options.versions }, (_, i) => `ver_scale${String(i).padStart(2, '0')}`);
    const target = versionIds[0]!;
    const seedStart = Date.now();
    await createIndexes(db, engine, target);
    await seed(db, engine, target, options.records, 1);
    result['seedOneVersionS'] = round((Date.now() - seedStart) / 1000);
    const collection = db.collection(collectionName(engine, 'paths', target));
    const serviceId = String((await collection.findOne({ _id: documentId(target, 'path_000000') as never }))!['serviceId']);
    // The deep page starts at the item 80% of the way through the filtered, sorted version.
    const all = await collection.find({ versionId: target, serviceId }).sort(mongoSort(SORT)).project({ path: 1, id: 1 }).toArray();
    const deepAfter = all[Math.floor(all.length * 0.8)]!;
    result['filteredItems'] = all.length;
    const q = await queries(collection, target, serviceId, deepAfter);
    for (const [phase, label] of [['alone', 'one version stored'], ['all', `${options.versions} versions stored`]] as const) {
      if (phase === 'all') {
        const started = Date.now();
        for (const [i, versionId] of versionIds.slice(1).entries()) {
          await createIndexes(db, engine, versionId);
          await seed(db, engine, versionId, options.records, 1);
          process.stderr.write(`  seeded ${versionId} (${i + 2}/${options.versions})\n`);
        }
        result['seedOtherVersionsS'] = round((Date.now() - started) / 1000);
      }
      process.stderr.write(`  measuring with ${label}\n`);
      result[phase] = {
        get: await measure(q.get, running.pids, options),
        firstPage: await measure(q.first, running.pids, options),
        deepPage: await measure(q.deep, running.pids, options),
      };
      process.stderr.write(`  ${JSON.stringify(result[phase])}\n`);
    }
  } catch (error) {
    result['error'] = String((error as Error).stack ?? error);
    process.stderr.write(`  failed: ${result['error']}\n`);
  } finally {
    await client.close().catch(() => {});
    await running.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

function parse(argv: string[]): Options {
  const options: Options = { versions: 10, records: 10_000, engines: ['sqlite', 'sqlite-per-version', 'postgres', 'mjs'], mjsLib: '', samples: 20, maxSeconds: 15 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    switch (argv[i]) {
      case '--versions': options.versions = Number(value); i++; break;
      case '--records': options.records = Number(value); i++; break;
      case '--engines': options.engines = value.split(','); i++; break;
      case '--mjs-lib': options.mjsLib = value; i++; break;
      case '--samples': options.samples = Number(value); i++; break;
      case '--max-seconds': options.maxSeconds = Number(value); i++; break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return options;
}

export async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  const engines: Record<string, Engine> = {
    sqlite: ferretdb('sqlite', 'shared'),
    'sqlite-per-version': ferretdb('sqlite', 'per-version'),
    postgres: ferretdb('postgresql', 'shared'),
  };
  if (options.mjsLib) engines['mjs'] = mongoJavaServer(options.mjsLib);
  const results: Document[] = [];
  const port = Number(process.env['SCALE_PORT'] ?? 27106);
  for (const name of options.engines) {
    const engine = engines[name];
    if (!engine) { process.stderr.write(`skipping ${name} (not available)\n`); continue; }
    results.push(await runEngine(engine, options, port));
  }
  process.stdout.write(`${JSON.stringify({ options, machine: { cpus: os.cpus().length, loadavg: os.loadavg() }, results }, null, 2)}\n`);
  return results.some((result) => result['error']) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
