// Accuracy of rankings on the evaluation set, in the whole version (every description competes:
// the headline) and with the `service` filter: hit@1 (an expected operation first), hit@5 (one
// in the top five), MRR (mean of 1/rank of the first expected one, 0 beyond the top 20) and
// recall@10 (the share of a task's expected operations in the top ten), per half, per API and
// per phrasing (intent or plain).
import type { Ranker, Scope } from './rankers.ts';
import type { Half, Task, TaskSet } from './task-set.ts';

const DEPTH = 20;

export interface Scores { tasks: number; hit1: number; hit5: number; mrr: number; recall10: number }

/** One task as one ranker answered it. `rank` is 1-based, 0 when no expected operation is in the top 20. */
export interface Outcome { task: Task; half: Half; rank: number; recall10: number; top: readonly string[] }

export interface RankerOutcomes { ranker: string; whole: Outcome[]; filtered: Outcome[] }

/** Runs every task through every ranker, with and without the service filter. */
export async function evaluate(rankers: readonly Ranker[], halves: readonly TaskSet[], services: ReadonlyMap<string, string>): Promise<RankerOutcomes[]> {
  const tasks = halves.flatMap((set) => set.tasks.map((task) => ({ task, half: set.half })));
  const results: RankerOutcomes[] = [];
  for (const ranker of rankers) {
    const run = async (filtered: boolean): Promise<Outcome[]> => {
      const outcomes: Outcome[] = [];
      for (const { task, half } of tasks) {
        const serviceId = services.get(task.service);
        if (filtered && serviceId === undefined) throw new Error(`service ${task.service} is not in the version`);
        const scope: Scope | undefined = filtered ? { serviceId: serviceId!, slug: task.service } : undefined;
        const top = await ranker.rank(task.ask, scope, DEPTH);
        const rank = top.findIndex((operationId) => task.expected.includes(operationId)) + 1;
        const recall10 = task.expected.filter((operationId) => top.slice(0, 10).includes(operationId)).length / task.expected.length;
        outcomes.push({ task, half, rank, recall10, top });
      }
      return outcomes;
    };
    results.push({ ranker: ranker.name, whole: await run(false), filtered: await run(true) });
  }
  return results;
}

export function scoresOf(outcomes: readonly Outcome[]): Scores {
  const n = outcomes.length || 1;
  return {
    tasks: outcomes.length,
    hit1: outcomes.filter((o) => o.rank === 1).length / n,
    hit5: outcomes.filter((o) => o.rank >= 1 && o.rank <= 5).length / n,
    mrr: outcomes.reduce((sum, o) => sum + (o.rank > 0 ? 1 / o.rank : 0), 0) / n,
    recall10: outcomes.reduce((sum, o) => sum + o.recall10, 0) / n,
  };
}

/** The groups each half is reported by: all its tasks, by phrasing, then per API. */
function groupsOf(set: TaskSet): { label: string; keep: (task: Task) => boolean }[] {
  return [
    { label: 'all', keep: () => true },
    { label: 'intent', keep: (task) => task.phrasing === 'intent' },
    { label: 'plain', keep: (task) => task.phrasing === 'plain' },
    ...set.sources.map((source) => ({ label: source.slug, keep: (task: Task) => task.service === source.slug })),
  ];
}

/** One table per half: rows are group × ranker, columns the whole version then the service filter. */
export function formatAccuracy(results: readonly RankerOutcomes[], halves: readonly TaskSet[]): string[] {
  const pct = (value: number) => `${(value * 100).toFixed(0)}%`.padStart(5);
  const cells = (s: Scores) => `${pct(s.hit1)} ${pct(s.hit5)} ${s.mrr.toFixed(2).padStart(5)} ${pct(s.recall10)}`;
  const width = Math.max(10, ...results.map((r) => r.ranker.length));
  const lines: string[] = [];
  for (const set of halves) {
    const intents = set.tasks.filter((task) => task.phrasing === 'intent').length;
    lines.push('', `### ${set.half}: ${set.sources.length} APIs, ${set.tasks.length} tasks (${intents} phrased by intent)`);
    lines.push(`${''.padEnd(14 + width + 6)} | whole version            | with service filter`);
    lines.push(`${'tasks'.padEnd(14)}${'ranking'.padEnd(width)}     n | hit@1 hit@5   MRR  R@10 | hit@1 hit@5   MRR  R@10`);
    for (const group of groupsOf(set)) {
      for (const result of results) {
        const mine = (outcomes: readonly Outcome[]) => outcomes.filter((o) => o.half === set.half && group.keep(o.task));
        const whole = scoresOf(mine(result.whole));
        lines.push(`${group.label.padEnd(14)}${result.ranker.padEnd(width)} ${String(whole.tasks).padStart(5)} | ${cells(whole)} | ${cells(scoresOf(mine(result.filtered)))}`);
      }
    }
  }
  return lines;
}

/** The tasks a ranker does not answer first, whole version and filtered, with what came first. */
export function formatMisses(results: readonly RankerOutcomes[]): string[] {
  return results.flatMap((result) => (['whole', 'filtered'] as const).flatMap((mode) => result[mode]
    .filter((o) => o.rank !== 1)
    .map((o) => `${result.ranker}${mode === 'filtered' ? ' [service]' : ''} (${o.half}, ${o.task.phrasing}): "${o.task.ask}" (${o.task.service}) → rank ${o.rank || `>${DEPTH}`}; first ${o.top.slice(0, 3).join(', ')}`)));
}
