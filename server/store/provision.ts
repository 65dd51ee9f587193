// Gets the service a MongoDB server: the given URI, one already listening on the port, a real
// mongod (mongodb-memory-server) or FerretDB built from source. See docs/database.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';

export type EmbeddedEngine = 'auto' | 'mongodb' | 'ferretdb';

export interface DatabaseServer {
  uri: string;
  kind: 'external' | 'mongodb' | 'ferretdb';
  reused: boolean;
  stop(): Promise<void>;
}

export interface ProvisionOptions {
  uri?: string;
  dataDir: string;
  port: number;
  engine: EmbeddedEngine;
  cacheDir: string;
  log: (message: string) => void;
}

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const FERRETDB_MODULE_DIR = path.join(REPO_ROOT, 'scripts', 'ferretdb');
const LOOPBACK = '127.0.0.1';

/** Whole mongod attempt (locate or download the binary, then start it). */
const MONGOD_ATTEMPT_MS = 60_000;
/** A failed mongod download is not retried for this long (engine "auto" only). */
const MONGOD_FAILURE_TTL_MS = 6 * 60 * 60 * 1000;
const MONGOD_FAILURE_FILE = 'mongod-download-failed.json';
const FERRETDB_READY_MS = 30_000;
const STOP_GRACE_MS = 10_000;

export async function provisionDatabase(given: ProvisionOptions): Promise<DatabaseServer> {
  const { uri, port, engine, log } = given;
  if (uri) return { uri, kind: 'external', reused: false, stop: async () => {} };
  if (!['auto', 'mongodb', 'ferretdb'].includes(engine)) throw new Error(`unknown database engine "${engine}" (auto, mongodb or ferretdb)`);
  const options = { ...given, dataDir: path.resolve(given.dataDir), cacheDir: path.resolve(given.cacheDir) };

  const running = await attachToRunning(port);
  if (running) {
    log(`database: using the ${running.kind} server already listening on ${running.uri}`);
    return running;
  }

  const failures: string[] = [];
  if (engine === 'auto' || engine === 'mongodb') {
    try {
      return await startMongod(options, port || (await freePort()));
    } catch (error) {
      failures.push(`mongod: ${messageOf(error)}`);
      if (engine === 'auto') log(`database: no mongod (${oneLine(messageOf(error))}); falling back to FerretDB`);
    }
  }
  if (engine === 'auto' || engine === 'ferretdb') {
    try {
      const binary = await buildFerretDB(options.cacheDir, log);
      return await startFerretDB(binary, options, port || (await freePort()));
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

function acceptsTcp(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: LOOPBACK, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

/** ping, then buildInfo: FerretDB reports `ferretdbVersion`. */
async function serverKind(uri: string, timeoutMs: number): Promise<'mongodb' | 'ferretdb'> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    const admin = client.db('admin');
    await admin.command({ ping: 1 });
    const info = await admin.command({ buildInfo: 1 });
    return 'ferretdbVersion' in info ? 'ferretdb' : 'mongodb';
  } finally {
    await client.close().catch(() => {});
  }
}

function freePort(): Promise<number> {
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

const loopbackUri = (port: number) => `mongodb://${LOOPBACK}:${port}/`;

// ---- mongod (mongodb-memory-server) ---------------------------------------------------------

async function startMongod(options: ProvisionOptions, port: number): Promise<DatabaseServer> {
  const { log, cacheDir, engine } = options;
  // Loaded lazily: only this path needs it.
  const { DryMongoBinary, MongoBinary, MongoMemoryServer } = await import('mongodb-memory-server');
  const deadline = Date.now() + MONGOD_ATTEMPT_MS;
  const binaryOptions = await DryMongoBinary.generateOptions({});
  const failureFile = path.join(cacheDir, MONGOD_FAILURE_FILE);
  const failureKey = downloadKey(binaryOptions);

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
  const server = new MongoMemoryServer({
    instance: { ip: LOOPBACK, port, dbPath, storageEngine: 'wiredTiger', portGeneration: false, launchTimeout: 30_000 },
  });
  // Never remove dbPath: with a custom dbPath `doCleanup` only deletes a temporary dir, but
  // `force: true` would delete the data, so both are spelt out.
  const keepData = { doCleanup: false, force: false };
  const starting = server.start(true);
  try {
    await withTimeout(starting, Math.max(deadline - Date.now(), 5_000), 'mongod start');
  } catch (error) {
    // If it comes up after the timeout, do not leave it running.
    void starting.then(() => server.stop(keepData), () => {});
    throw error;
  }
  await noteOtherEngineData(options, 'ferretdb');
  log(`database: mongod (${binary}) on ${loopbackUri(port)}, data in ${dbPath}`);
  let stopping: Promise<void> | undefined;
  return {
    uri: loopbackUri(port),
    kind: 'mongodb',
    reused: false,
    stop: () => (stopping ??= server.stop(keepData).then(() => {})),
  };
}

/** What a remembered failure applies to: the same binary wanted from the same place. */
function downloadKey(opts: { version: string; downloadDir: string; platform: string; arch: string }): string {
  // mongodb-memory-server reads these itself; a changed mirror or URL deserves a new attempt.
  const env = process.env;
  return JSON.stringify([opts.version, opts.downloadDir, opts.platform, opts.arch, env.MONGOMS_DOWNLOAD_URL ?? '', env.MONGOMS_DOWNLOAD_MIRROR ?? '']);
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

/** The engines keep separate data; say so when the one not chosen holds some. */
async function noteOtherEngineData(options: ProvisionOptions, other: 'mongodb' | 'ferretdb'): Promise<void> {
  const dir = path.join(options.dataDir, other);
  const entries = await fsp.readdir(dir).catch(() => []);
  if (entries.length > 0) options.log(`database: note: ${dir} holds data of the other engine (${other}); it is not used now`);
}

// ---- FerretDB -------------------------------------------------------------------------------

// The child runs under this shell wrapper so that it dies with us: the wrapper reads its stdin
// (a pipe from this process) and stops FerretDB when the pipe closes, which the kernel does
// however this process ends, SIGKILL included. stop() closes the pipe the same way.
const WRAPPER = `
bin=$1; shift
"$bin" "$@" </dev/null &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
exec 3<&0
(
  read -r _ <&3
  kill -TERM "$child" 2>/dev/null || exit 0
  i=0
  while [ "$i" -lt ${STOP_GRACE_MS / 100} ] && kill -0 "$child" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$child" 2>/dev/null
) &
watcher=$!
exec 3<&-
while :; do
  wait "$child"; status=$?
  kill -0 "$child" 2>/dev/null || break
done
kill "$watcher" 2>/dev/null
exit "$status"
`;

async function startFerretDB(binary: string, options: ProvisionOptions, port: number): Promise<DatabaseServer> {
  const { dataDir, log } = options;
  const dir = path.join(dataDir, 'ferretdb');
  await fsp.mkdir(dir, { recursive: true });
  const logFile = path.join(dataDir, 'ferretdb.log');
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/`,
    `--state-dir=${dir}`,
    `--listen-addr=${LOOPBACK}:${port}`,
    '--telemetry=disable',
    '--debug-addr=-',
    '--log-level=warn',
  ];
  fs.appendFileSync(logFile, `--- ${new Date().toISOString()} starting FerretDB on port ${port}\n`);
  const logOffset = fs.statSync(logFile).size;
  const logFd = fs.openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // detached: own process group, so a terminal's Ctrl-C reaches only us and the caller decides.
    child = spawn('/bin/sh', ['-c', WRAPPER, 'ferretdb-wrapper', binary, ...args], {
      stdio: ['pipe', logFd, logFd],
      detached: true,
    });
  } finally {
    fs.closeSync(logFd);
  }
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  // A forgotten stop() must not keep Node alive; when Node exits the pipe closes and the
  // wrapper stops FerretDB.
  child.unref();
  (child.stdin as unknown as net.Socket | null)?.unref();
  child.stdin?.on('error', () => {});

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopChild(child, exited));
  const uri = loopbackUri(port);
  const started = Date.now();
  try {
    await waitUntilServing(uri, port, child, FERRETDB_READY_MS);
  } catch (error) {
    await stop();
    const tail = (await readTail(logFile, logOffset)).trim();
    throw new Error(`${messageOf(error)}${tail ? `; its log (${logFile}) ends with:\n${tail}` : ''}`);
  }
  await noteOtherEngineData(options, 'mongodb');
  log(`database: FerretDB on ${uri} (ready in ${Date.now() - started} ms), data in ${dir}, log in ${logFile}`);
  return { uri, kind: 'ferretdb', reused: false, stop };
}

async function waitUntilServing(uri: string, port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const hasExited = () => child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error(`FerretDB exited before answering (code ${child.exitCode ?? child.signalCode})`);
    if ((await acceptsTcp(port, 250)) && !hasExited()) {
      const ok = await serverKind(uri, 1000).then(() => true, () => false);
      if (ok) return;
    }
    await sleep(50);
  }
  throw new Error(`FerretDB did not answer on ${uri} within ${timeoutMs / 1000} s`);
}

/** Close the pipe (the wrapper then sends SIGTERM), then SIGKILL the group after the grace time. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.stdin?.destroy();
  signalGroup(child.pid, 'SIGTERM');
  if (await settlesWithin(exited, STOP_GRACE_MS + 2_000)) return;
  signalGroup(child.pid, 'SIGKILL');
  await settlesWithin(exited, 5_000);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // SIGTERM goes to the wrapper only (its trap forwards it); SIGKILL to the whole group.
    process.kill(signal === 'SIGKILL' ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

async function readTail(file: string, from: number, maxBytes = 2000): Promise<string> {
  try {
    const handle = await fsp.open(file, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(from, size - maxBytes);
      const buffer = Buffer.alloc(Math.max(0, size - start));
      await handle.read(buffer, 0, buffer.length, start);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

// ---- building FerretDB ----------------------------------------------------------------------

const ferretdbPath = (cacheDir: string) => path.join(cacheDir, 'bin', 'ferretdb');
const builds = new Map<string, Promise<string>>();

export async function buildFerretDB(cacheDir: string, log: (m: string) => void): Promise<string> {
  const binary = path.resolve(ferretdbPath(cacheDir));
  if (await isExecutable(binary)) return binary;
  let build = builds.get(binary);
  if (!build) {
    build = buildInto(binary, path.resolve(cacheDir), log).finally(() => builds.delete(binary));
    builds.set(binary, build);
  }
  return build;
}

async function buildInto(binary: string, cacheDir: string, log: (m: string) => void): Promise<string> {
  const version = await ferretdbVersion();
  // GOTOOLCHAIN=local: use the installed Go, never fetch another toolchain.
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '' };
  const go = await run('go', ['version'], { env }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('cannot build FerretDB: the Go toolchain (`go`) is not on PATH; install Go >= 1.24');
    }
    throw error;
  });
  log(`database: building FerretDB ${version} with ${go.trim()} into ${binary} (a few minutes the first time)`);
  const started = Date.now();
  await fsp.mkdir(path.dirname(binary), { recursive: true });
  // Private source dir and temp binary, then an atomic rename: racing builds cannot clash.
  const src = await fsp.mkdtemp(path.join(cacheDir, 'ferretdb-src-'));
  const temp = path.join(path.dirname(binary), `.ferretdb.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    for (const file of ['go.mod', 'go.sum', 'tools.go']) {
      await fsp.copyFile(path.join(FERRETDB_MODULE_DIR, file), path.join(src, file));
    }
    await run('go', ['mod', 'vendor'], { cwd: src, env: { ...env, GOFLAGS: '-mod=mod' } });
    // The module zip lacks this generated file; FerretDB embeds it and panics without it.
    const versionDir = path.join(src, 'vendor', 'github.com', 'FerretDB', 'FerretDB', 'build', 'version');
    await fsp.mkdir(versionDir, { recursive: true });
    await fsp.writeFile(path.join(versionDir, 'version.txt'), `${version}\n`);
    await run('go', ['build', '-mod=vendor', '-trimpath', '-o', temp, 'github.com/FerretDB/FerretDB/cmd/ferretdb'], { cwd: src, env });
    const printed = await run(temp, ['--version'], { env });
    if (!printed.includes(version)) throw new Error(`built FerretDB reports an unexpected version: ${oneLine(printed)}`);
    await fsp.rename(temp, binary);
  } finally {
    await fsp.rm(temp, { force: true });
    await fsp.rm(src, { recursive: true, force: true });
  }
  log(`database: built FerretDB in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

async function ferretdbVersion(): Promise<string> {
  const goMod = await fsp.readFile(path.join(FERRETDB_MODULE_DIR, 'go.mod'), 'utf8');
  const match = /github\.com\/FerretDB\/FerretDB\s+(v\d+\.\d+\.\d+\S*)/.exec(goMod);
  if (!match?.[1]) throw new Error(`no FerretDB version in ${FERRETDB_MODULE_DIR}/go.mod`);
  return match[1];
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fsp.access(file, fs.constants.X_OK);
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Runs a command to completion; resolves with stdout, rejects with the tail of its output. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    const keep = (s: string) => s.slice(-4000);
    child.stdout.on('data', (d: Buffer) => ((stdout = keep(stdout + d)), (output = keep(output + d))));
    child.stderr.on('data', (d: Buffer) => (output = keep(output + d)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`\`${command} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}

// ---- small helpers --------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), Math.max(ms, 0));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(promise.then(() => true), ms, 'wait').catch(() => false);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
