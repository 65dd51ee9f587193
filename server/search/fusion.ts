// Fusing two rankings of one version's operations: the index's candidates (BM25) and the nearest
// operations by the search model's vectors. Two ways are kept, measured side by side on the
// benchmark's tuning set (scripts/bench/search/): reciprocal rank fusion, which uses ranks only,
// and a weighted sum of scores normalised to 0–1 within each ranking. FUSION says which one serves.
import type { VectorTable } from './vectors.ts';

export type FusionMethod = 'rrf' | 'weighted';

/** How the two rankings are combined; the benchmark's tuning set chose these (docs/benchmark.md). */
export interface Fusion {
  method: FusionMethod;
  /** RRF's constant: a larger one flattens the difference between the first ranks. */
  k: number;
  /** The weighted sum's share of the index's score; the vectors' is the rest. */
  lexicalWeight: number;
  /** Nearest operations by vector taken as candidates. */
  neighbours: number;
  /** The naming factor (1–16, ranking.ts) is raised to this power after fusion: how much names still decide among siblings. */
  namingPower: number;
}

export const FUSION: Fusion = { method: 'weighted', k: 5, lexicalWeight: 0.2, neighbours: 30, namingPower: 0.5 };

export interface Scored { id: string; score: number }

/**
 * The `count` operations nearest the query (cosine: the vectors are unit length), among those
 * `keep` allows, best first; equal cosines (operations embedded from the same text) by id, so the
 * neighbours do not depend on the order the table's vectors arrived in.
 */
export function nearest(table: VectorTable, query: Float32Array, count: number, keep?: (id: string) => boolean): Scored[] {
  const best: Scored[] = [];
  for (const [id, vector] of table.vectors) {
    if (keep && !keep(id)) continue;
    let dot = 0;
    for (let i = 0; i < vector.length; i++) dot += vector[i]! * query[i]!;
    if (best.length < count) {
      best.push({ id, score: dot });
      if (best.length === count) best.sort(byScore);
    } else if (byScore({ id, score: dot }, best[count - 1]!) < 0) {
      best[count - 1] = { id, score: dot };
      // One insertion step keeps the list sorted.
      for (let at = count - 1; at > 0 && byScore(best[at]!, best[at - 1]!) < 0; at--) [best[at], best[at - 1]] = [best[at - 1]!, best[at]!];
    }
  }
  return best.sort(byScore);
}

/**
 * One fused score per operation found by either ranking (each best first). RRF adds 1/(k + rank)
 * of each ranking. The weighted sum scores every operation found by either on both signals: the
 * index's score over its best (0 when the index did not find it) and the cosine (`cosineOf`, had
 * for any operation) min-max normalised over them all, so an operation just outside the
 * neighbours still counts by meaning.
 */
export function fuse(lexical: readonly Scored[], dense: readonly Scored[], fusion: Fusion, cosineOf: (id: string) => number): Map<string, number> {
  const fused = new Map<string, number>();
  if (fusion.method === 'rrf') {
    const add = (id: string, value: number) => fused.set(id, (fused.get(id) ?? 0) + value);
    lexical.forEach(({ id }, rank) => add(id, 1 / (fusion.k + rank + 1)));
    dense.forEach(({ id }, rank) => add(id, 1 / (fusion.k + rank + 1)));
    return fused;
  }
  const words = new Map(lexical.map(({ id, score }) => [id, score]));
  const top = lexical[0]?.score ?? 1;
  const ids = [...new Set([...lexical.map(({ id }) => id), ...dense.map(({ id }) => id)])];
  const cosines = new Map(ids.map((id) => [id, cosineOf(id)]));
  const highest = Math.max(...cosines.values());
  const lowest = Math.min(...cosines.values());
  for (const id of ids) {
    const meaning = highest === lowest ? 1 : (cosines.get(id)! - lowest) / (highest - lowest);
    fused.set(id, fusion.lexicalWeight * ((words.get(id) ?? 0) / top) + (1 - fusion.lexicalWeight) * meaning);
  }
  return fused;
}

/** The cosine of the query with one operation's vector (0 without one). */
export function cosine(table: VectorTable, query: Float32Array, id: string): number {
  const vector = table.vectors.get(id);
  if (!vector) return 0;
  let dot = 0;
  for (let i = 0; i < vector.length; i++) dot += vector[i]! * query[i]!;
  return dot;
}

function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
