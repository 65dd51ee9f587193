// Accuracy of rankings on the evaluation set: hit@1 (the right operation first), hit@5 (in the
// top five) and MRR (mean of 1/rank, 0 beyond the top 20), each with and without the `service`
// filter (without it, every description of the version competes), on the tuning half of the
// tasks, the held-out half and all (halves.ts).
import { HALVES } from './halves.ts';
import type { Ranker } from './rankers.ts';
import type { Task } from './tasks.ts';

const DEPTH = 20;

export interface Scores { hit1: number; hit5: number; mrr: number }
export interface Row { ranker: string; half: string; filtered: Scores; unfiltered: Scores }
export interface AccuracyResults { rows: Row[]; misses: string[] }

export function accuracy(rankers: readonly Ranker[], tasks: readonly Task[], services: ReadonlyMap<string, string>): AccuracyResults {
  const misses: string[] = [];
  const rows = rankers.flatMap((ranker) => {
    const rankOf = (task: Task, index: number, filtered: boolean): number => {
      const found = filtered ? ranker.rank(task.ask, services.get(task.service), task.service, DEPTH) : ranker.rank(task.ask, undefined, undefined, DEPTH);
      const rank = found.findIndex((operationId) => task.expected.includes(operationId)) + 1;
      if (rank !== 1) misses.push(`${ranker.name}${filtered ? ' [service]' : ''} (${HALVES.of(index)}): "${task.ask}" (${task.service}) → rank ${rank || '>20'}; first ${found.slice(0, 3).join(', ')}`);
      return rank;
    };
    const filtered = tasks.map((task, index) => rankOf(task, index, true));
    const unfiltered = tasks.map((task, index) => rankOf(task, index, false));
    return HALVES.names.map((half) => {
      const mine = (ranks: readonly number[]) => ranks.filter((_, index) => half === 'all' || HALVES.of(index) === half);
      return { ranker: ranker.name, half, filtered: scoresOf(mine(filtered)), unfiltered: scoresOf(mine(unfiltered)) };
    });
  });
  return { rows, misses };
}

function scoresOf(ranks: readonly number[]): Scores {
  return {
    hit1: ranks.filter((rank) => rank === 1).length / ranks.length,
    hit5: ranks.filter((rank) => rank >= 1 && rank <= 5).length / ranks.length,
    mrr: ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0) / ranks.length,
  };
}

export function formatAccuracy(results: AccuracyResults): string[] {
  const pct = (value: number) => `${(value * 100).toFixed(0)}%`.padStart(5);
  const cells = (scores: Scores) => `${pct(scores.hit1)} ${pct(scores.hit5)} ${scores.mrr.toFixed(2).padStart(5)}`;
  return [
    `${''.padEnd(23)} | with service filter | without`,
    `${'ranking'.padEnd(12)} ${'tasks'.padEnd(10)} | hit@1 hit@5   MRR | hit@1 hit@5   MRR`,
    ...results.rows.map((row) => `${row.ranker.padEnd(12)} ${row.half.padEnd(10)} | ${cells(row.filtered)} | ${cells(row.unfiltered)}`),
  ];
}
