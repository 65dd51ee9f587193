// Running FerretDB: spawned under a shell wrapper that stops it when we go, waited for until it
// serves, restarted with backoff when it dies (supervise.ts), stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import type * as net from 'node:net';
import * as path from 'node:path';
import { noteOtherEngineData, type DatabaseServer, type ProvisionOptions } from './engine.ts';
import { LOOPBACK, acceptsTcp, loopbackUri, serverKind } from './probe.ts';
import { supervisedServer, type Instance } from './supervise.ts';
import { messageOf, withTimeout } from './util.ts';

const FERRETDB_READY_MS = 30_000;
const STOP_GRACE_MS = 10_000;

/**
 * Go's collector runs when the heap has grown by GOGC percent since the last collection (Go's
 * default: 100). FerretDB makes short-lived garbage for every document it reads (each one decoded
 * into maps and slices, then encoded): with the default a fifth of a large read was collection
 * (the search's read of 30,168 parameters: 2.2 s of FerretDB's CPU, 1.65 s at 400). GOMEMLIMIT
 * makes it collect as often as it must to stay near that heap, so the largest reads (GitHub's
 * re-import) peak at about 630 MB of RSS instead of 760 MB at 400 alone and 350-400 MB at 100
 * (docs/database.md). Either one set in the environment wins.
 */
const FERRETDB_GOGC = '400';
const FERRETDB_GOMEMLIMIT = '512MiB';

// The child runs under this shell wrapper so that it dies with us: the wrapper reads its stdin
// (a pipe from this process) and stops FerretDB when the pipe closes, which the kernel does
// however this process ends, SIGKILL included. stop() closes the pipe the same way.
const WRAPPER = `
bin=$1; shift
export GOGC="\${GOGC:-${FERRETDB_GOGC}}" GOMEMLIMIT="\${GOMEMLIMIT:-${FERRETDB_GOMEMLIMIT}}"
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

export async function startFerretDB(binary: string, options: ProvisionOptions, port: number): Promise<DatabaseServer> {
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
  const uri = loopbackUri(port);
  const started = Date.now();
  const first = await launch(binary, args, uri, port, logFile);
  await noteOtherEngineData(options, 'mongodb');
  log(`database: FerretDB on ${uri} (ready in ${Date.now() - started} ms), data in ${dir}, log in ${logFile}`);

  return supervisedServer(uri, 'ferretdb', 'FerretDB', first, () => launch(binary, args, uri, port, logFile), log);
}

/** Spawns FerretDB under the wrapper and waits until it serves; on failure stops it and says why. */
async function launch(binary: string, args: string[], uri: string, port: number, logFile: string): Promise<Instance> {
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
  try {
    await waitUntilServing(uri, port, child, FERRETDB_READY_MS);
  } catch (error) {
    await stop();
    const tail = (await readTail(logFile, logOffset)).trim();
    throw new Error(`${messageOf(error)}${tail ? `; its log (${logFile}) ends with:\n${tail}` : ''}`);
  }
  return {
    pid: child.pid,
    exited,
    describeExit: () => `code ${child.exitCode ?? child.signalCode}`,
    stop,
    kill: () => {
      child.stdin?.destroy();
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    },
  };
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(promise.then(() => true), ms, 'wait').catch(() => false);
}
