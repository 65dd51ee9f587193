// A request's budget for database work (DB_TIMEOUT_MS): the answer is bounded even where the
// driver is not, so a frozen database gives 503 within the budget instead of a hang.
import { ServiceUnavailable } from './errors.ts';

/**
 * The answer is bounded even where the driver is not: past the budget the request is answered
 * 503 (the database call itself may still finish, as after any lost connection).
 */
export class Deadline {
  #ends: number;
  readonly #budgetMs: number;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
    this.#ends = Date.now() + budgetMs;
  }

  /** `restart`: the body was read in between, so the operation gets the whole budget afresh. */
  async bound<T>(work: Promise<T>, restart?: 'restart'): Promise<T> {
    if (restart) this.#ends = Math.max(this.#ends, Date.now() + this.#budgetMs);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailable()), Math.max(0, this.#ends - Date.now()));
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
