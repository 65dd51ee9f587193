// Supervision of an embedded database server: one that dies while
// we still want it, or stops answering reads of records, is started again on the same port and
// data, with a growing pause between attempts, logged and counted; the driver reconnects by
// itself. The same for FerretDB and mongod.
import type { DatabaseServer } from './engine.ts';
import { messageOf, oneLine } from './util.ts';

/** One run of a database server process, from its launch (it serves) to its exit. */
export interface Instance {
  /** The process to signal to kill this run (FerretDB: its wrapper; mongod: mongod itself). */
  pid: number | undefined;
  /** Settles when the process has exited, for whatever reason. */
  exited: Promise<void>;
  describeExit(): string;
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL), stalled or frozen as it may be; `exited` then settles. */
  kill(): void;
}

const RESTART_BACKOFF_MS = 250;
const RESTART_BACKOFF_MAX_MS = 10_000;
// How a stall is told from a busy moment: reads of a record fail this many times in a row, one
// probe a second, each bounded by the service's DB_TIMEOUT_MS (so 15 s by default), and none
// succeeded for 10 s (a short DB_TIMEOUT_MS on a loaded machine must not restart a slow server).
const PROBE_INTERVAL_MS = 1_000;
const STALLED_AFTER_FAILURES = 3;
const STALLED_AFTER_MS = 10_000;

/** A launch that failed: "exited" at once, so the supervisor tries again after its pause. */
const FAILED: Instance = { pid: undefined, exited: Promise.resolve(), describeExit: () => 'failed to start', stop: async () => {}, kill: () => {} };

/**
 * The embedded server at `uri`, whose process is `first`: whenever the current instance exits
 * while not stopping, `launch` is called again after 250 ms, the pause doubling after each
 * failed launch up to 10 s. `name` is for the log.
 */
export function supervisedServer(
  uri: string, kind: 'mongodb' | 'ferretdb', name: string,
  first: Instance, launch: () => Promise<Instance>, log: (message: string) => void,
): DatabaseServer {
  const restartListeners = new Set<(count: number) => void>();
  let current = first;
  let restarts = 0;
  let stopping: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;

  const watch = (instance: Instance, failuresInARow: number) => {
    void instance.exited.then(() => {
      if (stopping) return;
      const delay = Math.min(RESTART_BACKOFF_MS * 2 ** failuresInARow, RESTART_BACKOFF_MAX_MS);
      log(`database: ${name} exited unexpectedly (${instance.describeExit()}); restarting in ${delay} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping) return;
        launch().then((next) => {
          if (stopping) {
            void next.stop();
            return;
          }
          current = next;
          restarts += 1;
          log(`database: ${name} restarted (restart ${restarts})`);
          for (const listener of restartListeners) listener(restarts);
          watch(next, 0);
        }, (error: unknown) => {
          log(`database: ${name} restart failed: ${oneLine(messageOf(error))}`);
          watch(FAILED, failuresInARow + 1);
        });
      }, delay);
      // Supervision alone must not keep Node alive.
      restartTimer.unref();
    });
  };
  watch(first, 0);

  let probing: NodeJS.Timeout | undefined;
  /** Reads a record every second; after three failures in a row and 10 s without an answer the instance is killed, and so restarted. */
  const watchReads = (readable: (timeoutMs: number) => Promise<void>, timeoutMs: number) => {
    let failures = 0;
    let answered = Date.now();
    const probe = async () => {
      const instance = current;
      try {
        await readable(timeoutMs);
        failures = 0;
        answered = Date.now();
      } catch (error) {
        if (stopping) return;
        if (instance !== current) answered = Date.now(); // restarted meanwhile: a new instance, a new count
        failures = instance === current ? failures + 1 : 0;
        if (failures >= STALLED_AFTER_FAILURES && Date.now() - answered >= STALLED_AFTER_MS) {
          failures = 0;
          log(`database: ${name} does not answer reads of records (${STALLED_AFTER_FAILURES} reads in a row failed, each given ${timeoutMs} ms, none answered for ${Math.round((Date.now() - answered) / 1000)} s; last: ${oneLine(messageOf(error))}); killing it to restart it`);
          instance.kill();
          // The restart comes from its exit (watch above); wait for it before probing again.
          await instance.exited;
          answered = Date.now();
        }
      }
      if (!stopping) {
        probing = setTimeout(() => void probe(), PROBE_INTERVAL_MS);
        probing.unref();
      }
    };
    probing = setTimeout(() => void probe(), PROBE_INTERVAL_MS);
    probing.unref();
  };

  return {
    uri,
    kind,
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
    watchReads,
    kill() {
      stopping ??= current.exited;
      clearTimeout(restartTimer);
      clearTimeout(probing);
      current.kill();
    },
    stop: () => (stopping ??= (async () => {
      clearTimeout(restartTimer);
      clearTimeout(probing);
      await current.stop();
    })()),
  };
}
