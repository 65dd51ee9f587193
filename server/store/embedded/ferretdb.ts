// Running FerretDB: spawned under a shell wrapper that stops it when we go, waited for until it
// serves, restarted with backoff when it dies (supervision), stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import type * as net from 'node:net';
import * as path from 'node:path';
import { noteOtherEngineData, type DatabaseServer, type ProvisionOptions } from './engine.ts';
import { LOOPBACK, acceptsTcp, loopbackUri, serverKind } from './probe.ts';
import { messageOf, oneLine, withTimeout } from './util.ts';

const FERRETDB_READY_MS = 30_000;
const STOP_GRACE_MS = 10_000;

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
  let current = await launch(binary, args, uri, port, logFile);
  await noteOtherEngineData(options, 'mongodb');
  log(`database: FerretDB on ${uri} (ready in ${Date.now() - started} ms), data in ${dir}, log in ${logFile}`);

  // Supervision: FerretDB that dies while we still want it is started again on the same port
  // and data, with a growing pause between attempts; the driver reconnects by itself.
  const restartListeners = new Set<(count: number) => void>();
  let restarts = 0;
  let stopping: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  const supervise = (instance: Instance, failuresInARow: number) => {
    void instance.exited.then(() => {
      if (stopping) return;
      const delay = Math.min(RESTART_BACKOFF_MS * 2 ** failuresInARow, RESTART_BACKOFF_MAX_MS);
      log(`database: FerretDB exited unexpectedly (${instance.describeExit()}); restarting in ${delay} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping) return;
        launch(binary, args, uri, port, logFile).then((next) => {
          if (stopping) {
            void next.stop();
            return;
          }
          current = next;
          restarts += 1;
          log(`database: FerretDB restarted (restart ${restarts})`);
          for (const listener of restartListeners) listener(restarts);
          supervise(next, 0);
        }, (error: unknown) => {
          log(`database: FerretDB restart failed: ${oneLine(messageOf(error))}`);
          supervise(FAILED, failuresInARow + 1);
        });
      }, delay);
      restartTimer.unref();
    });
  };
  supervise(current, 0);

  return {
    uri,
    kind: 'ferretdb',
    reused: false,
    get restarts() {
      return restarts;
    },
    get pid() {
      return current.pid;
    },
    onRestart(listener: (count: number) => void) {
      restartListeners.add(listener);
    },
    stop: () => (stopping ??= (async () => {
      clearTimeout(restartTimer);
      await current.stop();
    })()),
  };
}

const RESTART_BACKOFF_MS = 250;
const RESTART_BACKOFF_MAX_MS = 10_000;

interface Instance {
  /** The wrapper's pid; FerretDB is its child. */
  pid: number | undefined;
  exited: Promise<void>;
  describeExit(): string;
  stop(): Promise<void>;
}

/** A launch that failed: "exited" at once, so the supervisor tries again after its pause. */
const FAILED: Instance = { pid: undefined, exited: Promise.resolve(), describeExit: () => 'failed to start', stop: async () => {} };

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
