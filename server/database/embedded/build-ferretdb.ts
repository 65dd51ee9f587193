// Building the FerretDB binary from source with Go (pinned in scripts/ferretdb/go.mod) into the cache dir.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { oneLine } from './util.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const FERRETDB_MODULE_DIR = path.join(REPO_ROOT, 'scripts', 'ferretdb');

export const ferretdbPath = (cacheDir: string) => path.join(cacheDir, 'bin', 'ferretdb');
const builds = new Map<string, Promise<string>>();

/**
 * Patches of the vendored FerretDB source, each checked to apply. FerretDB 1.24's SQLite backend
 * finds a document by `_id` with `_ferretdb_sjson->'$._id' = ?`, while its `_id_` index is on
 * `_ferretdb_sjson->"_id"`. SQLite uses an expression index only for the expression as written, so
 * every find, replace and delete by `_id` scanned its table whole (`EXPLAIN QUERY PLAN`: SCAN): a
 * re-import of Kubernetes deleting 12 parameters by `_id` took 18 s beside Graph beta's records,
 * and the regression's late descriptions paid for the early ones. Written as the index has it
 * ('_id', a text label, names the same member as '$._id'), the lookup SEARCHes the index.
 */
const PATCHES = [
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    from: `IDColumn = DefaultColumn + "->'$._id'"`,
    to: `IDColumn = DefaultColumn + "->'_id'"`,
  },
];
/** Beside the binary: the patches it was built with, so a binary built before them is built again. */
const stampOf = (binary: string) => `${binary}.patches`;
const STAMP = JSON.stringify(PATCHES);

export async function buildFerretDB(cacheDir: string, log: (m: string) => void): Promise<string> {
  const binary = path.resolve(ferretdbPath(cacheDir));
  if (await isExecutable(binary) && await fsp.readFile(stampOf(binary), 'utf8').catch(() => '') === STAMP) return binary;
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
    await applyPatches(path.join(src, 'vendor', 'github.com', 'FerretDB', 'FerretDB'));
    await run('go', ['build', '-mod=vendor', '-trimpath', '-o', temp, 'github.com/FerretDB/FerretDB/cmd/ferretdb'], { cwd: src, env });
    const printed = await run(temp, ['--version'], { env });
    if (!printed.includes(version)) throw new Error(`built FerretDB reports an unexpected version: ${oneLine(printed)}`);
    await fsp.rename(temp, binary);
    await fsp.writeFile(stampOf(binary), STAMP);
  } finally {
    await fsp.rm(temp, { force: true });
    await fsp.rm(src, { recursive: true, force: true });
  }
  log(`database: built FerretDB in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

async function applyPatches(moduleDir: string): Promise<void> {
  for (const { file, from, to } of PATCHES) {
    const full = path.join(moduleDir, file);
    const source = await fsp.readFile(full, 'utf8');
    if (!source.includes(from)) throw new Error(`cannot patch FerretDB: ${file} no longer holds ${from}`);
    await fsp.writeFile(full, source.replace(from, to));
  }
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
