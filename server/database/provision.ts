// Gets the service a MongoDB server: the given URI, one already listening on the port, a real
// mongod (mongodb-memory-server) or FerretDB built from source. See docs/database.md.
import * as net from 'node:net';
import * as path from 'node:path';
import { buildFerretDB, ferretdbPath } from './embedded/build-ferretdb.ts';
import type { DatabaseServer, ProvisionOptions } from './embedded/engine.ts';
import { startFerretDB } from './embedded/ferretdb.ts';
import { MONGOD_FAILURE_FILE, MONGOD_FAILURE_TTL_MS, startMongod } from './embedded/mongod.ts';
import { forgetServer, recordServer, waitForDyingServer } from './embedded/pid-file.ts';
import { LOOPBACK, acceptsTcp, loopbackUri, serverKind } from './embedded/probe.ts';
import { messageOf, oneLine } from './embedded/util.ts';

export type { DatabaseServer, EmbeddedEngine, ProvisionOptions } from './embedded/engine.ts';
export { buildFerretDB } from './embedded/build-ferretdb.ts';

export async function provisionDatabase(given: ProvisionOptions): Promise<DatabaseServer> {
  const { uri, port, engine, log } = given;
  if (uri) return { uri, kind: 'external', reused: false, stop: async () => {} };
  if (!['auto', 'mongodb', 'ferretdb'].includes(engine)) throw new Error(`unknown database engine "${engine}" (auto, mongodb or ferretdb)`);
  const options = { ...given, dataDir: path.resolve(given.dataDir), cacheDir: path.resolve(given.cacheDir) };

  // A server of this data folder that is going away is waited for, never attached to: attached, it would die under us.
  await waitForDyingServer(options.dataDir, log);
  const running = await attachToRunning(port);
  if (running) {
    log(`database: using the ${running.kind} server already listening on ${running.uri}`);
    return running;
  }

  const failures: string[] = [];
  if (engine === 'auto' || engine === 'mongodb') {
    try {
      return tracked(await startMongod(options, port || (await freePort())), options.dataDir);
    } catch (error) {
      failures.push(`mongod: ${messageOf(error)}`);
      if (engine === 'auto') log(`database: no mongod (${oneLine(messageOf(error))}); falling back to FerretDB`);
    }
  }
  if (engine === 'auto' || engine === 'ferretdb') {
    try {
      const binary = await buildFerretDB(options.cacheDir, log);
      return tracked(await startFerretDB(binary, options, port || (await freePort())), options.dataDir);
    } catch (error) {
      failures.push(`FerretDB: ${messageOf(error)}`);
    }
  }
  // Another process may have won a race for the same fixed port: use its server.
  const winner = await attachToRunning(port).catch(() => undefined);
  if (winner) {
    log(`database: another process started a ${winner.kind} server on ${winner.uri} first; using it`);
    return winner;
  }
  throw new Error(waysOut(failures, options.cacheDir));
}

function waysOut(failures: string[], cacheDir: string): string {
  return [
    'No database server could be started.',
    ...failures.map((f) => `  - ${f}`),
    'Ways out:',
    '  - set MONGODB_URI to a MongoDB you run (for example mongodb://127.0.0.1:27017/);',
    '  - allow the mongod download by mongodb-memory-server (network access to fastdl.mongodb.org,' +
      ' or MONGOMS_DOWNLOAD_MIRROR / MONGOMS_DOWNLOAD_URL, or MONGOMS_SYSTEM_BINARY=/path/to/mongod;' +
      ` a failed download is remembered for ${MONGOD_FAILURE_TTL_MS / 3_600_000} h in ${path.join(cacheDir, MONGOD_FAILURE_FILE)}: delete it to retry at once);`,
    `  - install Go (>= 1.24, \`go\` on PATH) so FerretDB can be built into ${ferretdbPath(cacheDir)} (npm run db:build).`,
  ].join('\n');
}

/** The server, with its process recorded beside its data while it runs (embedded/pid-file.ts). */
function tracked(server: DatabaseServer, dataDir: string): DatabaseServer {
  const port = Number(new URL(server.uri).port);
  const record = (state: 'serving' | 'stopping') => {
    if (server.pid !== undefined) recordServer(dataDir, { pid: server.pid, port, state });
  };
  record('serving');
  server.onRestart?.(() => record('serving'));
  return {
    uri: server.uri,
    kind: server.kind,
    reused: server.reused,
    get restarts() {
      return server.restarts;
    },
    get pid() {
      return server.pid;
    },
    onRestart: (listener) => server.onRestart?.(listener),
    watchReads: (readable, timeoutMs) => server.watchReads?.(readable, timeoutMs),
    stop: async () => {
      record('stopping');
      await server.stop();
      forgetServer(dataDir);
    },
    kill: () => {
      server.kill?.();
      forgetServer(dataDir);
    },
  };
}

// ---- reuse ---------------------------------------------------------------------------------

async function attachToRunning(port: number): Promise<DatabaseServer | undefined> {
  if (port === 0 || !(await acceptsTcp(port))) return undefined;
  const uri = loopbackUri(port);
  let kind: 'mongodb' | 'ferretdb' | undefined;
  for (const timeoutMs of [500, 2000]) {
    kind = await serverKind(uri, timeoutMs).catch(() => undefined);
    if (kind) break;
  }
  if (!kind) throw new Error(`port ${port} on ${LOOPBACK} is in use by something that does not answer the MongoDB protocol`);
  return { uri, kind, reused: true, stop: async () => {} };
}

/** A port free on the loopback now (the embedded server's when none is configured; tools and benches take theirs here too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
