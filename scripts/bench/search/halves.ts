// The two halves of the search evaluation and which a run uses. The tuning half (tasks.ts) is
// what ranking changes may be judged on; the held-out half (held-out/, its own APIs) was fixed
// before any tuning and is only reported, never tuned on. `--tuning-only` leaves the held-out
// half out entirely (not imported, not scored, not printed): that is how ranking is tuned.
import type { TaskSet } from './task-set.ts';
import { TUNING } from './tasks.ts';

export const tuningOnly = process.argv.includes('--tuning-only');

/** The halves of this run: the tuning half, then the held-out half unless --tuning-only. */
export async function evaluationHalves(): Promise<TaskSet[]> {
  if (tuningOnly) return [TUNING];
  // Loaded only here, so that a tuning run never reads it and a checkout without it still tunes.
  const file = new URL('./held-out/index.ts', import.meta.url);
  let heldOut: TaskSet;
  try {
    heldOut = ((await import(file.href)) as { HELD_OUT: TaskSet }).HELD_OUT;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error('the held-out half (scripts/bench/search/held-out/) is not in this checkout: run with --tuning-only');
  }
  return [TUNING, heldOut];
}
