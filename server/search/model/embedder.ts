// The embedding model in the process: a sentence-transformer ONNX file run by onnxruntime-node on
// one thread, its WordPiece tokenizer by the pure-JS @huggingface/tokenizers, mean pooling and L2
// normalisation as sentence-transformers does, so a dot product of two vectors is their cosine.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { checksumFailures, MODEL_FILE, sha256Of, TOKENIZER_FILES } from './files.ts';

/** all-MiniLM-L6-v2 was trained on 128 tokens; its tokenizer.json truncates there too. */
const MAX_TOKENS = 128;
/**
 * Texts per run. Small: on a shared 2-core machine batches of 8–16 short texts embed fastest and
 * hold little memory (measured in issue 24); padding to the batch's longest costs the rest.
 */
export const BATCH = 8;

export class ModelRefused extends Error {
  override name = 'ModelRefused';
}

export class Embedder {
  /** The model file's sha256: what stored vectors are keyed by. */
  readonly modelSha: string;
  readonly dimensions: number;
  readonly #session: ort.InferenceSession;
  readonly #tokenizer: Tokenizer;
  readonly #typeIds: boolean;
  /** Texts embedded by this process (the vector cache's tests count them). */
  embedded = 0;
  /** One run at a time: onnxruntime on one thread, and queries never wait behind a whole batch queue. */
  #running: Promise<unknown> = Promise.resolve();

  private constructor(session: ort.InferenceSession, tokenizer: Tokenizer, modelSha: string, dimensions: number) {
    this.#session = session;
    this.#tokenizer = tokenizer;
    this.modelSha = modelSha;
    this.dimensions = dimensions;
    this.#typeIds = session.inputNames.includes('token_type_ids');
  }

  /**
   * The model of a folder holding model.onnx and the tokenizer's files; with `pinned`, every
   * pinned file must hash to its pin first (else ModelRefused, as for a missing file).
   */
  static async load(dir: string, pinned?: Parameters<typeof checksumFailures>[1]): Promise<Embedder> {
    const missing = (await Promise.all([MODEL_FILE, ...TOKENIZER_FILES].map(async (name) => (await exists(path.join(dir, name)) ? [] : [name])))).flat();
    if (missing.length > 0) throw new ModelRefused(`${dir} lacks ${missing.join(', ')}`);
    if (pinned) {
      const failures = await checksumFailures(dir, pinned);
      if (failures.length > 0) throw new ModelRefused(`${dir}: checksum mismatch: ${failures.join('; ')}`);
    }
    const [tokenizerJson, tokenizerConfig] = await Promise.all(TOKENIZER_FILES.map(async (name) => JSON.parse(await fs.readFile(path.join(dir, name), 'utf8'))));
    const session = await ort.InferenceSession.create(path.join(dir, MODEL_FILE), {
      // One thread each: the service shares its cores with the database and other requests.
      intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    });
    const embedder = new Embedder(session, new Tokenizer(tokenizerJson, tokenizerConfig), await sha256Of(path.join(dir, MODEL_FILE)), 0);
    const [probe] = await embedder.embed(['probe']);
    (embedder as { dimensions: number }).dimensions = probe!.length;
    embedder.embedded = 0;
    return embedder;
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
    const encodings = texts.map((text) => truncated(this.#tokenizer.encode(text).ids));
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
    return encodings.map((encoding, row) => {
      // Mean of the token vectors (padding excluded), then unit length.
      const vector = new Float32Array(size);
      for (let token = 0; token < encoding.length; token++) {
        const offset = (row * width + token) * size;
        for (let i = 0; i < size; i++) vector[i]! += data[offset + i]!;
      }
      let norm = 0;
      for (let i = 0; i < size; i++) norm += vector[i]! * vector[i]!;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < size; i++) vector[i]! /= norm;
      return vector;
    });
  }

  async close(): Promise<void> {
    await this.#running;
    await this.#session.release();
  }
}

/** At most MAX_TOKENS ids, the closing [SEP] kept. */
function truncated(ids: readonly number[]): number[] {
  return ids.length <= MAX_TOKENS ? [...ids] : [...ids.slice(0, MAX_TOKENS - 1), ids.at(-1)!];
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}
