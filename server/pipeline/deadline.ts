// A request's budget for database work (DB_TIMEOUT_MS): the answer is bounded even where the
// driver is not, so a frozen database gives 503 within the budget instead of a hang; and every
// database call of the request asks the server to give up when the budget does (maxTimeMS).
import type { ServerResponse } from 'node:http';
import { ServiceUnavailable } from '../errors.ts';
import { withinBudget, type Budget } from '../store/budget.ts';

/**
 * The answer is bounded even where the driver is not: past the budget the request is answered
 * 503. The database calls it made carry what was left of the budget as `maxTimeMS`, and a call
 * it would make after that is not sent at all (the client has its 503 already).
 */
export class Deadline implements Budget {
  #ends: number;
  /** When the current budget began (construction, or the restart after the body). */
  #began: number;
  readonly #budgetMs: number;
  /** The last database call the work started, and when: what an operator needs to know of a 503. */
  #lastCall: { name: string; at: number } | undefined;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
    this.#began = Date.now();
    this.#ends = this.#began + budgetMs;
  }

  callMs(call: string): number {
    const now = Date.now();
    const left = this.#ends - now;
    if (left <= 0) throw new ServiceUnavailable(`${this.#ranOut(now)}, before ${call} was sent`);
    this.#lastCall = { name: call, at: now };
    return Math.ceil(left);
  }

  /** `restart`: the body was read in between, so the operation gets the whole budget afresh. */
  async bound<T>(work: () => Promise<T>, restart?: 'restart'): Promise<T> {
    if (restart && Date.now() + this.#budgetMs > this.#ends) {
      this.#began = Date.now();
      this.#ends = this.#began + this.#budgetMs;
    }
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailable(this.#expiredIn())), Math.max(0, this.#ends - Date.now()));
    });
    try {
      return await Promise.race([withinBudget(this, work), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  #ranOut(now: number): string {
    return `the request's database budget (DB_TIMEOUT_MS ${this.#budgetMs} ms) ran out after ${now - this.#began} ms`;
  }

  #expiredIn(): string {
    const now = Date.now();
    const call = this.#lastCall;
    return call
      ? `${this.#ranOut(now)} waiting on ${call.name} (sent ${now - call.at} ms before)`
      : `${this.#ranOut(now)} before any database call was sent`;
  }
}

/**
 * Whole-version work of a request (an import, a copy): each database call gets
 * DB_LONG_TIMEOUT_MS (store/budget.ts). Every call still running ends once the client has gone
 * (it closed the connection, or shutdown closed it past SHUTDOWN_TIMEOUT_MS): nobody is left to
 * answer, so the database is freed of the work. And once one call was ended for outliving its
 * bound, the work gives up as a whole: no call is sent after it (a stalled database would hold
 * each of them as long), so the client has its 503 one bound after the stall began.
 */
export async function whileClientWaits<T>(res: ServerResponse, work: () => Promise<T>): Promise<T> {
  const abandoned = new AbortController();
  const abandon = (reason: ServiceUnavailable) => {
    if (!abandoned.signal.aborted) abandoned.abort(reason);
  };
  const onClose = () => {
    if (!res.writableFinished) abandon(new ServiceUnavailable('the client went away; its whole-version work was abandoned'));
  };
  res.once('close', onClose);
  const budget = {
    signal: abandoned.signal,
    callMs: (call: string) => {
      if (abandoned.signal.aborted) throw new ServiceUnavailable(`${(abandoned.signal.reason as Error).message}; ${call} was not sent`);
      return undefined;
    },
    callEnded: abandon,
  };
  try {
    return await withinBudget(budget, work);
  } finally {
    res.off('close', onClose);
  }
}
