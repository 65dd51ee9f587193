// Debian's Chromium for the browser tests (playwright-core brings no browser of its own). Got the
// way the embedded database is: on first need, with a line saying so; `npm test` alone must pass
// on a fresh machine. Where it cannot be installed, one line says how to get it; never a skip.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumOptions {
  /** Where the browser is expected: CHROMIUM_PATH, else Debian's package's path. */
  executable?: string;
  /** How to install it; null where this machine cannot (not root, no apt-get). */
  install?: (() => Promise<void>) | null;
  log?: (line: string) => void;
}

let ensured: Promise<string> | undefined;

/** Chromium, started headless. Concurrent and later callers share one check (and one install). */
export async function launchChromium(): Promise<Browser> {
  ensured ??= chromiumExecutable();
  return chromium.launch({ executablePath: await ensured });
}

/** The browser's path, installing Debian's package first when it is missing and can be installed. */
export async function chromiumExecutable(options: ChromiumOptions = {}): Promise<string> {
  const executable = options.executable ?? process.env['CHROMIUM_PATH'] ?? DEBIAN_CHROMIUM;
  if (await isExecutable(executable)) return executable;
  const install = options.install === undefined ? await aptInstaller() : options.install;
  if (!install) {
    throw new Error(`the browser tests need Chromium, which is not at ${executable}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH to a Chromium`);
  }
  (options.log ?? defaultLog)(`installing Debian's chromium for the browser tests (apt-get install chromium; once per machine, a minute or two)`);
  await install();
  if (!(await isExecutable(executable))) throw new Error(`apt-get installed chromium, but ${executable} is still missing: set CHROMIUM_PATH to the browser`);
  return executable;
}

/** apt-get as root, where the machine has both; otherwise null. */
async function aptInstaller(): Promise<(() => Promise<void>) | null> {
  if (process.getuid?.() !== 0 || !(await isExecutable('/usr/bin/apt-get'))) return null;
  // Another process (a second test run, CI) may hold dpkg's lock: wait for it rather than fail.
  const apt = (...args: string[]) => run('/usr/bin/apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args]);
  return async () => {
    await apt('update', '-qq');
    await apt('install', '-y', '-qq', '--no-install-recommends', 'chromium');
  };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`)));
  });
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(() => true, () => false);
}

function defaultLog(line: string): void {
  process.stdout.write(`  [chromium] ${line}\n`);
}
