// Who runs the embedded database of a data folder: a file beside the data names the
// server's process, the service that started it, its port and whether it is stopping, so that a
// new start waits for a server that is going away instead of attaching to it while it dies.
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { acceptsTcp } from './probe.ts';

const FILE = 'embedded-database.json';
// A FerretDB whose service died is stopped by its wrapper: SIGTERM, then SIGKILL after 10 s.
const DYING_WAIT_MS = 15_000;

interface Owned {
  /** The database server's process (FerretDB's wrapper; mongod). */
  pid: number;
  /** The service process that started it and wants it. */
  owner: number;
  port: number;
  state: 'serving' | 'stopping';
}

export const pidFilePath = (dataDir: string) => path.join(dataDir, FILE);

/** Writes (or rewrites, after a restart or when stopping) what this process runs on `dataDir`. */
export function recordServer(dataDir: string, server: Omit<Owned, 'owner'>): void {
  const file = pidFilePath(dataDir);
  const temp = `${file}.${process.pid}`;
  // Synchronous: it is also written on the way out, when nothing asynchronous runs any more.
  try {
    fs.writeFileSync(temp, `${JSON.stringify({ ...server, owner: process.pid })}\n`);
    fs.renameSync(temp, file);
  } catch {
    // A data folder we cannot write to fails the database itself, with a clearer message.
  }
}

/** Removes the file once the server it names is stopped, unless another process wrote it since. */
export function forgetServer(dataDir: string): void {
  const file = pidFilePath(dataDir);
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Owned;
    if (saved.owner === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // none, or not ours
  }
}

/**
 * Before using `dataDir` on `port`: when its file names a server that is still alive but going
 * away (its service is gone, or is stopping it), waits until that server has exited and left the
 * port; fails with one line when it does not within 15 s. A server whose service is alive and
 * serving is left to be attached to (the admin CLI beside the service).
 */
export async function waitForDyingServer(dataDir: string, log: (message: string) => void): Promise<void> {
  let saved: Owned;
  try {
    saved = JSON.parse(await fsp.readFile(pidFilePath(dataDir), 'utf8')) as Owned;
  } catch {
    return;
  }
  if (saved.owner === process.pid || !servesFrom(saved.pid, dataDir)) return;
  if (saved.state === 'serving' && isAlive(saved.owner)) return;
  log(`database: the embedded database of ${dataDir} (pid ${saved.pid}, port ${saved.port}) is shutting down; waiting for it to exit`);
  if (!(await exitsWithin(saved, dataDir, DYING_WAIT_MS))) {
    throw new Error(`the embedded database of ${dataDir} (pid ${saved.pid}, port ${saved.port}) is shutting down and did not exit within ${DYING_WAIT_MS / 1000} s; wait for it, or end it (kill -9 ${saved.pid})`);
  }
}

/**
 * After the service process `owner` died without stopping its embedded database (a crash, an
 * out-of-memory abort, SIGKILL): waits for the server it recorded on `dataDir` to exit (FerretDB's
 * wrapper and mongod's watchdog stop it once the service is gone), killing it past 15 s. Says
 * what became of it; undefined when `owner` recorded no server there.
 */
export async function endOrphanedServer(dataDir: string, owner: number): Promise<string | undefined> {
  let saved: Owned;
  try {
    saved = JSON.parse(await fsp.readFile(pidFilePath(dataDir), 'utf8')) as Owned;
  } catch {
    return undefined;
  }
  if (saved.owner !== owner) return undefined;
  if (await exitsWithin(saved, dataDir, DYING_WAIT_MS)) return `stopped (pid ${saved.pid}, port ${saved.port})`;
  // FerretDB's wrapper leads a process group of its own (FerretDB in it); mongod is alone.
  for (const target of [-saved.pid, saved.pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // not a group, or gone
    }
  }
  const killed = await exitsWithin(saved, dataDir, 5_000);
  return killed ? `killed (pid ${saved.pid}): it had not stopped within ${DYING_WAIT_MS / 1000} s` : `still running (pid ${saved.pid}, port ${saved.port}): end it with kill -9 ${saved.pid}`;
}

/** Whether the server `saved` names has exited and left its port within `ms`. */
async function exitsWithin(saved: Owned, dataDir: string, ms: number): Promise<boolean> {
  const ends = Date.now() + ms;
  while (servesFrom(saved.pid, dataDir) || (await acceptsTcp(saved.port, 250))) {
    if (Date.now() > ends) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Whether `pid` is still the server of `dataDir`: its command line names the folder (FerretDB's
 * wrapper passes `--state-dir=<dataDir>/ferretdb`, mongod its `--dbpath`), so a pid the system
 * has since given to another process is not mistaken for it. Without /proc: whether it is alive.
 */
function servesFrom(pid: number, dataDir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dataDir}${path.sep}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self')) return false;
    return isAlive(pid);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
