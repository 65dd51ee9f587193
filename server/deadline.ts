// A request's budget for database work (DB_TIMEOUT_MS): the answer is bounded even where the
// driver is not, so a frozen database gives 503 within the budget instead of a hang; and every
// database call of the request asks the server to give up when the budget does (maxTimeMS).
import { ServiceUnavailable } from './errors.ts';
import { withinBudget, type Budget } from './store/budget.ts';

/**
 * The answer is bounded even where the driver is not: past the budget the request is answered
 * 503. The database calls it made carry what was left of the budget as `maxTimeMS`, and a call
 * it would make after that is not sent at all (the client has its 503 already).
 */
export class Deadline implements Budget {
  #ends: number;
  readonly #budgetMs: number;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
    this.#ends = Date.now() + budgetMs;
  }

  callMs(): number {
    const left = this.#ends - Date.now();
    if (left <= 0) throw new ServiceUnavailable();
    return Math.ceil(left);
  }

  /** `restart`: the body was read in between, so the operation gets the whole budget afresh. */
  async bound<T>(work: () => Promise<T>, restart?: 'restart'): Promise<T> {
    if (restart) this.#ends = Math.max(this.#ends, Date.now() + this.#budgetMs);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailable()), Math.max(0, this.#ends - Date.now()));
    });
    try {
      return await Promise.race([withinBudget(this, work), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
