// `npm start`: runs the service (index.ts) as a child process and watches it, so that a crash is
// said on the terminal and leaves nothing behind. A crash may give no JavaScript a chance to run
// (a heap out of memory aborts V8; SIGKILL), so the service cannot report it itself: this parent
// sees the exit, waits until the embedded database has stopped too (FerretDB's wrapper and mongod's
// watchdog stop it once the service is gone; killed past 15 s) and says so in one line. It does
// not restart the service: production runs it under a supervisor that does (docs/operations.md).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { endOrphanedServer } from './database/embedded/pid-file.ts';
import { isListening } from './supervised.ts';

const SERVICE = fileURLToPath(new URL('./index.ts', import.meta.url));
// npm passes on the Ctrl-C the terminal sends us too: the same signal twice within this is one.
const SAME_SIGNAL_MS = 1_000;

// Its own process group (detached): a terminal's Ctrl-C reaches only this process, which passes
// each signal on once, so the service's "second signal: exit now" stays a person's choice.
const service = spawn(process.execPath, [...process.execArgv, SERVICE, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  detached: true,
});

let listening: { dataDir: string | undefined } | undefined;
let signalled = false;
let last = { signal: '', at: 0 };
service.on('message', (message) => {
  if (isListening(message)) listening = { dataDir: message.dataDir };
});

const passOn = (signal: NodeJS.Signals) => {
  const now = Date.now();
  if (signal === last.signal && now - last.at < SAME_SIGNAL_MS) return;
  last = { signal, at: now };
  signalled = true;
  // The service stops gracefully on SIGTERM and SIGINT; a closed terminal (SIGHUP) asks the same.
  service.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, passOn);

// 'close', not 'exit': by then every message the service sent has been read.
service.on('close', (code, signal) => {
  // Stopped as asked, or failed to start (it said why itself): its exit status is ours.
  if (signalled || listening === undefined || (code === 0 && signal === null)) process.exit(code ?? 1);
  void reportCrash(signal === null ? `exit code ${code}` : `killed by ${signal}`, listening.dataDir).finally(() => process.exit(1));
});

async function reportCrash(how: string, dataDir: string | undefined): Promise<void> {
  const database = dataDir === undefined ? undefined : await endOrphanedServer(dataDir, service.pid!).catch((error: unknown) => `in an unknown state (${(error as Error).message})`);
  const after = database === undefined ? '' : `; its embedded database ${database}`;
  process.stderr.write(`the catalog service crashed (${how})${after}. It is not restarted here: start it again, or run it under a supervisor that does.\n`);
}
