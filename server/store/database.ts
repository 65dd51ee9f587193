// The MongoDB client: connecting with durable defaults, naming the server that answers.
import { MongoClient, type Db } from 'mongodb';

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
  // Fail fast (503) instead of holding requests for the driver's 30 s default when the database is gone.
  serverSelection: { uriKeys: ['serverselectiontimeoutms'], option: { serverSelectionTimeoutMS: 5000 } },
};

export async function connectDatabase(uri: string, databaseName: string): Promise<Database> {
  // monitorCommands: command latency for the metrics (server/observability/metrics.ts).
  const client = new MongoClient(uri, { ...defaultsNotIn(uri), appName: 'catalog-service', monitorCommands: true });
  await client.connect();
  const db = client.db(databaseName);
  const server = await identifyServer(db);
  return {
    client,
    db,
    server,
    async ping(timeoutMs) {
      await db.command({ ping: 1 }, { timeoutMS: timeoutMs });
    },
    close: () => client.close(),
  };
}

function defaultsNotIn(uri: string): object {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  const given = new Set([...new URLSearchParams(query).keys()].map((key) => key.toLowerCase()));
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
