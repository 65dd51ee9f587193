// Lints run on threads of their own (lint-worker.ts), one at a time in each lane: Spectral is
// synchronous for long stretches and GitHub's description holds it for minutes. Two lanes, a
// thread each (piscina), so that a dry run or a gate, which a caller waits for, never queues
// behind the lints run behind the writes: `behind` for those, `request` for the others. Each
// thread is started on first need, let go of after ten idle minutes, unreferenced so it never
// holds the process open. A lint is bounded in time: Spectral walks every place a schema is
// referenced, so a small description whose schemas name one another many times over could hold
// the thread for hours; past its bound piscina terminates the thread, and the next lint gets a
// new one.
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { piecesOf } from '../descriptions/pieces.ts';
import type { JsonObject } from '../json/values.ts';
import type { Finding } from './findings.ts';
import type { LintTask } from './lint-worker.ts';
import type { LintSettings } from './settings.ts';

const IDLE_MS = 10 * 60_000;

/** `behind`: the lints owed after writes (lints.ts); `request`: a dry run's or gate's (gate.ts). */
export type LintLane = 'behind' | 'request';
const pools = new Map<LintLane, Piscina<LintTask, Finding[]>>();
/**
 * Each lane's lints wait their turn here, not in piscina's queue: piscina 5 never starts a task
 * queued behind one whose thread it terminated at its bound (the waiting caller would hang).
 */
const turns = new Map<LintLane, Promise<unknown>>();

function poolOf(lane: LintLane): Piscina<LintTask, Finding[]> {
  let pool = pools.get(lane);
  if (!pool) pools.set(lane, pool = new Piscina({ filename: new URL('./lint-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS }));
  return pool;
}

function inTurn<T>(lane: LintLane, work: () => Promise<T>): Promise<T> {
  const turn = (turns.get(lane) ?? Promise.resolve()).then(work);
  turns.set(lane, turn.catch(() => {}));
  return turn;
}

/**
 * Starts the lane's thread, if it has none, in the lane's turn: a new thread loads Spectral for
 * over a second, which a lint owed after a write then spends exporting the description instead
 * of waiting for it. Nothing happens on a thread that is up.
 */
export function warmLane(lane: LintLane): void {
  // The lane's pool runs lint-worker.ts: its `warm` export takes nothing and answers true.
  const pool = poolOf(lane) as unknown as Piscina<undefined, boolean>;
  void inTurn(lane, async () => pool.threads.length > 0 || pool.run(undefined, { name: 'warm' })).catch(() => {});
}

/** A lint stopped at its bound (LINT_TIMEOUT_MS): nothing is known of the description's findings. */
export class LintTimedOut extends Error {
  readonly afterMs: number;

  constructor(afterMs: number) {
    super(`the lint was stopped after ${afterMs} ms (LINT_TIMEOUT_MS)`);
    this.afterMs = afterMs;
  }
}

/** The findings of `document` under `settings`, computed off this thread, in its lane, within `timeoutMs`. */
export async function lintOffThread(document: JsonObject, settings: LintSettings, { timeoutMs, lane }: { timeoutMs: number; lane: LintLane }): Promise<Finding[]> {
  const pieces = await piecesOf(document);
  return inTurn(lane, async () => {
    // The bound counts from when the thread starts on this lint (it says so on `started`): not
    // while it waits for the lint before it, nor while a new thread loads Spectral.
    const { port1: onStart, port2: started } = new MessageChannel();
    const bound = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    onStart.once('message', () => { timer = setTimeout(() => bound.abort(), timeoutMs); });
    onStart.unref();
    try {
      return await poolOf(lane).run({ pieces, settings, started }, { signal: bound.signal, transferList: [started] });
    } catch (error) {
      if (bound.signal.aborted) throw new LintTimedOut(timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      onStart.close();
    }
  });
}
