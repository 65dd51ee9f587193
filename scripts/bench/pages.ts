// npm run bench:pages: the pages' server time and weight, beside a GET of the interface, in one
// run on the embedded database (or MONGODB_URI). Imports GitHub, Stripe, Kubernetes and Slack
// into one version (2,694 operations) through the real app, signs in as a browser does, then
// alternates each page with a single-record GET in one loop (p50, p99 over loopback) and weighs
// each page with its assets, raw and gzip-compressed. --save writes docs/bench-results/pages.txt.
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
import { TUNING } from './search/tasks.ts';

const SERVICES = ['github', 'stripe', 'kubernetes', 'slack'];
const SAMPLES = Number(process.env['PAGES_BENCH_SAMPLES'] ?? 50);
const OPERATION_SAMPLES = Number(process.env['PAGES_BENCH_OPERATION_SAMPLES'] ?? 5);
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
  const pages: Array<[string, string]> = [
    ['home', '/catalog'],
    ['version (4 services)', at],
    ['search "delete a repository"', `${at}/search?q=delete+a+repository`],
    ['service github (page 1 of 200 ops)', `${at}/services/github`],
    ['operation repos/delete', `${at}/services/github/operations/repos%2Fdelete`],
  ];
  // The changes report exports the service from both versions on every call (server/changes/):
  // timed once, not in the loop.
  const changes = `${at}/services/github/changes?against=branch/main`;
  const interfaceGet = `${prefix}/operations/${operation}`;
  const timed = async (url: string, headers: Record<string, string>): Promise<{ ms: number; body: string; status: number }> => {
    const started = performance.now();
    const res = await fetch(`${origin}${url}`, { headers });
    const body = await res.text();
    return { ms: performance.now() - started, body, status: res.status };
  };
  const browser = { Cookie: cookie, Accept: 'text/html' };
  const program = { Authorization: `Bearer ${secret}` };
  const first: string[] = [];
  for (const [name, url] of pages) {
    const { ms, status } = await timed(url, browser);
    if (status !== 200) throw new Error(`${name}: ${status}`);
    first.push(`${name} ${ms.toFixed(0)} ms`);
  }
  const changed = await timed(changes, browser);
  first.push(`changes github against its own version ${changed.ms.toFixed(0)} ms (${(Buffer.byteLength(changed.body) / 1024).toFixed(1)} KB)`);
  say(`first load after the import: ${first.join('; ')}`);
  say();
  const assets = (await Promise.all(['/assets/pages/pages.css', '/assets/pages/search.js'].map(async (url) => (await timed(url, {})).body)));
  const assetBytes = assets.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const assetGzip = assets.reduce((sum, text) => sum + gzipSync(text).length, 0);
  say(`| page (samples), alternated with the interface GET | p50 ms | p99 ms | interface GET p50 ms | HTML KB | with assets KB | gzip with assets KB |`);
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, url] of pages) {
    // The operation page costs what its endpoint-detail view costs (below): fewer samples.
    const samples = name.startsWith('operation') ? OPERATION_SAMPLES : SAMPLES;
    const page: number[] = [];
    const api: number[] = [];
    let body = '';
    for (let i = 0; i < samples; i++) {
      const shown = await timed(url, browser);
      page.push(shown.ms);
      body = shown.body;
      api.push((await timed(interfaceGet, program)).ms);
    }
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const raw = Buffer.byteLength(body);
    say(`| ${name} (${samples}) | ${quantile(page, 0.5).toFixed(1)} | ${quantile(page, 0.99).toFixed(1)} | ${quantile(api, 0.5).toFixed(1)} | ${kb(raw)} | ${kb(raw + assetBytes)} | ${kb(gzipSync(body).length + assetGzip)} |`);
  }
  // Where the operation page's time goes: the view it reads (MCP get_endpoint's), alone.
  const view = await viewOf(runtime.stores, version.id);
  const deleteRepo = view.of('operations').find((record) => record['operationId'] === 'repos/delete')!;
  const detailMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await endpointDetail(runtime.stores, view, deleteRepo);
    detailMs.push(performance.now() - started);
  }
  say();
  say(`endpointDetail (search/endpoints.ts, MCP get_endpoint's view) alone for repos/delete: ${detailMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  say(`interface GET: ${interfaceGet.replace(version.id, '{versionId}').replace(operation, '{id}')} with a bearer key; pages with the session cookie of a sign-in.`);
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
