// The benchmark's servers process (started by scripts/bench.ts with an IPC channel). It runs
// three HTTP servers on loopback ports, side by side in one process, so that they share one
// event loop and heap while the load generator runs elsewhere:
//
//   service     the real app: createApp over openRuntime, exactly as `npm start` builds it
//   bareMemory  a bare Express 5 app answering the service's own JSON from memory (no auth, no DB)
//   bareDb      a bare Express 5 app making the same database calls with the driver, then res.json
//
// service vs bareMemory is everything the request path costs; service vs bareDb is our own
// overhead (authentication, version resolution, validation, codec, logging, headers) with the
// database's cost taken out.
import fs from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Collection, Document } from 'mongodb';
import { createLogger } from '../../server/logger.ts';
import { createApp } from '../../server/app.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { openRuntime, type Runtime } from '../../server/boot.ts';
import { loadConfig } from '../../server/config.ts';
import { newId } from '../../server/ids.ts';
import { documentId, type CatalogRecord } from '../../server/store/records.ts';
import type { ChildMessage, ParentMessage, Ready, ServerName, StartRequest } from './protocol.ts';
import { MemorySampler } from './memory.ts';
import { BIG_PAGE } from './scenarios.ts';

const LOOPBACK = '127.0.0.1';
const COLLECTION = 'paths';
const ITEM_ROUTES = ['/v2/catalog/versions/:versionId/paths/:id', '/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths/:id'];
const LIST_ROUTES = ['/v2/catalog/versions/:versionId/paths', '/v2/catalog/projects/:projectRef/:versionType/:versionSlug/paths'];
/** The service's default page size; it asks the database for one more to know whether more follow. */
const PAGE = 50;

/** A stored record, as RecordStore writes it: `_id` is version and id together. */
type Stored = Document & { _id: string };

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
    RECORD_MAX_KEYS: process.env.RECORD_MAX_KEYS ?? '50000' });
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
      bareDb: bareDbApp(runtime.database.db.collection<Stored>(COLLECTION), version.id),
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
 * The service's own database calls, made directly: the stored document is sent as it is (no
 * decoding, `_id` included), and the version is known (no authentication, no resolution).
 */
function bareDbApp(paths: Collection<Stored>, versionId: string): express.Express {
  const app = bareExpress();
  const json = express.json();
  const byId = (id: string) => ({ _id: documentId(versionId, id) });
  app.get(ITEM_ROUTES, async (req, res) => {
    const document = await paths.findOne(byId(req.params['id'] as string));
    if (!document) res.status(404).json({ error: 'Path not found' });
    else res.json(document);
  });
  app.get(LIST_ROUTES, async (req, res) => {
    const sort: Record<string, 1> = req.query['sort'] === 'path' ? { path: 1, id: 1 } : { id: 1 };
    const limit = req.query['limit'] === String(BIG_PAGE) ? BIG_PAGE : PAGE;
    const documents = await paths.find({ versionId }).sort(sort).limit(limit + 1).toArray();
    const next = documents.length > limit ? documents.pop() : undefined;
    res.json({ items: documents, pagination: { nextCursor: next ? next['id'] : null, hasMore: next !== undefined, limit } });
  });
  app.patch(ITEM_ROUTES, json, async (req, res) => {
    const filter = byId(req.params['id'] as string);
    const result = await paths.updateOne(filter, { $set: { ...(req.body as Document), updatedAt: new Date() } });
    if (result.matchedCount === 0) {
      res.status(404).json({ error: 'Path not found' });
      return;
    }
    res.json(await paths.findOne(filter));
  });
  app.post(LIST_ROUTES, json, async (req, res) => {
    const id = newId('path_');
    const body = req.body as Document;
    // The natural-key field the service stores, so the unique {versionId, _key} index takes the
    // insert on MongoDB too (a missing field would count as one shared null).
    const _key = JSON.stringify([body['serviceId'] ?? null, body['path'] ?? null]);
    const document: Stored = { _id: documentId(versionId, id), id, versionId, ...body, _key, updatedAt: new Date() };
    await paths.insertOne(document);
    res.status(201).json(document);
  });
  return app;
}

/**
 * Stores the bodies as the create operation would (validated, defaults filled, new ids), through
 * the service's own store, a few at a time: faster than over HTTP, and the same stored form.
 */
async function seed(runtime: Runtime, versionId: string, bodies: Record<string, unknown>[]): Promise<string[]> {
  const store = runtime.stores.get(COLLECTION);
  if (!store) throw new Error(`the service has no ${COLLECTION} collection`);
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
