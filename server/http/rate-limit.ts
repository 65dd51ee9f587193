// Rate limiting per credential (express-rate-limit), one count for the whole app: authenticated
// requests count against their credential (API key id or token subject), failed authentications
// against the client address, so a flood of guesses is slowed too, whether the guesses come as
// bearer headers, page sessions or the sign-in form. A request that asks for several pieces of
// work (an MCP batch) counts once for each. Over the limit: 429 with Retry-After.
import type { Request, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import type { Authenticate } from '../auth/authenticate.ts';
import type { Credential } from '../auth/credential.ts';
import { TooManyRequests, Unauthorized } from '../errors.ts';

export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface RateLimiter {
  /** `authenticate`, with every request counted and refused once its key is over the limit. */
  guard(authenticate: Authenticate): Authenticate;
  /**
   * Counts `count` more requests against the credential `guard` found for `req` (the address
   * when none was found): 429 as soon as one of them is over the limit.
   */
  spend(req: Request, count: number): Promise<void>;
}

/** With no limit (RATE_LIMIT=off) nothing is counted. */
export function rateLimiter(limit: RateLimit | undefined): RateLimiter {
  return limit ? new CountingLimiter(limit) : { guard: (authenticate) => authenticate, spend: async () => {} };
}

class CountingLimiter implements RateLimiter {
  readonly #limit: RateLimit;
  readonly #credentials = new WeakMap<Request, Credential>();
  readonly #store = new MemoryStore();
  readonly #middleware: ReturnType<typeof rateLimit>;

  constructor(limit: RateLimit) {
    this.#limit = limit;
    this.#middleware = rateLimit({
      windowMs: limit.windowMs,
      limit: limit.max,
      store: this.#store,
      // Only Retry-After, on the 429 itself: RateLimit headers on every answer would make the
      // answers to different credentials differ (the 401/403 answers are meant to be identical).
      standardHeaders: false,
      legacyHeaders: false,
      keyGenerator: (req) => this.#keyOf(req),
      handler: (req, _res, next) => {
        const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        next(this.#refusal(resetTime));
      },
      // We run behind no proxy we know of; a client's X-Forwarded-For is its own business, not a misconfiguration.
      validate: { xForwardedForHeader: false, trustProxy: false },
    });
  }

  guard(authenticate: Authenticate): Authenticate {
    return async (req, res) => {
      let credential: Credential;
      try {
        credential = await authenticate(req, res);
      } catch (error) {
        if (error instanceof Unauthorized) await this.#count(req, res);
        throw error;
      }
      this.#credentials.set(req, credential);
      await this.#count(req, res);
      return credential;
    };
  }

  async spend(req: Request, count: number): Promise<void> {
    const key = this.#keyOf(req);
    for (let i = 0; i < count; i++) {
      const { totalHits, resetTime } = await this.#store.increment(key);
      if (totalHits > this.#limit.max) throw this.#refusal(resetTime);
    }
  }

  #keyOf(req: Request): string {
    const credential = this.#credentials.get(req);
    return credential ? `${credential.scheme}:${credential.subject}` : `address:${ipKeyGenerator(req.ip ?? '')}`;
  }

  #refusal(resetTime: Date | undefined): TooManyRequests {
    return new TooManyRequests(resetTime ? (resetTime.getTime() - Date.now()) / 1000 : this.#limit.windowMs / 1000);
  }

  #count(req: Request, res: Response): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      void this.#middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  }
}
