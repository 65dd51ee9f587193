// A real mongod through mongodb-memory-server, supervised like FerretDB (supervise.ts), and
// remembering a failed download so "auto" does not wait on it again.
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { noteOtherEngineData, type DatabaseServer, type ProvisionOptions } from './engine.ts';
import { LOOPBACK, loopbackUri } from './probe.ts';
import { supervisedServer, type Instance } from './supervise.ts';
import { messageOf, oneLine, withTimeout } from './util.ts';

/** Whole mongod attempt (locate or download the binary, then start it). */
const MONGOD_ATTEMPT_MS = 60_000;
/** A failed mongod download is not retried for this long (engine "auto" only). */
export const MONGOD_FAILURE_TTL_MS = 6 * 60 * 60 * 1000;
export const MONGOD_FAILURE_FILE = 'mongod-download-failed.json';

export async function startMongod(options: ProvisionOptions, port: number): Promise<DatabaseServer> {
  const { log, cacheDir, engine } = options;
  // Loaded lazily: only this path needs it.
  const { DryMongoBinary, MongoBinary } = await import('mongodb-memory-server');
  const deadline = Date.now() + MONGOD_ATTEMPT_MS;
  const binaryOptions = await DryMongoBinary.generateOptions({});
  const failureFile = path.join(cacheDir, MONGOD_FAILURE_FILE);
  const failureKey = downloadKey(binaryOptions, options.mongodDownload ?? {});

  // A system binary (MONGOMS_SYSTEM_BINARY) or a cached download: no network needed.
  let binary = await DryMongoBinary.locateBinary(binaryOptions);
  if (!binary) {
    const remembered = engine === 'auto' ? await recentFailure(failureFile, failureKey) : undefined;
    if (remembered) throw new Error(`the mongod download failed ${remembered} (not retried for ${MONGOD_FAILURE_TTL_MS / 3_600_000} h; delete ${failureFile} or use engine "mongodb" to retry now)`);
    log(`database: looking for a mongod ${binaryOptions.version} binary (downloads it once if allowed)`);
    const started = Date.now();
    try {
      binary = await withTimeout(MongoBinary.getPath({}), deadline - Date.now(), 'mongod download');
    } catch (error) {
      const reason = oneLine(messageOf(error));
      await writeJson(failureFile, { failedAt: new Date().toISOString(), key: failureKey, tookMs: Date.now() - started, reason }).catch(() => {});
      throw new Error(reason);
    }
    await fsp.rm(failureFile, { force: true });
  }

  const dbPath = path.join(options.dataDir, 'mongodb');
  await fsp.mkdir(dbPath, { recursive: true });
  const first = await launch(dbPath, port, Math.max(deadline - Date.now(), 5_000));
  await noteOtherEngineData(options, 'ferretdb');
  const uri = loopbackUri(port);
  log(`database: mongod (${binary}) on ${uri}, data in ${dbPath}`);
  return supervisedServer(uri, 'mongodb', 'mongod', first, () => launch(dbPath, port, MONGOD_ATTEMPT_MS), log);
}

// Never remove dbPath: with a custom dbPath `doCleanup` only deletes a temporary dir, but
// `force: true` would delete the data, so both are spelt out.
const KEEP_DATA = { doCleanup: false, force: false };

/** Starts mongod (the binary located above) on `port` with its data in `dbPath`, and waits until it serves. */
async function launch(dbPath: string, port: number, timeoutMs: number): Promise<Instance> {
  const { MongoMemoryServer } = await import('mongodb-memory-server');
  const server = new MongoMemoryServer({
    instance: { ip: LOOPBACK, port, dbPath, storageEngine: 'wiredTiger', portGeneration: false, launchTimeout: 30_000 },
  });
  const starting = server.start(true);
  try {
    await withTimeout(starting, timeoutMs, 'mongod start');
  } catch (error) {
    // If it comes up after the timeout, do not leave it running.
    void starting.then(() => server.stop(KEEP_DATA), () => {});
    throw error;
  }
  const mongod = server.instanceInfo?.instance.mongodProcess;
  const exited = new Promise<void>((resolve) => {
    if (!mongod || mongod.exitCode !== null || mongod.signalCode !== null) resolve();
    else mongod.once('exit', () => resolve());
  });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= server.stop(KEEP_DATA).then(() => {}));
  // A mongod that died on its own leaves mongodb-memory-server's watchdog process behind: end it.
  void exited.then(() => stop().catch(() => {}));
  const kill = () => {
    try {
      if (mongod?.pid !== undefined) process.kill(mongod.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { pid: mongod?.pid, exited, describeExit: () => `code ${mongod?.exitCode ?? mongod?.signalCode}`, stop, kill };
}

/** What a remembered failure applies to: the same binary wanted from the same place (a changed mirror or URL deserves a new attempt). */
function downloadKey(opts: { version: string; downloadDir: string; platform: string; arch: string }, source: NonNullable<ProvisionOptions['mongodDownload']>): string {
  return JSON.stringify([opts.version, opts.downloadDir, opts.platform, opts.arch, source.url ?? '', source.mirror ?? '']);
}

async function recentFailure(file: string, key: string): Promise<string | undefined> {
  try {
    const saved = JSON.parse(await fsp.readFile(file, 'utf8')) as { failedAt?: string; key?: string; reason?: string };
    const age = Date.now() - Date.parse(saved.failedAt ?? '');
    if (saved.key !== key || !(age >= 0 && age < MONGOD_FAILURE_TTL_MS)) return undefined;
    return `${Math.round(age / 60_000)} min ago: ${saved.reason ?? 'unknown reason'}`;
  } catch {
    return undefined;
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fsp.writeFile(temp, JSON.stringify(value, null, 2) + '\n');
  await fsp.rename(temp, file);
}
