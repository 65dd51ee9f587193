// The operations' vectors: made once per (model, operation text) and kept in the database's
// `searchVectors` collection, so a re-import of unchanged operations, a version copy, a restart
// and every other instance find them there instead of embedding again. Made off the request
// path: a version index asks for its operations' vectors and is answered from the previous index,
// then the database, then the model through one queue in the process, where a search's few new
// operations and its query go first and an import's thousands wait behind.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Binary, type AnyBulkWriteOperation, type Collection, type Db } from 'mongodb';
import { outsideBudget } from '../store/budget.ts';
import { inSlices } from '../store/record-indexes.ts';
import type { CatalogRecord } from '../store/records.ts';
import type { VersionView } from './endpoints.ts';
import type { Embedder } from './model/embedder.ts';

export const VECTORS_COLLECTION = 'searchVectors';

/** A search embeds at most this many operations itself; more are left to the queue, and it answers from the index. */
export const INLINE_EMBEDDINGS = 16;
/** Texts embedded per turn of the queue, then stored in one write. */
const TURN = 32;
/** Query vectors kept, by query text: a query asked again (an agent's retry, a popular ask) is not embedded again. */
const QUERIES_KEPT = 1000;

interface VectorDocument { _id: string; model: string; vector: Binary; createdAt: Date }

/** What an operation is embedded as: its method, path, title and operationId (the words people look for). */
export function embeddingText(view: VersionView, operation: CatalogRecord, title: string): string {
  const path = view.byId('paths', operation['pathId']);
  return [String(operation['method'] ?? '').toUpperCase(), String(path?.['path'] ?? ''), title, String(operation['operationId'] ?? '')]
    .filter((part) => part.length > 0).join(' ');
}

/** An empty table of the view's operations (those with a path), keyed by model and text. */
export function vectorTableOf(view: VersionView, modelKey: string, titleOf: (operation: CatalogRecord) => string): VectorTable {
  const texts = new Map<string, { key: string; text: string }>();
  for (const operation of view.of('operations')) textOf(texts, view, operation, modelKey, titleOf);
  return new VectorTable(texts);
}

/**
 * The table of `view` from a previous one where only the `changed` operations' texts may differ
 * (a patched index's, ranking.ts): the others' texts and vectors are taken as they are.
 */
export function patchedVectorTable(previous: VectorTable, changed: ReadonlySet<string>, view: VersionView, modelKey: string, titleOf: (operation: CatalogRecord) => string): VectorTable {
  const texts = new Map([...previous.texts].filter(([id]) => !changed.has(id)));
  for (const id of changed) {
    const operation = view.byId('operations', id);
    if (operation) textOf(texts, view, operation, modelKey, titleOf);
  }
  const table = new VectorTable(texts);
  for (const [id, vector] of previous.vectors) if (!changed.has(id)) table.vectors.set(id, vector);
  return table;
}

/** Adds the operation's text and key to `texts` when its path is in the view. */
function textOf(texts: Map<string, { key: string; text: string }>, view: VersionView, operation: CatalogRecord, modelKey: string, titleOf: (operation: CatalogRecord) => string): void {
  if (!view.byId('paths', operation['pathId'])) return;
  const text = embeddingText(view, operation, titleOf(operation));
  texts.set(operation.id, { key: `${modelKey}:${createHash('sha256').update(text).digest('base64url')}`, text });
}

/** One version's vectors as they arrive: the text key of each operation, and its vector once had. */
export class VectorTable {
  /** Operation id → key (hash of its text) and text. */
  readonly texts: ReadonlyMap<string, { key: string; text: string }>;
  readonly vectors = new Map<string, Float32Array>();

  constructor(texts: ReadonlyMap<string, { key: string; text: string }>) {
    this.texts = texts;
  }

  get complete(): boolean {
    return this.vectors.size === this.texts.size;
  }
}

interface Wanted { key: string; text: string; resolve: (vector: Float32Array) => void; reject: (error: unknown) => void; promise: Promise<Float32Array> }

export class SearchVectors {
  /** The model once loaded; undefined while loading, null when there is none (off, missing, refused). */
  #model: Embedder | null | undefined;
  readonly ready: Promise<Embedder | null>;
  readonly #collection: Collection<VectorDocument>;
  readonly #log: (message: string, fields?: Record<string, unknown>) => void;
  readonly #pending = new Map<string, Wanted>();
  readonly #queue: Wanted[] = [];
  readonly #queries = new LRUCache<string, Float32Array>({ max: QUERIES_KEPT });
  #draining = false;
  /** Operation texts this process embedded (the vector cache's tests count them), and the time the model took. */
  embedded = 0;
  embedMs = 0;

  constructor(db: Db, model: Promise<Embedder | null>, log: (message: string, fields?: Record<string, unknown>) => void) {
    this.#collection = db.collection(VECTORS_COLLECTION);
    this.#log = log;
    this.ready = model.then((loaded) => {
      this.#model = loaded;
      return loaded;
    }, () => {
      this.#model = null;
      return null;
    });
  }

  async createIndexes(): Promise<void> {
    // Lookups go by `_id` (model key + text hash); `model` finds a replaced model's vectors to drop.
    await this.#collection.createIndex({ model: 1 });
  }

  /** Once nothing is queued or being embedded (the tests and the benchmark wait for it). */
  async settled(): Promise<void> {
    await this.ready;
    while (this.#draining || this.#queue.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Stops after the turn under way and releases the model. */
  async close(): Promise<void> {
    const model = await this.ready;
    for (const wanted of this.#queue.splice(0)) {
      this.#pending.delete(wanted.key);
      wanted.reject(new Error('the search vectors were closed'));
    }
    while (this.#draining) await new Promise((resolve) => setTimeout(resolve, 10));
    await model?.close();
  }

  /** The loaded model, if there is one yet. */
  get model(): Embedder | undefined {
    return this.#model ?? undefined;
  }

  /**
   * A table for the view's operations (keys only); `fill` brings their vectors. From a previous
   * table where only the `changed` operations may differ, when there is one (a patched index).
   */
  tableOf(view: VersionView, titleOf: (operation: CatalogRecord) => string, from?: { table: VectorTable; changed: ReadonlySet<string> }): VectorTable | undefined {
    const model = this.model;
    if (!model) return undefined;
    return from ? patchedVectorTable(from.table, from.changed, view, model.key, titleOf) : vectorTableOf(view, model.key, titleOf);
  }

  /**
   * Fills the table: from the previous one where the text is unchanged, then the database, then
   * the model. Resolves once at most INLINE_EMBEDDINGS are left to embed and those are done (a
   * search waits for the few operations written since the last one); more are embedded behind,
   * filling the table as they come.
   */
  async fill(table: VectorTable, previous?: VectorTable): Promise<void> {
    const reused = new Map<string, Float32Array>();
    if (previous) for (const [id, vector] of previous.vectors) reused.set(previous.texts.get(id)!.key, vector);
    const wanted = new Map<string, string>();
    for (const [id, { key, text }] of table.texts) {
      const vector = reused.get(key);
      if (vector) table.vectors.set(id, vector);
      else wanted.set(key, text);
    }
    const stored = await this.#read([...wanted.keys()]);
    const missing: [string, string][] = [];
    for (const [id, { key }] of table.texts) {
      const vector = stored.get(key);
      if (vector) table.vectors.set(id, vector);
      else if (!table.vectors.has(id)) missing.push([id, key]);
    }
    const urgent = missing.length <= INLINE_EMBEDDINGS;
    const arriving = missing.map(([id, key]) => this.#want(key, wanted.get(key)!, urgent).then((vector) => {
      table.vectors.set(id, vector);
    }));
    if (urgent) await Promise.all(arriving);
    // Not waited for: a failure is logged by the queue, and the table stays incomplete (lexical).
    else void Promise.allSettled(arriving);
  }

  /** The query's vector, ahead of any queued operations; kept for the next time it is asked. */
  async query(text: string): Promise<Float32Array | undefined> {
    const model = this.model;
    if (!model) return undefined;
    const kept = this.#queries.get(text);
    if (kept) return kept;
    const vector = await model.embedQuery(text);
    this.#queries.set(text, vector);
    return vector;
  }

  async #read(keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const slice of inSlices(keys)) {
      const documents = await this.#collection.find({ _id: { $in: slice } }, { projection: { vector: 1 } }).toArray();
      for (const document of documents) found.set(document._id, vectorOf(document.vector));
    }
    return found;
  }

  #want(key: string, text: string, urgent: boolean): Promise<Float32Array> {
    const pending = this.#pending.get(key);
    if (pending) {
      // Asked again by a search: move it to the front.
      if (urgent && this.#queue.includes(pending)) this.#queue.splice(this.#queue.indexOf(pending), 1), this.#queue.unshift(pending);
      return pending.promise;
    }
    let resolve!: Wanted['resolve'];
    let reject!: Wanted['reject'];
    const promise = new Promise<Float32Array>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    const wanted: Wanted = { key, text, resolve, reject, promise };
    this.#pending.set(key, wanted);
    if (urgent) this.#queue.unshift(wanted);
    else this.#queue.push(wanted);
    // Stored behind the answer of whoever asked first, not within that request's budget.
    void outsideBudget(() => this.#drain());
    return promise;
  }

  /** One turn at a time: embed up to TURN texts, store them, hand them out. */
  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        const turn = this.#queue.splice(0, TURN);
        try {
          const model = this.model;
          if (!model) throw new Error('no search model');
          const started = performance.now();
          const vectors = await model.embed(turn.map((wanted) => wanted.text));
          this.embedMs += performance.now() - started;
          this.embedded += turn.length;
          // Handed out first, stored after: a search waiting for its few new operations does not
          // wait for the write too (on FerretDB an upsert can wait behind an import's writes).
          turn.forEach((wanted, i) => wanted.resolve(vectors[i]!));
          await this.#store(model.key, turn.map((wanted, i) => [wanted.key, vectors[i]!] as const)).catch((error: unknown) => {
            this.#log('search vectors: a turn of embeddings could not be stored; another instance or restart embeds them again', { error: String(error) });
          });
        } catch (error) {
          this.#log('search vectors: a turn of embeddings failed; those operations are found by the index alone until the next write', { error: String(error) });
          for (const wanted of turn) wanted.reject(error);
        } finally {
          for (const wanted of turn) this.#pending.delete(wanted.key);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  async #store(model: string, vectors: ReadonlyArray<readonly [string, Float32Array]>): Promise<void> {
    // Upserts keyed by `_id`: two instances embedding the same text write the same document.
    const writes: AnyBulkWriteOperation<VectorDocument>[] = vectors.map(([key, vector]) => ({
      updateOne: {
        filter: { _id: key },
        update: { $setOnInsert: { model, vector: new Binary(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)), createdAt: new Date() } },
        upsert: true,
      },
    }));
    await this.#collection.bulkWrite(writes, { ordered: false });
  }
}

/** Stored bytes → vector (copied: the driver's buffer may be unaligned or reused). */
function vectorOf(binary: Binary): Float32Array {
  const bytes = binary.buffer;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
