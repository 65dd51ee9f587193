// The one database of a test run: MONGODB_URI with a throwaway database (dropped at the end),
// or an embedded server on a throwaway directory. Started by the root hooks, once.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { provisionDatabase, type DatabaseServer, type EmbeddedEngine } from '../../server/database/provision.ts';
import { connectDatabase, type ServerInfo } from '../../server/database/database.ts';
import { repoRoot } from '../../server/config.ts';

export interface TestDatabase {
  /** URI including the run's database name. */
  uri: string;
  name: string;
  server: ServerInfo;
  client: MongoClient;
  db: Db;
}

let current: { database: TestDatabase; provisioned: DatabaseServer; dataDir: string | undefined } | undefined;

export function testDatabase(): TestDatabase {
  if (!current) throw new Error('the test database is not started (spec/support/hooks.ts starts it)');
  return current.database;
}

export async function startTestDatabase(env: NodeJS.ProcessEnv = process.env): Promise<TestDatabase> {
  const name = `catalog_test_${randomBytes(4).toString('hex')}`;
  const given = env['MONGODB_URI'];
  const dataDir = given ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-test-'));
  const provisioned = await provisionDatabase({
    uri: given,
    dataDir: dataDir ?? '',
    port: 0,
    engine: (env['EMBEDDED_DB'] as EmbeddedEngine | undefined) ?? 'auto',
    cacheDir: path.join(repoRoot, '.cache'),
    log: (message) => process.stdout.write(`  [database] ${message}\n`),
  });
  const uri = withDatabaseName(given ?? provisioned.uri, name);
  const { client, db, server } = await connectDatabase(uri, name);
  current = { database: { uri, name, server, client, db }, provisioned, dataDir };
  return current.database;
}

export async function stopTestDatabase(): Promise<void> {
  if (!current) return;
  const { database, provisioned, dataDir } = current;
  current = undefined;
  await database.db.dropDatabase().catch(() => {});
  await database.client.close();
  await provisioned.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}

/** Empties every collection of `db` but keeps the indexes (dropping would lose them). */
export async function emptyDatabase(db: Db): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    await db.collection(name).deleteMany({});
  }
}

/**
 * A database of the run's server beside the run's own, for a suite that must see nothing of the
 * other files' records (a process takes up every pending lint of its database); `drop` in its
 * after hook. The run's database is shared: files see one another's records, as tenants do.
 */
export function ownDatabase(suffix: string): { uri: string; db: Db; drop: () => Promise<void> } {
  const { uri, name, client } = testDatabase();
  const own = `${name}_${suffix}`;
  return { uri: withDatabaseName(uri, own), db: client.db(own), drop: async () => { await client.db(own).dropDatabase(); } };
}

/** The URI with its path set to `name`, keeping any options. */
export function withDatabaseName(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)\/?[^?]*(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}
