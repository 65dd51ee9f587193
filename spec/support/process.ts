// The service as a real process (`node server/index.ts`; `npm start` runs it under
// server/start.ts), for tests of start-up, first run, restarts, signals and crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';

export interface ServiceProcess {
  child: ChildProcess;
  /** Base URL once listening. */
  url: string;
  /** Everything printed so far on stdout and stderr. */
  output(): string;
  /** What was printed on stdout alone (the log stream). */
  stdout(): string;
  /** What was printed on stderr alone. */
  stderr(): string;
  /** Resolves with the first match of `pattern` in the output (waits for it). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when the process ends (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Runs the service and waits until it listens (or rejects with its output when it exits first). */
export async function spawnService(env: Record<string, string>, entry: 'server/index.ts' | 'server/start.ts' = 'server/index.ts'): Promise<ServiceProcess> {
  const service = run(env, entry);
  const [, url] = await service.waitFor(/"url":"(http:\/\/[^"]+)".*catalog service listening/, 60_000);
  return { ...service, url: url! };
}

/** Runs `node server/index.ts` until it exits; for start-up failures. */
export async function runServiceToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'server/index.ts')], { env: baseEnv(env), cwd: repoRoot });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const [code] = await new Promise<[number | null]>((resolve) => child.on('exit', (exitCode) => resolve([exitCode])));
  return { code, stdout, stderr };
}

function run(env: Record<string, string>, entry: string): Omit<ServiceProcess, 'url'> {
  const child = spawn(process.execPath, [path.join(repoRoot, entry)], { env: baseEnv(env), cwd: repoRoot });
  let output = '';
  const apart = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    output += chunk.toString();
    apart[stream] += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData('stdout'));
  child.stderr!.on('data', onData('stderr'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => {
    for (const listener of listeners) listener();
    resolve(code);
  }));

  return {
    child,
    exited,
    output: () => output,
    stdout: () => apart.stdout,
    stderr: () => apart.stderr,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) done(() => resolve(match));
          else if (child.exitCode !== null) done(() => reject(new Error(`service exited (${child.exitCode}) before printing ${pattern}:\n${output}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`timed out waiting for ${pattern}:\n${output}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // Only what the service needs: no MONGODB_URI or JWT_SECRET leaks in from the test run. The
  // search model off unless a test asks for it (as for in-process services: support/catalog.ts):
  // these processes are about the database and the process, and the model's neighbours would join
  // every search's hits.
  return { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'info', PORT: '0', SEARCH_MODEL: 'off', ...env };
}
