// Comparisons run on a thread of their own. api-smart-diff is synchronous and costs seconds to
// minutes on the largest descriptions (Microsoft Graph beta: minutes), and on some it recurses
// until the stack overflows (azure.com/network-applicationGateway, after 25 to 40 s): on the
// request's thread either froze every other request that long. One worker, started on first use
// and held open only while a comparison waits on it; comparisons queue on it in order. The
// documents go over in pieces (pieces.ts): posted whole, a large export held this thread for
// the second its copy took.
import { Worker } from 'node:worker_threads';
import { piecesOf, type Pieces } from '../descriptions/pieces.ts';
import type { JsonObject } from '../json/values.ts';
import { incompleteComparison, type ServiceChange } from './compare.ts';

type Doc = Record<string, unknown>;

export interface ComparisonAsk { id: number; before: Pieces; after: Pieces }
export type ComparisonAnswer = { id: number; changes: ServiceChange[] } | { id: number; failed: string };

interface Waiting { resolve(answer: ComparisonAnswer): void; reject(error: Error): void }

/** The worker and what waits on it: a thread that fails fails its own waiters only. */
class ComparisonThread {
  // The main thread's stack (about 1 MB), not a worker's default 4 MB: on the documents that
  // overflow it, the library's recursion grows with the stack it is given (measured: 32 s to
  // overflow on the main thread, over 5 minutes in a default worker).
  readonly #worker = new Worker(new URL('./compare-worker.ts', import.meta.url), { resourceLimits: { stackSizeMb: 1 } });
  readonly #waiting = new Map<number, Waiting>();
  failed = false;

  constructor() {
    this.#worker.unref();
    this.#worker.on('message', (answer: ComparisonAnswer) => {
      this.#waiting.get(answer.id)?.resolve(answer);
      this.#waiting.delete(answer.id);
      if (this.#waiting.size === 0) this.#worker.unref();
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the comparison thread exited (code ${code})`)));
  }

  ask(ask: ComparisonAsk): Promise<ComparisonAnswer> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(ask.id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage(ask);
    });
  }

  #fail(error: Error): void {
    this.failed = true;
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}

let thread: ComparisonThread | undefined;
let asked = 0;

/** The changes from `before` to `after` (compare.ts's compareUnlessSame), computed off this thread. */
export async function compareOffThread(before: Doc, after: Doc): Promise<ServiceChange[]> {
  if (before === after) return [];
  // A thread that failed (out of memory, a bug) is replaced by the next comparison.
  if (!thread || thread.failed) thread = new ComparisonThread();
  const ask = { id: ++asked, before: await piecesOf(before as JsonObject), after: await piecesOf(after as JsonObject) };
  // Cut while other requests ran: a thread that failed meanwhile is replaced.
  if (thread.failed) thread = new ComparisonThread();
  const answer = await thread.ask(ask);
  return 'changes' in answer ? answer.changes : incompleteComparison(before, after, answer.failed);
}
