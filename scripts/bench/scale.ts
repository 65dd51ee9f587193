// `npm run bench:scale`: the catalog-scale scenario on the embedded database the
// service starts (FerretDB 1.24 on SQLite): 10 versions × 5,000 Paths, then a get by id, a
// first and a deep page of 50 filtered and sorted Paths of one version (sorted by path, and by id,
// the list's default), and of Responses with status code 200 (as many as Paths, by id), measured with the driver alone (the service adds the same small cost on
// every engine; see `npm run bench`). Each query is measured twice: with only its own version
// stored, and with all ten, which shows whether its cost grows with the other versions' records. The study that compared other engines with the
// same scenario is settled; its figures are in docs/database-candidates.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Document } from 'mongodb';
import { connectDatabase } from '../../server/database/database.ts';
import { ferretdbPath } from '../../server/database/embedded/build-ferretdb.ts';
import { startFerretDB } from '../../server/database/embedded/ferretdb.ts';
import { keysetFilter, mongoSort, withTieBreaker } from '../../server/store/cursor.ts';
import { documentId, RecordStore, type CatalogRecord } from '../../server/store/records.ts';
import { loadSchemaRegistry } from '../../server/schemas/registry.ts';
import { Revisions } from '../../server/tenancy/revisions.ts';
import { pathBodies } from './fixtures.ts';

interface Options {
  versions: number;
  records: number;
  samples: number;
  maxSeconds: number;
}

const PAGE = 50;
const SORT = withTieBreaker([{ field: 'path', direction: 1 }]);
const CACHE_DIR = path.resolve('.cache');

/** The processes of a running FerretDB: its wrapper (the pid the service keeps) and the server under it. */
function processesOf(wrapper: number): number[] {
  const found = [wrapper];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === wrapper) found.push(Number(entry));
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

/**
 * One version's Paths, stored by the service's own record store (its stored form, natural key
 * and indexes). The study also stored as many Requests; they are left out, since FerretDB keeps
 * each collection in a table of its own and a Paths query never reads another.
 */
async function seed(paths: RecordStore, versionId: string, count: number): Promise<void> {
  const records = pathBodies(count, 1).map((body, i): CatalogRecord => ({ ...body, id: `path_${String(i).padStart(6, '0')}`, versionId }));
  await paths.bulk(versionId, { insert: records }, new Date('2026-11-01T00:00:00Z'));
}

const STATUS_CODES = [200, 201, 400, 404, null];

/** As many Responses as Paths, five per operation (one per status code), in the version. */
async function seedResponses(responses: RecordStore, versionId: string, count: number): Promise<void> {
  const records = Array.from({ length: count }, (_, i): CatalogRecord => ({
    id: `rsp_${String(i).padStart(6, '0')}`, versionId, operationId: `op_${String(Math.floor(i / 5)).padStart(6, '0')}`,
    statusCode: STATUS_CODES[i % 5], contentMediaType: i % 5 === 4 ? null : 'application/json',
    description: `Response ${i % 5} of operation ${Math.floor(i / 5)}: the resource as stored, with its links.`,
  }));
  await responses.bulk(versionId, { insert: records }, new Date('2026-11-01T00:00:00Z'));
}

interface Measured { p50Ms: number; dbCpuMsPerRequest: number; samples: number }

async function measure(run: () => Promise<unknown>, pids: number[], options: Options): Promise<Measured> {
  await run(); // warm
  const times: number[] = [];
  const cpuBefore = cpuMs(pids);
  const deadline = Date.now() + options.maxSeconds * 1000;
  while (times.length < options.samples && (times.length < 3 || Date.now() < deadline)) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const cpu = cpuMs(pids) - cpuBefore;
  times.sort((a, b) => a - b);
  return { p50Ms: round(times[Math.floor(times.length / 2)]!), dbCpuMsPerRequest: round(cpu / times.length), samples: times.length };
}

const round = (value: number) => Math.round(value * 10) / 10;

async function run(options: Options, port: number): Promise<Document> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-scale-'));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const server = await startFerretDB(ferretdbPath(CACHE_DIR), { dataDir, port, engine: 'ferretdb', cacheDir: CACHE_DIR, log }, port);
  const result: Document = { engine: 'ferretdb-sqlite' };
  const database = await connectDatabase(server.uri, 'catalog');
  try {
    const collection = loadSchemaRegistry().collections.find((candidate) => candidate.name === 'paths')!;
    const revisions = new Revisions(database.db);
    const paths = new RecordStore(database.db, collection, { revisions });
    await paths.createIndexes();
    const responses = new RecordStore(database.db, loadSchemaRegistry().collections.find((candidate) => candidate.name === 'responses')!, { revisions });
    await responses.createIndexes();
    const pids = processesOf(server.pid!);
    const stored = database.db.collection('paths');
    const versionIds = Array.from({ length: options.versions }, (_, i) => `ver_scale${String(i).padStart(2, '0')}`);
    const target = versionIds[0]!;
    const seedStart = Date.now();
    await seed(paths, target, options.records);
    await seedResponses(responses, target, options.records);
    result['seedOneVersionS'] = round((Date.now() - seedStart) / 1000);
    const serviceId = String((await paths.get(target, 'path_000000'))!['serviceId']);
    const filter = { versionId: target, serviceId };
    // The deep page starts at the item 80% of the way through the filtered, sorted version.
    const all = await stored.find(filter).sort(mongoSort(SORT)).project({ path: 1, id: 1 }).toArray();
    const deepAfter = all[Math.floor(all.length * 0.8)]!;
    const deepAfterById = all.map((document) => String(document['id'])).sort()[Math.floor(all.length * 0.8)]!;
    result['filteredItems'] = all.length;
    // Responses as the list route asks for them (store/record-pages.ts): by status code, by id.
    const byStatus = { versionId: target, filters: { statusCode: 200 }, sort: [{ field: 'id', direction: 1 }] as const, limit: PAGE };
    const deepResponse = `rsp_${String(Math.floor(options.records * 0.8 / 5) * 5).padStart(6, '0')}`;
    const queries = {
      get: () => stored.findOne({ _id: documentId(target, 'path_000123') as never }),
      firstPage: () => stored.find(filter).sort(mongoSort(SORT)).limit(PAGE + 1).toArray(),
      deepPage: () => stored.find({ $and: [filter, keysetFilter(SORT, deepAfter)] }).sort(mongoSort(SORT)).limit(PAGE + 1).toArray(),
      // The list's default order (by id), as store/record-pages.ts asks for it.
      firstPageById: () => stored.find(filter).sort({ id: 1 }).limit(PAGE + 1).toArray(),
      deepPageById: () => stored.find({ $and: [filter, { id: { $gte: deepAfterById } }] }).sort({ id: 1 }).limit(PAGE + 1).toArray(),
      responsesFirstPage: () => responses.list({ ...byStatus, cursor: undefined }),
      responsesDeepPage: () => responses.list({ ...byStatus, cursor: deepResponse }),
    };
    for (const [phase, label] of [['alone', 'one version stored'], ['all', `${options.versions} versions stored`]] as const) {
      if (phase === 'all') {
        const started = Date.now();
        for (const [i, versionId] of versionIds.slice(1).entries()) {
          await seed(paths, versionId, options.records);
          await seedResponses(responses, versionId, options.records);
          log(`  seeded ${versionId} (${i + 2}/${options.versions})`);
        }
        result['seedOtherVersionsS'] = round((Date.now() - started) / 1000);
      }
      log(`  measuring with ${label}`);
      const measured: Document = {};
      for (const [name, query] of Object.entries(queries)) measured[name] = await measure(query, pids, options);
      result[phase] = measured;
      log(`  ${JSON.stringify(measured)}`);
    }
  } finally {
    await database.close().catch(() => {});
    await server.stop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

function parse(argv: string[]): Options {
  const options: Options = { versions: 10, records: 5_000, samples: 20, maxSeconds: 15 };
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    switch (argv[i]) {
      case '--versions': options.versions = value; i++; break;
      case '--records': options.records = value; i++; break;
      case '--samples': options.samples = value; i++; break;
      case '--max-seconds': options.maxSeconds = value; i++; break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return options;
}

export async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  const port = Number(process.env['SCALE_PORT'] ?? 27106);
  const result = await run(options, port);
  process.stdout.write(`${JSON.stringify({ options, machine: { cpus: os.cpus().length, loadavg: os.loadavg() }, results: [result] }, null, 2)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
