// The MongoDB client: connecting with durable and bounded defaults, naming the server that answers.
import { MongoClient, type Db } from 'mongodb';
import { budgeted } from '../store/budget.ts';
import { ServiceUnavailable } from '../errors.ts';
import { withTimeout } from './embedded/util.ts';

export interface ServerInfo {
  kind: 'mongodb' | 'ferretdb';
  version: string;
  /** For logs and test output, e.g. "FerretDB 1.24.2 (MongoDB 7.0.42 protocol)". */
  label: string;
}

export interface Database {
  client: MongoClient;
  db: Db;
  server: ServerInfo;
  /**
   * Resolves when a record can be read within `timeoutMs`; rejects otherwise. A read, not a
   * ping: a stalled engine (FerretDB with its SQLite file locked) answered pings while every read of records hung.
   */
  readable(timeoutMs: number): Promise<void>;
  /** Ends every database call in flight at once (shutdown: what is left of work nobody will wait for). */
  abandonCalls(reason: string): void;
  /** Ends the calls in flight, then closes the client. */
  close(): Promise<void>;
}

// Options the URI may set on its own; our defaults apply only where it does not.
const DEFAULTS: Record<string, { uriKeys: string[]; option: object }> = {
  writeConcern: { uriKeys: ['w', 'journal', 'wtimeoutms'], option: { writeConcern: { w: 'majority', journal: true } } },
};

/** Default bound on every database call (DB_TIMEOUT_MS). */
export const DEFAULT_DB_TIMEOUT_MS = 4_000;

export async function connectDatabase(uri: string, databaseName: string, options: { timeoutMs?: number; longTimeoutMs?: number } = {}): Promise<Database> {
  // monitorCommands: command latency for the metrics (server/http/prometheus.ts).
  // Without a bound given (test helpers, one-off scripts) only server selection is bounded.
  const { timeoutMs, longTimeoutMs } = options;
  // Driver 7.8 ignores timeoutMS (deprecated, "has no effect"), so each step is bounded on its
  // own: finding the server, getting a pooled connection and opening one, and the server's work
  // by a `maxTimeMS` on every collection call (budget.ts: what is left of the request's budget,
  // else DB_LONG_TIMEOUT_MS). Reads from a socket are not: a socket timeout short enough to
  // matter to a client also cut off the long calls of whole-version work (FerretDB reads a
  // 100,000-record version for over 20 s in one call while copying it, and index builds at
  // start-up took seconds on a loaded machine), and FerretDB does not stop its writes at
  // maxTimeMS. What a client waits for is bounded by the request pipeline (server/pipeline/deadline.ts):
  // 503 within one budget, whatever the socket does; a frozen database's calls finish once it
  // answers again.
  const steps: Record<string, number> = timeoutMs === undefined
    ? { serverSelectionTimeoutMS: DEFAULT_DB_TIMEOUT_MS }
    : { serverSelectionTimeoutMS: timeoutMs, waitQueueTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs };
  const bounded = Object.fromEntries(Object.entries(steps).filter(([option]) => !uriHas(uri, option.toLowerCase())));
  const client = new MongoClient(uri, { ...defaultsNotIn(uri), ...bounded, appName: 'catalog-service', monitorCommands: true });
  await client.connect();
  const stopping = new AbortController();
  const db = budgeted(client.db(databaseName), longTimeoutMs, stopping.signal);
  const server = await identifyServer(db);
  const abandonCalls = (reason: string) => {
    if (!stopping.signal.aborted) stopping.abort(new ServiceUnavailable(reason));
  };
  return {
    client,
    db,
    server,
    readable: (readTimeoutMs) => readsRecords(client.db(databaseName), readTimeoutMs),
    abandonCalls,
    async close() {
      abandonCalls('the service is stopping');
      await client.close();
    },
  };
}

// The collection every request's credentials lead to (the tenancy's root); its lookup by `_id`
// reaches FerretDB's SQLite, where a stall shows, and costs the same whatever the catalog holds.
const PROBED_COLLECTION = 'projects';
const PROBE_ID = 'readable-probe';

/** One read of a record by `_id`, bounded three ways: on the server, on the connection, and by the race (the guarantee). */
export async function readsRecords(db: Db, timeoutMs: number): Promise<void> {
  const read = db.collection<{ _id: string }>(PROBED_COLLECTION)
    .findOne({ _id: PROBE_ID }, { projection: { _id: 1 }, maxTimeMS: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
  await withTimeout(read, timeoutMs, 'reading a record');
}

function uriOptions(uri: string): Set<string> {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  return new Set([...new URLSearchParams(query).keys()].map((key) => key.toLowerCase()));
}

function uriHas(uri: string, key: string): boolean {
  return uriOptions(uri).has(key);
}

function defaultsNotIn(uri: string): object {
  const given = uriOptions(uri);
  return Object.assign({}, ...Object.values(DEFAULTS)
    .filter(({ uriKeys }) => !uriKeys.some((key) => given.has(key)))
    .map(({ option }) => option));
}

/** FerretDB answers `buildInfo` with a `ferretdbVersion`; we ask rather than guess. */
async function identifyServer(db: Db): Promise<ServerInfo> {
  const info = await db.admin().command({ buildInfo: 1 });
  const protocol = String(info['version']);
  if (typeof info['ferretdbVersion'] === 'string') {
    const version = info['ferretdbVersion'].replace(/^v/, '');
    return { kind: 'ferretdb', version, label: `FerretDB ${version} (MongoDB ${protocol} protocol)` };
  }
  return { kind: 'mongodb', version: protocol, label: `MongoDB ${protocol}` };
}
