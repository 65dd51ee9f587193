// The gate every import of every tenant passes before its body is read: at most `concurrency`
// run at once, and the memory they are expected to take together stays within `memoryBudget`.
// The others wait in one first-come queue, up to `queue` of them; beyond it, and for an import
// that could never fit the budget, 503 with Retry-After. Measured without it (concurrent large dry runs):
// two 2.7 MB dry runs at once took the process from 0.83 to 2.63 GB, stalling every tenant's
// requests 4.9 s, and three or four would have passed the heap. A waiting import has read no
// body (its socket holds it), so the queue costs next to no memory.
import type { Request, Response } from 'express';
import { ImportsBusy } from '../errors.ts';

export interface ImportGateLimits {
  /** Imports running at once, over all tenants (IMPORT_CONCURRENCY). */
  readonly concurrency: number;
  /** Imports waiting for their turn; more are refused (IMPORT_QUEUE). */
  readonly queue: number;
  /** Bytes of memory the running imports may be expected to take together (IMPORT_MEMORY_BUDGET). */
  readonly memoryBudget: number;
}

/**
 * What an import is expected to take in memory, per byte of its body: the body, the parsed,
 * validated, upgraded and dereferenced document and the plan. Measured on Microsoft Graph beta
 * (47 MB of JSON): the heap rose by about 1.1 GB during its import (docs/benchmark.md).
 */
export const MEMORY_PER_BODY_BYTE = 24;

/** Called once the import's work is over (settled either way): its place and memory go to the next. */
export type Leave = () => void;

interface Waiting {
  cost: number;
  enter(leave: Leave): void;
  refuse(error: ImportsBusy): void;
}

export class ImportGate {
  #running = 0;
  #reserved = 0;
  readonly #waiting: Waiting[] = [];
  readonly #limits: ImportGateLimits;
  /** The body size assumed when the request does not declare it (chunked, or compressed): the largest allowed. */
  readonly #largestBody: number;

  constructor(limits: ImportGateLimits, largestBody: number) {
    this.#limits = limits;
    this.#largestBody = largestBody;
  }

  /** Imports running and waiting now (for the log and tests). */
  get load(): { running: number; waiting: number; reservedBytes: number } {
    return { running: this.#running, waiting: this.#waiting.length, reservedBytes: this.#reserved };
  }

  /**
   * Waits for the import's turn, or throws ImportsBusy (503). A client that goes while waiting
   * leaves the queue. Call the returned Leave when the import's work has settled.
   */
  enter = (req: Request, res: Response): Promise<Leave> => {
    const cost = this.#largestBodyOf(req) * MEMORY_PER_BODY_BYTE;
    if (cost > this.#limits.memoryBudget) return Promise.reject(ImportsBusy.overBudget());
    if (this.#waiting.length === 0 && this.#fits(cost)) return Promise.resolve(this.#admit(cost));
    if (this.#waiting.length >= this.#limits.queue) return Promise.reject(ImportsBusy.queueFull());
    return new Promise<Leave>((resolve, reject) => {
      const waiting: Waiting = {
        cost,
        enter: (leave) => {
          res.off('close', gone);
          resolve(leave);
        },
        refuse: reject,
      };
      const gone = () => this.#forget(waiting);
      res.once('close', gone);
      this.#waiting.push(waiting);
    });
  };

  /** What the body may take at most: its declared length when it is sent as is, else the limit. */
  #largestBodyOf(req: Request): number {
    const declared = Number(req.headers['content-length']);
    const encoding = req.headers['content-encoding'];
    // A zip of a description's files unpacks to as much as the limit, whatever it declares.
    const asIs = (encoding === undefined || encoding === 'identity') && !req.is(['application/zip', 'application/x-zip-compressed']);
    return asIs && Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, this.#largestBody) : this.#largestBody;
  }

  #fits(cost: number): boolean {
    return this.#running < this.#limits.concurrency && this.#reserved + cost <= this.#limits.memoryBudget;
  }

  #admit(cost: number): Leave {
    this.#running++;
    this.#reserved += cost;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#running--;
      this.#reserved -= cost;
      this.#next();
    };
  }

  /** First come, first served: the head waits for room even when a smaller one behind it would fit. */
  #next(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.cost)) {
      const head = this.#waiting.shift()!;
      head.enter(this.#admit(head.cost));
    }
  }

  #forget(waiting: Waiting): void {
    const index = this.#waiting.indexOf(waiting);
    if (index === -1) return;
    this.#waiting.splice(index, 1);
    waiting.refuse(ImportsBusy.queueFull());
    // The head may have been what held the others back.
    this.#next();
  }
}
