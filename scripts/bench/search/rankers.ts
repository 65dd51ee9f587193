// The three rankings the search benchmark compares over the same records: the service's index
// (server/search/ranking.ts), the hand-written scorer it replaced (old-score.ts, kept here only
// to be compared) and a stock BM25 baseline (MiniSearch with default options over operationId,
// path, summary, description and tags). Each answers operationIds, best first.
import MiniSearch from 'minisearch';
import type { VersionView } from '../../../server/search/endpoints.ts';
import { VersionIndex } from '../../../server/search/ranking.ts';
import type { CatalogRecord } from '../../../server/store/records.ts';
import { queryWords, ranked, score } from './old-score.ts';

export interface Ranker { name: string; rank(query: string, serviceId: string | undefined, slug: string | undefined, limit: number): string[] }

export async function indexRanker(view: VersionView): Promise<Ranker> {
  const index = await VersionIndex.of(view);
  return {
    name: 'new index',
    rank: (query, serviceId, _slug, limit) => index.search({ query, limit, ...(serviceId === undefined ? {} : { serviceId }) })
      .map((hit) => String((hit['operation'] as { operationId: unknown }).operationId)),
  };
}

/** The search of server/search/endpoints.ts before the index, as it was. */
export function oldRanker(view: VersionView): Ranker {
  const parameterNames = new Map<string, string[]>();
  for (const record of view.of('parameters')) {
    const owner = str(record['operationId']) ?? str(record['pathId']);
    if (owner !== undefined) parameterNames.set(owner, [...(parameterNames.get(owner) ?? []), String(record['name'])]);
  }
  return {
    name: 'old scorer',
    rank(query, serviceId, _slug, limit) {
      const words = queryWords(query);
      const scored = view.of('operations').flatMap((operation) => {
        const path = view.byId('paths', operation['pathId']);
        if (!path || (serviceId && path['serviceId'] !== serviceId)) return [];
        return [{
          item: operation,
          key: `${String(operation['operationId'])}\u0000${operation.id}`,
          score: score(words, {
            operationId: str(operation['operationId']), path: str(path['path']), summary: str(operation['summary']),
            description: str(operation['description']), tags: Array.isArray(operation['tags']) ? operation['tags'].map(String) : [],
            parameters: [...(parameterNames.get(operation.id) ?? []), ...(parameterNames.get(path.id) ?? [])],
          }),
        }];
      });
      return ranked(scored, limit).map(({ item }) => String(item['operationId']));
    },
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
    rank: (query, serviceId, _slug, limit) => engine
      .search(query, serviceId === undefined ? {} : { filter: (result) => operations.get(String(result.id))!.serviceId === serviceId })
      .slice(0, limit).map((result) => String(operations.get(String(result.id))!.operation['operationId'])),
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
