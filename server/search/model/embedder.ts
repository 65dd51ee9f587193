// The embedding model in the process: an ONNX text encoder run by onnxruntime-node on one thread,
// its WordPiece tokenizer by the pure-JS @huggingface/tokenizers, pooled as its recipe says (the
// mean of the token vectors, or the [CLS] token's) and L2-normalised, so a dot product of two
// vectors is their cosine.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { checksumFailures, MODEL_FILE, sha256Of, TOKENIZER_CONFIG_FILE, TOKENIZER_FILE } from './files.ts';
import { FOLDER_RECIPE, type PinnedFile, type Recipe } from './models.ts';

/**
 * Texts per run. Small: on a shared 2-core machine batches of 8–16 short texts embed fastest and
 * hold little memory (measured when choosing it); padding to the batch's longest costs the rest.
 */
export const BATCH = 8;

export class ModelRefused extends Error {
  override name = 'ModelRefused';
}

export interface LoadOptions {
  /** How texts go in and vectors come out; a folder's model without one is taken as a sentence-transformers export. */
  recipe?: Recipe;
  /** Every pinned file must hash to its pin first (else ModelRefused, as for a missing file). */
  pinned?: readonly PinnedFile[];
}

export class Embedder {
  /** The model file's sha256. */
  readonly modelSha: string;
  /**
   * What stored vectors are keyed by: the model file's sha256, and the recipe where it is not a
   * sentence-transformers export's (the same file pooled or cut otherwise makes other vectors).
   */
  readonly key: string;
  readonly dimensions: number;
  readonly recipe: Recipe;
  readonly #session: ort.InferenceSession;
  readonly #tokenizer: Tokenizer;
  readonly #typeIds: boolean;
  /** Texts embedded by this process (the vector cache's tests count them). */
  embedded = 0;
  /** One run at a time: onnxruntime on one thread, and queries never wait behind a whole batch queue. */
  #running: Promise<unknown> = Promise.resolve();

  private constructor(session: ort.InferenceSession, tokenizer: Tokenizer, modelSha: string, recipe: Recipe) {
    this.#session = session;
    this.#tokenizer = tokenizer;
    this.modelSha = modelSha;
    this.recipe = recipe;
    this.key = keyOf(modelSha, recipe);
    this.dimensions = 0;
    this.#typeIds = session.inputNames.includes('token_type_ids');
  }

  /** The model of a folder holding model.onnx and tokenizer.json (and tokenizer_config.json, read when there). */
  static async load(dir: string, { recipe = FOLDER_RECIPE, pinned }: LoadOptions = {}): Promise<Embedder> {
    const missing = (await Promise.all([MODEL_FILE, TOKENIZER_FILE].map(async (name) => (await exists(path.join(dir, name)) ? [] : [name])))).flat();
    if (missing.length > 0) throw new ModelRefused(`${dir} lacks ${missing.join(', ')}`);
    if (pinned) {
      const failures = await checksumFailures(dir, pinned);
      if (failures.length > 0) throw new ModelRefused(`${dir}: checksum mismatch: ${failures.join('; ')}`);
    }
    // A BERT tokenizer.json holds all that encoding needs; the config adds only special-token extras.
    const tokenizerJson = JSON.parse(await fs.readFile(path.join(dir, TOKENIZER_FILE), 'utf8'));
    const tokenizerConfig = await exists(path.join(dir, TOKENIZER_CONFIG_FILE)) ? JSON.parse(await fs.readFile(path.join(dir, TOKENIZER_CONFIG_FILE), 'utf8')) : {};
    const session = await ort.InferenceSession.create(path.join(dir, MODEL_FILE), {
      // One thread each: the service shares its cores with the database and other requests.
      intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    });
    const embedder = new Embedder(session, new Tokenizer(tokenizerJson, tokenizerConfig), await sha256Of(path.join(dir, MODEL_FILE)), recipe);
    const [probe] = await embedder.embed(['probe']);
    (embedder as { dimensions: number }).dimensions = probe!.length;
    embedder.embedded = 0;
    return embedder;
  }

  /** A query's vector: the text after the recipe's query prefix. */
  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await this.embed([this.recipe.queryPrefix + query]);
    return vector!;
  }

  /** The texts' vectors, unit length, in order; run in batches of BATCH, one run at a time in the process. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      const batch = texts.slice(start, start + BATCH);
      const run = this.#running.then(() => this.#run(batch));
      this.#running = run.catch(() => undefined);
      vectors.push(...await run);
    }
    return vectors;
  }

  async #run(texts: readonly string[]): Promise<Float32Array[]> {
    const encodings = texts.map((text) => truncated(this.#tokenizer.encode(text).ids, this.recipe.maxTokens));
    const width = Math.max(...encodings.map((ids) => ids.length));
    const ids = new BigInt64Array(texts.length * width);
    const mask = new BigInt64Array(texts.length * width);
    encodings.forEach((encoding, row) => encoding.forEach((id, column) => {
      ids[row * width + column] = BigInt(id);
      mask[row * width + column] = 1n;
    }));
    const dims = [texts.length, width];
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
    if (this.#typeIds) feeds['token_type_ids'] = new ort.Tensor('int64', new BigInt64Array(texts.length * width), dims);
    const output = await this.#session.run(feeds);
    const hidden = output[this.#session.outputNames[0]!]!;
    const size = Number(hidden.dims[2]);
    const data = hidden.data as Float32Array;
    this.embedded += texts.length;
    return encodings.map((encoding, row) => unit(this.recipe.pooling === 'cls' ? first(data, row * width * size, size) : mean(data, row * width * size, encoding.length, size)));
  }

  async close(): Promise<void> {
    await this.#running;
    await this.#session.release();
  }
}

/** A folder's or a spec's vectors never meet another's: the key names the file, and the recipe unless it is the folder default. */
function keyOf(modelSha: string, recipe: Recipe): string {
  const { pooling, maxTokens } = recipe;
  return pooling === FOLDER_RECIPE.pooling && maxTokens === FOLDER_RECIPE.maxTokens ? modelSha : `${modelSha}.${pooling}${maxTokens}`;
}

/** The [CLS] token's vector: the first of the text's rows. */
function first(data: Float32Array, offset: number, size: number): Float32Array {
  return data.slice(offset, offset + size);
}

/** The mean of the text's `tokens` rows (padding excluded; the scale goes with normalising). */
function mean(data: Float32Array, offset: number, tokens: number, size: number): Float32Array {
  const vector = new Float32Array(size);
  for (let token = 0; token < tokens; token++) {
    for (let i = 0; i < size; i++) vector[i]! += data[offset + token * size + i]!;
  }
  return vector;
}

/** The vector scaled to unit length, in place. */
function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** At most `max` ids, the closing [SEP] kept. */
function truncated(ids: readonly number[], max: number): number[] {
  return ids.length <= max ? [...ids] : [...ids.slice(0, max - 1), ids.at(-1)!];
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}
