// The search bench's check that its figures are the service's: the search route answers each task
// as the ranker built from the version's records does, in the whole version and filtered to the
// task's service. Shared by main.ts (the full bench) and spec/features/search/route-index.spec.ts,
// which runs it on two descriptions after imports and edits.
import type { Ranker } from './rankers.ts';
import type { Task } from './task-set.ts';

/** One search through the route: the operationIds of its hits, best first. */
export type RouteSearch = (query: string, limit: number, service: string | undefined) => Promise<readonly string[]>;

/** Each ask (and scope) on which the route and the ranker differ, with both answers; empty when they agree. */
export async function routeDifferences(route: RouteSearch, ranker: Ranker, tasks: readonly Task[], services: ReadonlyMap<string, string>): Promise<string[]> {
  const differences: string[] = [];
  for (const task of tasks) {
    for (const scope of [undefined, { serviceId: services.get(task.service)!, slug: task.service }]) {
      const theirs = await route(task.ask, 20, scope?.slug);
      const mine = await ranker.rank(task.ask, scope, 20);
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
        differences.push(`"${task.ask}"${scope ? ` (service=${scope.slug})` : ''}: route ${theirs.join(', ')}; index ${mine.join(', ')}`);
      }
    }
  }
  return differences;
}
