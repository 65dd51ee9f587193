// The rankings the search evaluation compares over the same records, and the one place a new
// ranking is added. Each is built from a version's view (the records search reads) and answers
// operationIds, best first. Today: the service's index (server/search/ranking.ts), a stock BM25
// baseline (MiniSearch with default options over operationId, path, summary, description and
// tags), the model alone and the model fused with the index.
import MiniSearch from 'minisearch';
import type { VersionView } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import type { CatalogRecord } from '../../../server/store/records.ts';
import { denseRanker, fusedRanker, rrfRanker, weightedRanker } from './model-rankers.ts';

/** Where a ranking looks: one service (by record id and by slug; rankings key either way) or, when absent, the whole version. */
export interface Scope { serviceId: string; slug: string }

export interface Ranker {
  name: string;
  /** At most `limit` operationIds, best first. May be async (a model may have to run). */
  rank(query: string, scope: Scope | undefined, limit: number): readonly string[] | Promise<readonly string[]>;
}

/**
 * Builds a ranker from a version's view, once per run (main.ts imports each API once; offline.ts
 * reads a saved view). To add a ranking (dense-only, fused...), write a factory and add it to
 * RANKERS under a short key; list its key in DEFAULT_RANKERS to have every run score it. Nothing
 * else changes: accuracy.ts scores every ranker the same way, per API and per half.
 */
export type RankerFactory = (view: VersionView) => Ranker | Promise<Ranker>;

export const RANKERS: Readonly<Record<string, RankerFactory>> = {
  hybrid: (view) => fusedRanker(view),
  index: indexRanker,
  dense: denseRanker,
  bm25: baselineRanker,
  rrf: rrfRanker,
  weighted: weightedRanker,
};

/** What a run scores without `--rankers a,b`. `hybrid` is the service's own with its model (main.ts checks the route against it); `index` the same without. */
export const DEFAULT_RANKERS: readonly string[] = ['hybrid', 'index', 'dense', 'bm25'];

/** The rankers named by `--rankers a,b` (or the default ones), built from the view in order. */
export async function rankersFor(view: VersionView, argv: readonly string[] = process.argv): Promise<Ranker[]> {
  const at = argv.indexOf('--rankers');
  const keys = at >= 0 ? (argv[at + 1] ?? '').split(',').filter(Boolean) : DEFAULT_RANKERS;
  const unknown = keys.filter((key) => !(key in RANKERS));
  if (unknown.length > 0 || keys.length === 0) throw new Error(`--rankers takes some of ${Object.keys(RANKERS).join(', ')}; not ${unknown.join(', ') || 'nothing'}`);
  const rankers: Ranker[] = [];
  for (const key of keys) rankers.push(await RANKERS[key]!(view));
  return rankers;
}

export async function indexRanker(view: VersionView): Promise<Ranker> {
  const index = await VersionIndex.of(view);
  return {
    name: 'index',
    rank: (query, scope, limit) => index.rank({ query, limit, ...(scope === undefined ? {} : { serviceId: scope.serviceId }) })
      .ranked.map(({ operation }) => String(operation['operationId'])),
  };
}

/** MiniSearch as it comes: default tokenizer, no stemming, boosts, prefix or typo tolerance. */
export function baselineRanker(view: VersionView): Ranker {
  const engine = new MiniSearch({ fields: ['operationId', 'path', 'summary', 'description', 'tags'] });
  const operations = new Map<string, { operation: CatalogRecord; serviceId: unknown }>();
  for (const operation of view.of('operations')) {
    const path = view.byId('paths', operation['pathId']);
    if (!path) continue;
    operations.set(operation.id, { operation, serviceId: path['serviceId'] });
    engine.add({
      id: operation.id, operationId: str(operation['operationId']) ?? '', path: str(path['path']) ?? '', summary: str(operation['summary']) ?? '',
      description: str(operation['description']) ?? '', tags: Array.isArray(operation['tags']) ? operation['tags'].join(' ') : '',
    });
  }
  return {
    name: 'stock BM25',
    rank: (query, scope, limit) => engine
      .search(query, scope === undefined ? {} : { filter: (result) => operations.get(String(result.id))!.serviceId === scope.serviceId })
      .slice(0, limit).map((result) => String(operations.get(String(result.id))!.operation['operationId'])),
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
