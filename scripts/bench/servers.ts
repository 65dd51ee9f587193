// The benchmark's servers process (started by scripts/bench.ts with an IPC channel). It runs
// three HTTP servers on loopback ports, side by side in one process, so that they share one
// event loop and heap while the load generator runs elsewhere:
//
//   service     the real app: createApp over openRuntime, exactly as `npm start` builds it
//   bareMemory  a bare Express 5 app answering the service's own JSON from memory (no auth, no DB)
//   bareDb      a bare Express 5 app calling the service's own record store, then res.json
//
// service vs bareMemory is everything the request path costs; service vs bareDb is the request
// pipeline's overhead (authentication, version resolution, query and body checks, logging,
// headers) with the database's and the store's (codec, locks, natural key) cost taken out.
import fs from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '../../server/logger.ts';
import { createApp } from '../../server/app.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { newId } from '../../server/ids.ts';
import { withTieBreaker } from '../../server/store/cursor.ts';
import type { CatalogRecord, RecordStore } from '../../server/store/records.ts';
import type { ChildMessage, ParentMessage, Ready, ServerName, StartRequest } from './protocol.ts';
import { MemorySampler } from './memory.ts';
import { BIG_PAGE } from './scenarios.ts';

const LOOPBACK = '127.0.0.1';
const COLLECTION = 'paths';
const ITEM_ROUTES = ['/v2/catalog/versions/:versionId/paths/:id', '/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths/:id'];
const LIST_ROUTES = ['/v2/catalog/versions/:versionId/paths', '/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths'];
/** The service's default page size; it asks the database for one more to know whether more follow. */
const PAGE = 50;

interface State {
  runtime: Runtime;
  servers: http.Server[];
  ready: Ready;
  memory: MemoryData;
}

/** What the in-memory server answers: the service's own responses, captured once. */
interface MemoryData {
  byId: Map<string, unknown>;
  firstPage: unknown;
  firstPageByPath: unknown;
  bigPage: unknown;
}

let state: State | undefined;
/** Peak memory around one import, export or copy (the one-shot scenarios, oneshot.ts). */
const sampler = new MemorySampler();

/**
 * Requests whose handler has not answered yet, over all three servers. When the load generator
 * stops it drops its connections, but handlers already running go on (they answer into a closed
 * socket); the parent waits for this to reach 0 so that one burst's tail does not run into the
 * next burst's measurements.
 */
let inFlight = 0;

function tracked(app: express.Express): http.RequestListener {
  return (req, res) => {
    inFlight++;
    const end = res.end;
    let ended = false;
    res.end = function (this: http.ServerResponse, ...args: unknown[]) {
      if (!ended) {
        ended = true;
        inFlight--;
      }
      return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.end;
    app(req, res);
  };
}

function reply(message: ChildMessage, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

process.on('message', (message: ParentMessage) => {
  handle(message).catch((error: unknown) => {
    reply({ type: 'failed', seq: message.seq, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
// The parent owns the run: a terminal's Ctrl-C reaches us too, but the parent stops us in order.
process.on('SIGINT', () => {});
// The parent is gone (crashed, killed): nothing left to serve.
process.on('disconnect', () => process.exit(1));

async function handle(message: ParentMessage): Promise<void> {
  switch (message.type) {
    case 'start':
      state = await start(message);
      reply(state.ready);
      return;
    case 'seed': {
      const current = started();
      const ids = await seed(current.runtime, current.ready.version.id, message.bodies);
      await captureResponses(current.ready, current.memory);
      reply({ type: 'seeded', seq: message.seq, ids, records: current.memory.byId.size });
      return;
    }
    case 'stats':
      if (message.gc) (globalThis as { gc?: () => void }).gc?.();
      reply({ type: 'stats', seq: message.seq, cpu: process.cpuUsage(), memory: process.memoryUsage(), inFlight });
      return;
    case 'profile':
      reply({ type: 'profiled', seq: message.seq, ...(await profile(message.action, message.file)) });
      return;
    case 'memory':
      if (message.action === 'start') {
        sampler.start();
        reply({ type: 'memory', seq: message.seq });
      } else {
        reply({ type: 'memory', seq: message.seq, peak: sampler.stop() });
      }
      return;
    case 'shutdown':
      await shutdown(message.dropDatabase);
      reply({ type: 'closed', seq: message.seq }, () => process.exit(0));
      return;
  }
}

function started(): State {
  if (!state) throw new Error('servers not started');
  return state;
}

async function start(request: StartRequest): Promise<State> {
  // Production defaults except the database (given), the secret (given) and the rate limit (off:
  // one credential at thousands of requests a second is the load, not abuse). At `info` every
  // request logs one access line, as in production.
  const config = loadConfig({ MONGODB_URI: request.uri, JWT_SECRET: request.jwtSecret, LOG_LEVEL: process.env.BENCH_LOG ?? 'info', RATE_LIMIT: 'off', METRICS: process.env.BENCH_METRICS ?? 'on',
    // GitHub's description keeps about 20,000 keys of webhooks on its Service record (README, Limits).
    RECORD_MAX_KEYS: process.env.RECORD_MAX_KEYS ?? '50000',
    // LINT=off SCORES=off: the service as it was before governance, to compare with a checkout of then.
    ...(process.env.LINT && { LINT: process.env.LINT }), ...(process.env.SCORES && { SCORES: process.env.SCORES }) });
  // The logger `npm start` makes, writing JSON lines to stdout (a pipe to the benchmark).
  const logger = createLogger(config.logLevel, 'json');
  const runtime = await openRuntime(config, logger);
  try {
    const { tenancy } = runtime;
    const project = await tenancy.projects.create('bench', 'Benchmark');
    const version = await tenancy.versions.create(project.id, 'branch', 'main');
    const { secret: apiKey } = await tenancy.apiKeys.create(project.id, false);
    const { token } = issueToken({ subject: 'bench', projects: [project.id], readOnly: false, expiresInSeconds: 24 * 3600 }, runtime.config.jwtSecret);

    const memory: MemoryData = { byId: new Map(), firstPage: null, firstPageByPath: null, bigPage: null };
    const apps: Record<ServerName, express.Express> = {
      service: createApp({ ...runtime, logger }),
      bareMemory: bareMemoryApp(() => memory),
      bareDb: bareDbApp(pathStore(runtime), version.id),
    };
    const servers: http.Server[] = [];
    const ports = {} as Record<ServerName, number>;
    for (const [name, app] of Object.entries(apps) as [ServerName, express.Express][]) {
      const server = http.createServer(tracked(app));
      servers.push(server);
      ports[name] = await listen(server);
    }
    const ready: Ready = {
      type: 'ready',
      seq: request.seq,
      ports,
      server: { kind: runtime.database.server.kind, label: runtime.database.server.label },
      project: { id: project.id, slug: project.slug },
      version: { id: version.id, type: version.type, slug: version.slug },
      apiKey,
      token,
    };
    const result: State = { runtime, servers, ready, memory };
    return result;
  } catch (error) {
    await runtime.close().catch(() => {});
    throw error;
  }
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve((server.address() as AddressInfo).port));
  });
}

/** The settings the service's app has that change the cost of every response. */
function bareExpress(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}

function bareMemoryApp(data: () => MemoryData): express.Express {
  const app = bareExpress();
  app.get(ITEM_ROUTES, (req, res) => {
    const record = data().byId.get(req.params['id'] as string);
    if (record === undefined) res.status(404).json({ error: 'Path not found' });
    else res.json(record);
  });
  app.get(LIST_ROUTES, (req, res) => {
    res.json(req.query['sort'] === 'path' ? data().firstPageByPath : req.query['limit'] === String(BIG_PAGE) ? data().bigPage : data().firstPage);
  });
  return app;
}

/**
 * The service's own record store, called directly: the version is known (no authentication, no
 * resolution), the query is not parsed and the body not checked against the schema. It makes
 * the service's database calls by construction, and its answers are the service's JSON.
 */
function bareDbApp(paths: RecordStore, versionId: string): express.Express {
  const app = bareExpress();
  const json = express.json();
  const notFound = (res: express.Response) => res.status(404).json({ error: 'Path not found' });
  app.get(ITEM_ROUTES, async (req, res) => {
    const record = await paths.get(versionId, req.params['id'] as string);
    if (!record) notFound(res);
    else res.json(record);
  });
  app.get(LIST_ROUTES, async (req, res) => {
    const sort = withTieBreaker(req.query['sort'] === 'path' ? [{ field: 'path', direction: 1 }] : []);
    const limit = req.query['limit'] === String(BIG_PAGE) ? BIG_PAGE : PAGE;
    const page = await paths.list({ versionId, filters: {}, sort, cursor: undefined, limit });
    res.json({ items: page.items, pagination: { nextCursor: page.nextCursor, hasMore: page.nextCursor !== null, limit } });
  });
  app.patch(ITEM_ROUTES, json, async (req, res) => {
    const id = req.params['id'] as string;
    const changes = req.body as Record<string, unknown>;
    // As the update operation: read, merge (for the natural key), set the given fields, under the record's lock.
    const record = await paths.exclusive(versionId, id, async () => {
      const current = await paths.get(versionId, id);
      return current && paths.update(versionId, id, changes, new Date(), { ...current, ...changes });
    });
    if (!record) notFound(res);
    else res.json(record);
  });
  app.post(LIST_ROUTES, json, async (req, res) => {
    const record = await paths.insert({ ...(req.body as Record<string, unknown>), id: newId(paths.collection.idPrefix), versionId }, new Date());
    res.status(201).json(record);
  });
  return app;
}

function pathStore(runtime: Runtime): RecordStore {
  const store = runtime.stores.get(COLLECTION);
  if (!store) throw new Error(`the service has no ${COLLECTION} collection`);
  return store;
}

/**
 * Stores the bodies as the create operation would (validated, defaults filled, new ids), through
 * the service's own store, a few at a time: faster than over HTTP, and the same stored form.
 */
async function seed(runtime: Runtime, versionId: string, bodies: Record<string, unknown>[]): Promise<string[]> {
  const store = pathStore(runtime);
  const ids: string[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const fields = { ...bodies[i], id: newId(store.collection.idPrefix), versionId };
      const problems = store.collection.checkRecord(fields);
      if (problems.length > 0) throw new Error(`seed body ${i} is invalid: ${JSON.stringify(problems)}`);
      const record = await store.insert(fields as CatalogRecord, new Date());
      if (!record) throw new Error(`seed body ${i}: id taken`);
      ids[i] = record.id;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids;
}

/** The service's answers, fetched once through the service itself, so both send the same JSON. */
async function captureResponses(ready: Ready, into: MemoryData): Promise<void> {
  const base = `http://${LOOPBACK}:${ready.ports.service}/v2/catalog/versions/${ready.version.id}/paths`;
  const get = async (url: string) => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${ready.apiKey}` } });
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  const byId = new Map<string, unknown>();
  let cursor: string | null = null;
  do {
    const page = await get(`${base}?limit=1000${cursor ? `&cursor=${cursor}` : ''}`) as { items: { id: string }[]; pagination: { nextCursor: string | null } };
    for (const record of page.items) byId.set(record.id, record);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  into.byId = byId;
  into.firstPage = await get(base);
  into.firstPageByPath = await get(`${base}?sort=path`);
  into.bigPage = await get(`${base}?limit=${BIG_PAGE}`);
}

let profiler: Session | undefined;

/** Samples only while the scenarios run, so start-up (compiling schemas, seeding) stays out of it. */
async function profile(action: 'start' | 'stop', file: string | undefined): Promise<{ file?: string }> {
  if (action === 'start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 250 });
    await profiler.post('Profiler.start');
    return {};
  }
  if (!profiler || !file) throw new Error('the profiler is not running, or no file was given');
  const { profile: result } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  profiler = undefined;
  await fs.writeFile(file, JSON.stringify(result));
  return { file };
}

async function shutdown(dropDatabase: boolean): Promise<void> {
  if (!state) return;
  const { runtime, servers } = state;
  state = undefined;
  for (const server of servers) {
    server.close();
    server.closeAllConnections();
  }
  if (dropDatabase) await runtime.database.db.dropDatabase().catch(() => {});
  await runtime.close();
}
