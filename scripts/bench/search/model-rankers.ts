// The search evaluation's rankings that use the search model: dense-only (cosine over the vectors
// of each operation's text, as the service makes them) and the service's fusion of its index with
// those vectors, in both ways fusion.ts offers (reciprocal rank fusion, weighted sum). Vectors are
// made by a pinned model (SEARCH_MODEL names one of the table, the default's when unset) and kept
// in a file of the cache between runs, keyed as the service keys them (model key and text hash),
// so repeated tuning runs embed nothing again.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../server/config.ts';
import type { VersionView } from '../../../server/search/endpoints.ts';
import { FUSION, nearest, type Fusion } from '../../../server/search/fusion.ts';
import { Embedder } from '../../../server/search/model/embedder.ts';
import { DEFAULT_MODEL_ID, MODELS, modelSpec } from '../../../server/search/model/models.ts';
import { loadPinned } from '../../../server/search/model/source.ts';
import { titleOf } from '../../../server/search/documents.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import { vectorTableOf, type VectorTable } from '../../../server/search/vectors.ts';
import type { Ranker, Scope } from './rankers.ts';

let model: Promise<Embedder> | undefined;

/**
 * The pinned model SEARCH_MODEL names, loaded once per run: the default when unset or off (a run
 * with the service's model off still scores the rankings that need one, with the default's).
 */
export function benchModel(): Promise<Embedder> {
  const setting = process.env['SEARCH_MODEL'];
  const id = !setting || setting === 'off' ? DEFAULT_MODEL_ID : setting;
  const spec = modelSpec(id);
  if (!spec) throw new Error(`SEARCH_MODEL=${id}: the evaluation takes a model of the table (${MODELS.map((one) => one.id).join(', ')})`);
  model ??= loadPinned(path.join(repoRoot, '.cache'), spec, (line) => console.error(line));
  return model;
}

// SEARCH_BENCH_VECTORS: another file, so that engineers tuning at once on one shared .cache do not overwrite each other's.
const STORE = process.env['SEARCH_BENCH_VECTORS'] ?? path.join(repoRoot, '.cache', 'search-bench-vectors.json');

/** The view's table, filled from the file and the model (what is new is embedded and saved). */
export async function filledTable(view: VersionView): Promise<{ table: VectorTable; embedder: Embedder; embedSeconds: number; embedded: number }> {
  const embedder = await benchModel();
  const table = vectorTableOf(view, embedder.key, titleOf);
  const stored = new Map<string, string>(fs.existsSync(STORE) ? Object.entries(JSON.parse(fs.readFileSync(STORE, 'utf8')) as Record<string, string>) : []);
  const missing = [...table.texts].filter(([, { key }]) => !stored.has(key));
  const started = performance.now();
  const vectors = await embedder.embed(missing.map(([, { text }]) => text));
  const embedSeconds = (performance.now() - started) / 1000;
  missing.forEach(([, { key }], i) => stored.set(key, Buffer.from(vectors[i]!.buffer).toString('base64')));
  if (missing.length > 0) fs.writeFileSync(STORE, JSON.stringify(Object.fromEntries(stored)));
  for (const [id, { key }] of table.texts) {
    const bytes = Buffer.from(stored.get(key)!, 'base64');
    table.vectors.set(id, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  }
  return { table, embedder, embedSeconds, embedded: missing.length };
}

/** Query vectors, made once per ask in a run. */
function queryVectors(embedder: Embedder): (query: string) => Promise<Float32Array> {
  const made = new Map<string, Promise<Float32Array>>();
  return (query) => {
    let vector = made.get(query);
    if (!vector) {
      vector = embedder.embedQuery(query);
      made.set(query, vector);
    }
    return vector;
  };
}

/** Cosine over the operations' vectors alone. */
export async function denseRanker(view: VersionView): Promise<Ranker> {
  const { table, embedder } = await filledTable(view);
  const vectorOf = queryVectors(embedder);
  const serviceOf = new Map(view.of('operations').map((operation) => [operation.id, view.byId('paths', operation['pathId'])?.['serviceId']]));
  const operationIdOf = new Map(view.of('operations').map((operation) => [operation.id, String(operation['operationId'])]));
  return {
    name: 'dense only',
    rank: async (query, scope, limit) => nearest(table, await vectorOf(query), limit, scope ? (id) => serviceOf.get(id) === scope.serviceId : undefined)
      .map(({ id }) => operationIdOf.get(id)!),
  };
}

/** The service's own ranking with its vectors (FUSION unless `fusion` says otherwise). */
export async function fusedRanker(view: VersionView, fusion: Fusion = FUSION, name = `hybrid (${FUSION.method})`): Promise<Ranker> {
  const index = await VersionIndex.of(view);
  const { table, embedder } = await filledTable(view);
  index.vectors = table;
  const vectorOf = queryVectors(embedder);
  return {
    name,
    rank: async (query: string, scope: Scope | undefined, limit: number) => index.rank({ query, limit, vector: await vectorOf(query), fusion, ...(scope ? { serviceId: scope.serviceId } : {}) })
      .ranked.map(({ operation }) => String(operation['operationId'])),
  };
}

/** Both fusions side by side, each with the others of FUSION's settings. */
export const rrfRanker = (view: VersionView) => fusedRanker(view, { ...FUSION, method: 'rrf' }, 'hybrid, RRF');
export const weightedRanker = (view: VersionView) => fusedRanker(view, { ...FUSION, method: 'weighted' }, 'hybrid, weighted');
