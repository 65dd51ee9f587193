// The MongoDB client: connecting with durable and bounded defaults, naming the server that answers.
import { MongoClient, type Db } from 'mongodb';
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
  /** Resolves when the server answers a ping within `timeoutMs`; rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

// Options the URI may set on its own; our defaults apply only where it does not.
const DEFAULTS: Record<string, { uriKeys: string[]; option: object }> = {
  writeConcern: { uriKeys: ['w', 'journal', 'wtimeoutms'], option: { writeConcern: { w: 'majority', journal: true } } },
};

/** Default bound on every database call (DB_TIMEOUT_MS). */
export const DEFAULT_DB_TIMEOUT_MS = 4_000;
const SOCKET_TIMEOUT_FACTOR = 5;
const MIN_SOCKET_TIMEOUT_MS = 20_000;

export async function connectDatabase(uri: string, databaseName: string, options: { timeoutMs?: number } = {}): Promise<Database> {
  // monitorCommands: command latency for the metrics (server/observability/metrics.ts).
  // Without a bound given (test helpers, one-off scripts) only server selection is bounded.
  const { timeoutMs } = options;
  // Driver 7 ignores timeoutMS (deprecated, "has no effect"), so each step is bounded on its
  // own: finding the server, getting a pooled connection and opening one within the budget, and
  // every read from a socket within SOCKET_TIMEOUT_FACTOR budgets (a frozen database answers
  // nothing: the socket times out and the pool is cleared). The socket bound is wider because it
  // also bounds the long calls of whole-version work (an index build at start-up, a bulk batch of
  // an import, a copy batch), which a loaded machine can stretch past one request's budget; what
  // a client waits for is held to the budget by the request pipeline (server/deadline.ts).
  const steps: Record<string, number> = timeoutMs === undefined
    ? { serverSelectionTimeoutMS: DEFAULT_DB_TIMEOUT_MS }
    : { serverSelectionTimeoutMS: timeoutMs, waitQueueTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs, socketTimeoutMS: Math.max(timeoutMs * SOCKET_TIMEOUT_FACTOR, MIN_SOCKET_TIMEOUT_MS) };
  const bounded = Object.fromEntries(Object.entries(steps).filter(([option]) => !uriHas(uri, option.toLowerCase())));
  const client = new MongoClient(uri, { ...defaultsNotIn(uri), ...bounded, appName: 'catalog-service', monitorCommands: true });
  await client.connect();
  const db = client.db(databaseName);
  const server = await identifyServer(db);
  return {
    client,
    db,
    server,
    async ping(pingTimeoutMs) {
      // The race is the guarantee: a health check must answer in time whatever the driver does.
      await withTimeout(db.command({ ping: 1 }), pingTimeoutMs, 'database ping');
    },
    close: () => client.close(),
  };
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
